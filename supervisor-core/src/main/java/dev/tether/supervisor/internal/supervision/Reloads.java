package dev.tether.supervisor.internal.supervision;

import java.util.Locale;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Asks a running child to reload its configuration with its {@code reload-signal}
 * ({@link dev.tether.supervisor.Supervisor#reload}), through the one verified path that
 * stops use too.
 */
final class Reloads {

	// Why its child's logger: a child's whole life is logged under one name, which is
	// what users configure.
	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	Reloads(ChildTable children, StopTargets targets, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	ChildSnapshot reload(String name) {
		synchronized (this.children) {
			SupervisedChild child = this.children.require(name);
			ChildProcess process = child.process();
			if (child.state() != ChildState.RUNNING || process == null) {
				throw new IllegalStateException(
						"child '" + name + "' is " + child.state() + ": only a RUNNING child is reloaded");
			}
			int signal = child.spec().reloadSignal();
			if (process.handle() != null && signal != Posix.SIGTERM) {
				// Why refused: without native calls the JDK's handle of our child is the
				// one proof of its identity, and it sends TERM and KILL only; anything
				// else would be sent as TERM, which stops the child instead.
				throw new IllegalStateException("child '" + name + "' was not reloaded: without a native backend only "
						+ "TERM and KILL can be sent to it, not signal " + signal);
			}
			Verdict sent = this.targets.of(child, process).signal(signal);
			if (sent != Verdict.OURS) {
				throw new IllegalStateException("child '" + name + "' was not reloaded: its process (pid "
						+ process.pid() + ") is " + sent.name().toLowerCase(Locale.ROOT).replace('_', ' '));
			}
			process.reloadAsked(child.spec(), this.clock.getAsLong());
			logger.info("Child '{}' (pid {}) asked to reload with signal {}", name, process.pid(), signal);
			return child.snapshot(this.clock.getAsLong());
		}
	}

}
