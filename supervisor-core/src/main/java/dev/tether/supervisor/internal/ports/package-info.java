/**
 * Ports: who listens on a child's port, from {@code /proc/net/tcp*} and the socket inodes
 * in {@code /proc/<pid>/fd}, whether the child may take it, and, once it runs, whether
 * its own tree holds it. An orphan of ours on the port is stopped before the child
 * starts; anything else fails that child's start, or later its probes, and is never
 * signalled.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.ports;

import org.jspecify.annotations.NullMarked;
