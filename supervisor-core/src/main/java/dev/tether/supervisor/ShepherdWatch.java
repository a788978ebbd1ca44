package dev.tether.supervisor;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.BiFunction;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * Watches the shepherds of running children at each tick: learns each command's pid once its shepherd has forked
 * it, and ends the tree of a shepherd found stopped by a signal ({@code kill -STOP $PPID} from its command). Why the
 * latter: a stopped shepherd acts on nothing but SIGKILL and SIGCONT, so it would end its tree neither when its child
 * is stopped nor, until it is resumed, when the JVM dies. {@code /proc} is read outside the supervisor's lock; what
 * follows is applied under it.
 */
final class ShepherdWatch {

	private final IdentityProbe probe;

	private final ChildTable lock;

	private final BiFunction<SupervisedChild, ChildProcess, StopTarget> targets;

	/**
	 * @param lock the supervisor's lock, under which every child is read and changed
	 * @param targets how a child's process is signalled
	 */
	ShepherdWatch(IdentityProbe probe, ChildTable lock, BiFunction<SupervisedChild, ChildProcess, StopTarget> targets) {
		this.probe = probe;
		this.lock = lock;
		this.targets = targets;
	}

	/** Checks the shepherds of these children (those without one are passed over). Call it holding no lock. */
	void watch(List<SupervisedChild> children) {
		this.lock.assertNotHeld();
		for (SupervisedChild child : children) {
			ChildProcess process;
			boolean commandKnown;
			synchronized (this.lock) {
				process = child.process();
				commandKnown = child.commandKnown();
			}
			if (process == null || !process.shepherd()) {
				continue;
			}
			OptionalLong command = commandKnown ? OptionalLong.empty() : Shepherd.commandPid(process.pid());
			// Why 'T' alone: it is a stop by a signal; 't' is a debugger's, which must be left as it is.
			boolean stopped = this.probe.stat(process.pid()).map((stat) -> stat.state() == 'T').orElse(false);
			synchronized (this.lock) {
				if (child.process() != process) {
					continue;
				}
				command.ifPresent(child::commandForked);
				if (stopped) {
					act(child.shepherdStopped(), this.targets.apply(child, process));
				}
			}
		}
	}

	private static void act(Action action, StopTarget shepherd) {
		switch (action) {
			case END_TREE -> {
				// A shepherd's SIGKILL step is its kill-tree request; SIGCONT resumes it to act on it.
				shepherd.signal(Posix.SIGKILL);
				shepherd.signal(Posix.SIGCONT);
			}
			case KILL_SHEPHERD -> shepherd.killHarder();
			case LEFT_TO_THE_STOP -> {
			}
		}
	}

	/** What is done about a shepherd found stopped (see {@link SupervisedChild#shepherdStopped()}). */
	enum Action {

		/** A stop is under way: its ladder resumes the shepherd (SIGCONT) and, if need be, kills it. */
		LEFT_TO_THE_STOP,

		/** Found stopped the first time: the kill-tree request, and SIGCONT so that the shepherd acts on it. */
		END_TREE,

		/** Found stopped again: SIGKILL to the shepherd itself; its command dies with it, and what is left is swept. */
		KILL_SHEPHERD

	}

}
