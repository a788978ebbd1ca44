package dev.tether.supervisor;

/**
 * A readiness or liveness probe of a child that failed: one result, whether or not it was
 * the one that reached the liveness {@code failure-threshold} (that one also ends in the
 * {@link ChildEvent.Type#EXITED} and {@link ChildEvent.Type#RESTARTING} events that name
 * it). A readiness probe fails, too, while a starting child does not listen yet.
 *
 * @param child the child's name
 * @param kind its kind
 * @param probe which of its probes failed
 * @param result what the probe saw, and how many probes of its kind have failed in a row
 */
public record ProbeFailure(String child, ChildKind kind, Probe probe, ProbeResult result) {

	/** A child's probes. */
	public enum Probe {

		/** The probe that holds a child {@code STARTING} until it passes. */
		READINESS,

		/** The probe of a {@code RUNNING} child that restarts it after its threshold. */
		LIVENESS

	}

}
