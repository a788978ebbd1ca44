/**
 * Tether's supervision API: the facade ({@link dev.tether.supervisor.Supervisor} and its
 * builder, with {@link dev.tether.supervisor.Signals} and
 * {@link dev.tether.supervisor.Executables}) and the value types every layer speaks
 * ({@link dev.tether.supervisor.ChildSpec}, snapshots, states, exit statuses, events,
 * policies). Nothing else lives here: the engine behind the facade is
 * {@code dev.tether.supervisor.internal.supervision}, and what is not public here is a
 * value type's own check (a spec's form, its {@code depends-on}, its limits).
 */
@NullMarked
package dev.tether.supervisor;

import org.jspecify.annotations.NullMarked;
