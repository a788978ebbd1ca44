/**
 * The supervision engine behind {@link dev.tether.supervisor.Supervisor}: one state
 * machine per child ({@code SupervisedChild}, with its restart budget, launch gate, port
 * reclaim, probes and shepherded command), the table of children whose monitor is the one
 * lock, and the collaborators that act on many children at once (launches, stops,
 * dependent restarts, reconciliation, reconfiguration, the tick's checks outside the
 * lock, resource watch, the event outbox, the registry saver). Data flows one way, spec →
 * spawn → exit → decision → registry, under one lock that is never held while a process
 * takes its time ({@link dev.tether.supervisor.internal.supervision.Engine} states the
 * rules).
 * <p>
 * Why a package of its own: the root package is the API users read, and the engine is
 * wired to the parts below it (spawn, stop, identity, reaper, output, ports, probes,
 * reconcile, resources) that the API never reaches. Only {@code Engine} and its settings
 * are public, for the facade; everything else is package-private.
 * <p>
 * Not API: it may change in any release.
 */
@NullMarked
package dev.tether.supervisor.internal.supervision;

import org.jspecify.annotations.NullMarked;
