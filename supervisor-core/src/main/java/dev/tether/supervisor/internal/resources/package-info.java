/**
 * What a child's processes use and may use, read from {@code /proc}: the usage of a
 * child's whole tree (resident memory, CPU time including reaped descendants, processes,
 * the command's descriptors), and this process's own limits and privilege, against which
 * a child's limits are checked before anything starts. Reading only: nothing here signals
 * or changes a process. The parsers are pure, so that every format is testable from text.
 * A tree's sampler keeps its processes' {@code /proc} files open between samples, within
 * a budget of this JVM's descriptors, because a positional read of an open file costs a
 * fraction of opening it again; its owner decides when they go.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.resources;

import org.jspecify.annotations.NullMarked;
