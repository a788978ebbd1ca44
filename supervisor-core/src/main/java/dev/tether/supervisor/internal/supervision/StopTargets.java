package dev.tether.supervisor.internal.supervision;

import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * How a child's process is signalled and its end observed, for the collaborators that
 * begin stops: the stop coordinator knows whether the process is our own unreaped child
 * (signalled through the reaper) or one verified by its markers.
 */
@FunctionalInterface
interface StopTargets {

	/** The target for one process of a child. */
	StopTarget of(SupervisedChild child, ChildProcess process);

}
