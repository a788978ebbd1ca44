package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ProbeFailure;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.ProbeSettings;
import dev.tether.supervisor.internal.ports.PortOwnership;
import dev.tether.supervisor.internal.probes.ProbeClient;
import dev.tether.supervisor.internal.probes.ProbeClient.Outcome;

/**
 * Runs the children's readiness and liveness probes, as the tick saw them: each due probe
 * is handed to the {@link ProbeClient}'s thread (readiness without {@code http-get} is a
 * connection to the port, at each tick), and its result is applied as soon as it comes,
 * on that thread, under the supervisor's children, to the process it probed only. An
 * answer counts only when the child's own tree holds the port ({@link PortOwnership}): a
 * port held by anything else fails the probe, naming its holder. A liveness probe that
 * fails {@code failure-threshold} times in a row restarts the child through
 * {@link SupervisedChild#checkFailed}. Every failed result goes to the listeners as a
 * {@link ProbeFailure}.
 */
final class ProbeScheduler implements AutoCloseable {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	private final PortOwnership ownership;

	private final EventOutbox outbox;

	private final ProbeClient client = new ProbeClient(this::applyAnswers);

	// Why queued: the answers of one turn of the client are checked together, against
	// one reading of the listening sockets, then applied.
	private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();

	ProbeScheduler(ChildTable children, StopTargets targets, LongSupplier clock, PortOwnership ownership,
			EventOutbox outbox) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
		this.ownership = ownership;
		this.outbox = outbox;
	}

	/** Sends the due readiness probes of these starting children. */
	void readiness(Map<SupervisedChild, ChildProcess> starting) {
		starting.forEach((child, process) -> {
			ProbeSettings settings = readinessOf(child.spec());
			if (claimed(child, process, false, settings)) {
				send(child, process, false, settings);
			}
		});
	}

	/**
	 * Its {@code readiness}, or without {@code http-get} a connection to its port, sent
	 * at each tick (a period of zero) with the readiness timeout.
	 */
	private static ProbeSettings readinessOf(ChildSpec spec) {
		ProbeSettings readiness = spec.readiness();
		return readiness.enabled() ? readiness : new ProbeSettings(null, true, Duration.ZERO, readiness.timeout(), 1);
	}

	/** Sends the due liveness probes of these running children. */
	void liveness(Map<SupervisedChild, ChildProcess> running) {
		running.forEach((child, process) -> {
			ProbeSettings settings = child.spec().liveness();
			if (claimed(child, process, true, settings)) {
				send(child, process, true, settings);
			}
		});
	}

	private boolean claimed(SupervisedChild child, ChildProcess process, boolean live, ProbeSettings settings) {
		synchronized (this.children) {
			return child.process() == process
					&& child.probes().claim(process, live, this.clock.getAsLong(), settings.period());
		}
	}

	private void send(SupervisedChild child, ChildProcess process, boolean live, ProbeSettings settings) {
		this.client.send(child.spec().probeAddress(), child.spec().port(), settings.httpGet(), settings.timeout(),
				(outcome) -> this.answers.add(new Answer(child, process, live, settings, outcome)));
	}

	/**
	 * Applies the results that came, each passed one only once the child's tree is found
	 * to hold its port, then hands the events made to the listeners. Runs on the probe
	 * client's thread; reads {@code /proc}, holding no lock but the children's while it
	 * applies.
	 */
	private void applyAnswers() {
		List<Answer> arrived = new ArrayList<>();
		for (Answer answer = this.answers.poll(); answer != null; answer = this.answers.poll()) {
			arrived.add(answer);
		}
		PortOwnership.Checks checks = this.ownership.checks();
		for (Answer answer : arrived) {
			Outcome outcome = answer.outcome().passed() ? owned(answer, checks) : answer.outcome();
			try {
				if (answer.live()) {
					livenessResult(answer.child(), answer.process(), answer.settings(), outcome);
				}
				else {
					readinessResult(answer.child(), answer.process(), answer.settings(), outcome);
				}
			}
			catch (RuntimeException ex) {
				// Why each apart: one child's failure must not lose the others' results.
				logger.error("Child '{}': its probe result ({}) could not be applied", answer.child().name(),
						outcome.detail(), ex);
			}
		}
		this.outbox.dispatch();
	}

	/**
	 * The outcome of a passed probe, failed when the port is not held by the child's
	 * tree.
	 */
	private Outcome owned(Answer answer, PortOwnership.Checks checks) {
		ChildProcess process = answer.process();
		try {
			return checks.notHeld(answer.child().spec().port(), process, process.pid())
				.map((why) -> new Outcome(false, why))
				.orElse(answer.outcome());
		}
		catch (RuntimeException ex) {
			// Why failed: a port is trusted only once its holder is known (a process that
			// ends while its descriptors are read makes the read fail).
			return new Outcome(false, "who holds port " + answer.child().spec().port() + " could not be read: " + ex);
		}
	}

	private void readinessResult(SupervisedChild child, ChildProcess process, ProbeSettings settings, Outcome outcome) {
		synchronized (this.children) {
			if (child.process() != process) {
				return;
			}
			ProbeResult result = child.probes().record(process, false, outcome.passed(), outcome.detail());
			failed(child, ProbeFailure.Probe.READINESS, result);
			String expected = (settings.httpGet() != null)
					? "answer " + settings.describe(child.spec().port()) + " with 2xx or 3xx"
					: "accept connections on port " + child.spec().port();
			child.readinessChecked(process, outcome.passed(), expected + " (last: " + outcome.detail() + ")",
					this.targets.of(child, process), this.clock.getAsLong());
		}
	}

	private void livenessResult(SupervisedChild child, ChildProcess process, ProbeSettings settings, Outcome outcome) {
		synchronized (this.children) {
			if (child.process() != process || child.state() != ChildState.RUNNING) {
				return;
			}
			ProbeResult result = child.probes().record(process, true, outcome.passed(), outcome.detail());
			if (result.passed()) {
				return;
			}
			failed(child, ProbeFailure.Probe.LIVENESS, result);
			String probe = settings.describe(child.spec().port());
			if (result.failures() < settings.failureThreshold()) {
				logger.info("Child '{}' failed its liveness probe ({}) {} of {} times: {}", child.name(), probe,
						result.failures(), settings.failureThreshold(), outcome.detail());
				return;
			}
			child.checkFailed(
					process, "failed its liveness probe (" + probe + ") " + result.failures()
							+ " times in a row; last: " + outcome.detail(),
					this.targets.of(child, process), this.clock.getAsLong());
		}
	}

	private void failed(SupervisedChild child, ProbeFailure.Probe probe, ProbeResult result) {
		if (!result.passed()) {
			this.outbox.add(new ProbeFailure(child.name(), child.spec().kind(), probe, result));
		}
	}

	@Override
	public void close() {
		this.client.close();
	}

	/** A probe's answer, waiting for the next {@link #poll()}. */
	private record Answer(SupervisedChild child, ChildProcess process, boolean live, ProbeSettings settings,
			Outcome outcome) {
	}

}
