package dev.tether.supervisor.internal.supervision;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.ProbeSettings;
import dev.tether.supervisor.internal.probes.ProbeClient;
import dev.tether.supervisor.internal.probes.ProbeClient.Outcome;

/**
 * Runs the children's HTTP readiness and liveness probes, as the tick saw them: each due
 * probe is sent without blocking, its answer is read by a later tick's {@link #poll()},
 * and its result is applied then under the supervisor's children, to the process it
 * probed only. A liveness probe that fails {@code failure-threshold} times in a row
 * restarts the child through {@link SupervisedChild#checkFailed}.
 */
final class ProbeScheduler implements AutoCloseable {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	private final ProbeClient client = new ProbeClient();

	ProbeScheduler(ChildTable children, StopTargets targets, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	/**
	 * Sends the due readiness probes of these starting children (those with
	 * {@code readiness.http-get}).
	 */
	void readiness(Map<SupervisedChild, ChildProcess> starting) {
		starting.forEach((child, process) -> {
			ProbeSettings settings = child.spec().readiness();
			if (claimed(child, process, false, settings)) {
				send(child, settings, (outcome) -> readinessResult(child, process, settings, outcome));
			}
		});
	}

	/** Sends the due liveness probes of these running children. */
	void liveness(Map<SupervisedChild, ChildProcess> running) {
		running.forEach((child, process) -> {
			ProbeSettings settings = child.spec().liveness();
			if (claimed(child, process, true, settings)) {
				send(child, settings, (outcome) -> livenessResult(child, process, settings, outcome));
			}
		});
	}

	private boolean claimed(SupervisedChild child, ChildProcess process, boolean live, ProbeSettings settings) {
		synchronized (this.children) {
			return child.process() == process
					&& child.probes().claim(process, live, this.clock.getAsLong(), settings.period());
		}
	}

	private void send(SupervisedChild child, ProbeSettings settings, Consumer<Outcome> result) {
		this.client.send(child.spec().port(), settings.httpGet(), settings.timeout(), this.clock.getAsLong(), result);
	}

	/**
	 * Applies the results that came since the last poll, and fails the probes past their
	 * timeout.
	 */
	void poll() {
		this.client.poll(this.clock.getAsLong());
	}

	private void readinessResult(SupervisedChild child, ChildProcess process, ProbeSettings settings, Outcome outcome) {
		synchronized (this.children) {
			if (child.process() != process) {
				return;
			}
			child.probes().record(process, false, outcome.passed(), outcome.detail());
			child.readinessChecked(
					process, outcome.passed(), "answer " + settings.describe(child.spec().port())
							+ " with 2xx or 3xx (last: " + outcome.detail() + ")",
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

	@Override
	public void close() {
		this.client.close();
	}

}
