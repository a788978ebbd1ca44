/**
 * The stop ladder: stop signal and SIGCONT, the stop timeout, SIGKILL to the group, the
 * end observed. One ladder serves every stop (a child's stop, restart and close,
 * reconciliation, port reclaims, strays). A stop never waits: it is state that its owner
 * advances (the supervision tick), so no lock is ever held while a process takes its
 * time; only processes that are not our children are waited for, by
 * {@link StopLadder#run}, outside any lock.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.stop;

import org.jspecify.annotations.NullMarked;
