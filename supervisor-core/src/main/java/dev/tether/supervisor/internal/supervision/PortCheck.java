package dev.tether.supervisor.internal.supervision;

import java.time.Instant;
import java.util.Optional;

import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.internal.ports.PortOwnership;

/**
 * Checks on demand whether a child's port is held by its own process tree
 * ({@link dev.tether.supervisor.Supervisor#checkPort}), as readiness and liveness do at
 * each probe: for a client about to connect to the child. {@code /proc} is read outside
 * the supervisor's lock.
 */
final class PortCheck {

	private final ChildTable children;

	private final PortOwnership ownership;

	PortCheck(ChildTable children, PortOwnership ownership) {
		this.children = children;
		this.ownership = ownership;
	}

	/** Empty when no child has this name; else the result of the check now. */
	Optional<ProbeResult> check(String name) {
		Integer port;
		ChildProcess process;
		synchronized (this.children) {
			SupervisedChild child = this.children.find(name);
			if (child == null) {
				return Optional.empty();
			}
			port = child.spec().port();
			process = child.process();
		}
		String refusal;
		if (port == null) {
			refusal = "child '" + name + "' has no port";
		}
		else if (process == null) {
			refusal = "child '" + name + "' has no process";
		}
		else {
			refusal = this.ownership.checks().notHeld(port, process, process.pid()).orElse(null);
		}
		return Optional.of((refusal != null) ? new ProbeResult(false, refusal, Instant.now(), 1)
				: new ProbeResult(true, "port " + port + " is held by the child's own process tree", Instant.now(), 0));
	}

}
