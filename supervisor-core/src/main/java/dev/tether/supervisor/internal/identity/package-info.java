/**
 * Whether a process is ours: the environment markers, start time and boot id read from
 * {@code /proc}, and the verdicts {@code OURS}, {@code NOT_OURS}, {@code GONE},
 * {@code UNVERIFIABLE}. It fails closed: anything unreadable is never ours.
 * {@link dev.tether.supervisor.internal.identity.ProcessSignaller} is the only way a
 * process that is not our unreaped child is signalled, through a pidfd, after a verdict
 * {@code OURS}.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.identity;

import org.jspecify.annotations.NullMarked;
