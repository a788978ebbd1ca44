/**
 * Tether's supervision: the public API ({@link dev.tether.supervisor.Supervisor},
 * {@link dev.tether.supervisor.ChildSpec}, snapshots, states, exit statuses, events) and,
 * package-private, the engine behind it: one state machine per child, a pure restart
 * budget, the event outbox, the registry saver. Data flows one way, spec → spawn → exit →
 * decision → registry, under one lock that is never held while a process takes its time.
 */
@NullMarked
package dev.tether.supervisor;

import org.jspecify.annotations.NullMarked;
