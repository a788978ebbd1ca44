package dev.tether.supervisor;

import java.time.Instant;

/**
 * What reconciliation found and did.
 *
 * @param at when it ran
 * @param ours processes verified as ours (orphans of a previous run)
 * @param notOurs rows whose pid now names another process (dropped, never signalled)
 * @param gone rows whose process no longer exists (dropped)
 * @param unverifiable processes that could not be checked (left alone)
 * @param stopped orphans stopped
 * @param adopted orphans adopted
 */
public record ReconciliationReport(Instant at, int ours, int notOurs, int gone, int unverifiable, int stopped,
		int adopted) {
}
