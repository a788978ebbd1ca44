/**
 * Probes: an HTTP {@code GET} or a TCP connection to a child's port on the loopback address, asked without
 * blocking and answered through a future that always completes within the probe's timeout. Why not a thread per
 * child or a blocking call per probe: a hung child must never delay another child's probe, nor the supervision tick;
 * every probe shares one small thread (plus the JDK HTTP client's selector and the asynchronous channel group's
 * poller), whatever the number of children.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any release.
 */
@NullMarked
package dev.tether.supervisor.internal.probes;

import org.jspecify.annotations.NullMarked;
