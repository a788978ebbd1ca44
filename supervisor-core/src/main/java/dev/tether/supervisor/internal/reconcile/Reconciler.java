package dev.tether.supervisor.internal.reconcile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.ReconciliationReport;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.MarkedProcess;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.registry.RegistryRow;

/**
 * Settles what a previous run left behind: every registry row, and every live process
 * carrying this installation's markers (children of a crash before their row was written,
 * and grandchildren, which inherit the environment). {@code GONE} and {@code NOT_OURS}
 * rows are dropped without a signal; {@code OURS} orphans are stopped or adopted;
 * {@code UNVERIFIABLE} ones are left alone and reported.
 */
public class Reconciler {

	private static final Logger logger = LoggerFactory.getLogger(Reconciler.class);

	private final IdentityProbe probe;

	public Reconciler(ProcessSignaller signaller) {
		this.probe = signaller.probe();
	}

	/**
	 * @param owner this supervisor (installation and instance)
	 * @param rows the rows a previous run saved
	 * @param policy stop or adopt verified orphans
	 * @param adoptable which child names may be adopted (configured here, not running
	 * yet)
	 * @param stopOf how to stop a verified orphan (its child's stop signal and timeout)
	 * @param excluded pids never to touch (children of this run)
	 */
	public Result reconcile(Owner owner, List<RegistryRow> rows, OrphanPolicy policy, Predicate<String> adoptable,
			Function<ExpectedIdentity, StopLadder.Request> stopOf, Set<Long> excluded) {
		if (!this.probe.isAvailable()) {
			logger.warn("Identity cannot be verified on this platform: {} registry row(s) left alone", rows.size());
			return new Result(new ReconciliationReport(Instant.now(), 0, 0, 0, rows.size(), 0, 0), List.of());
		}
		int notOurs = 0;
		int gone = 0;
		int unverifiable = 0;
		List<Candidate> ours = new ArrayList<>();
		Set<Long> seen = new HashSet<>(excluded);
		for (RegistryRow row : rows) {
			if (!seen.add(row.pid())) {
				continue;
			}
			ChildKind kind;
			try {
				kind = ChildKind.fromId(row.kind());
			}
			catch (IllegalArgumentException ex) {
				unverifiable++;
				continue;
			}
			ExpectedIdentity identity = new ExpectedIdentity(row.pid(), owner, kind, row.name(), row.startTime(),
					row.bootId());
			switch (this.probe.verify(identity)) {
				case OURS -> ours.add(new Candidate(identity, row));
				case NOT_OURS -> notOurs++;
				case GONE -> gone++;
				case UNVERIFIABLE -> {
					unverifiable++;
					leftAlone(row.pid(), row.name());
				}
			}
		}
		for (MarkedProcess marked : this.probe.scanMarked(owner, Set.copyOf(seen))) {
			if (!seen.add(marked.pid())) {
				continue;
			}
			Optional<ProcStat> stat = this.probe.stat(marked.pid());
			if (stat.isEmpty()) {
				continue;
			}
			ExpectedIdentity identity = new ExpectedIdentity(marked.pid(), owner, marked.kind(), marked.name(),
					stat.get().startTime(), null);
			Verdict verdict = this.probe.verify(identity);
			if (verdict == Verdict.OURS) {
				ours.add(new Candidate(identity, null));
			}
			else if (verdict == Verdict.UNVERIFIABLE) {
				unverifiable++;
				leftAlone(marked.pid(), marked.name());
			}
		}
		List<Adoption> adoptions = new ArrayList<>();
		List<StopLadder.Request> toStop = new ArrayList<>();
		Set<String> adoptedNames = new HashSet<>();
		for (Candidate candidate : ours) {
			if (policy == OrphanPolicy.ADOPT && candidate.row != null && isGroupLeader(candidate.identity)
					&& adoptable.test(candidate.identity.name()) && adoptedNames.add(candidate.identity.name())) {
				adoptions.add(new Adoption(candidate.identity, candidate.row));
			}
			else {
				toStop.add(stopOf.apply(candidate.identity));
			}
		}
		int stopped = 0;
		for (StopOutcome outcome : StopLadder.run(toStop)) {
			if (outcome == StopOutcome.EXITED || outcome == StopOutcome.KILLED) {
				stopped++;
			}
		}
		ReconciliationReport report = new ReconciliationReport(Instant.now(), ours.size(), notOurs, gone, unverifiable,
				stopped, adoptions.size());
		logger.info(
				"Reconciliation of installation '{}': {} ours ({} stopped, {} adopted), {} not ours, {} gone, "
						+ "{} unverifiable",
				owner.installationId(), report.ours(), report.stopped(), report.adopted(), report.notOurs(),
				report.gone(), report.unverifiable());
		if (unverifiable > 0) {
			logger.warn("{} process(es) of a previous run could not be verified and were left alone", unverifiable);
		}
		return new Result(report, adoptions);
	}

	private static void leftAlone(long pid, String name) {
		logger.warn("pid {} (child '{}' of a previous run) could not be verified and is left alone; end it by hand if "
				+ "it is yours", pid, name);
	}

	private boolean isGroupLeader(ExpectedIdentity identity) {
		return this.probe.stat(identity.pid()).map((stat) -> stat.pgrp() == identity.pid()).orElse(false);
	}

	/**
	 * What reconciliation found and which orphans the supervisor should take over.
	 *
	 * @param report the counts
	 * @param adoptions the orphans to adopt
	 */
	public record Result(ReconciliationReport report, List<Adoption> adoptions) {
	}

	/**
	 * A verified orphan to supervise again.
	 *
	 * @param identity its verified identity (with start time and boot id)
	 * @param row its registry row
	 */
	public record Adoption(ExpectedIdentity identity, RegistryRow row) {
	}

	private record Candidate(ExpectedIdentity identity, RegistryRow row) {
	}

}
