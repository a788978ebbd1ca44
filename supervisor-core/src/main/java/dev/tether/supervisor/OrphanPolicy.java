package dev.tether.supervisor;

/**
 * What reconciliation does with a verified child of a previous run.
 */
public enum OrphanPolicy {

	/** Stop it with the stop ladder. */
	STOP,

	/** Supervise it again (its exit status will be unknown: it is not our child). */
	ADOPT

}
