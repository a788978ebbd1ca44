/**
 * Probes: an HTTP {@code GET} or a TCP connection to a child's port on the loopback
 * address, handed over by the supervision tick and run on one thread for every probe. Why
 * one thread, and no blocking call per probe: a hung child must never delay another
 * child's probe, nor the tick; and 500 children probed each second must cost the JVM
 * little (see docs/benchmarks.md).
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.probes;

import org.jspecify.annotations.NullMarked;
