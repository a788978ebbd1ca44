package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * Watches the shepherds of running children at each tick: learns each command's pid once
 * its shepherd has forked it, and ends the tree of a shepherd found stopped by a signal
 * ({@code kill -STOP $PPID} from its command). Why the latter: a stopped shepherd acts on
 * nothing but SIGKILL and SIGCONT, so it would end its tree neither when its child is
 * stopped nor, until it is resumed, when the JVM dies. {@code /proc} is read outside the
 * supervisor's lock; what follows is applied under it.
 */
final class ShepherdWatch {

	private final IdentityProbe probe;

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	// Why a period: a read of /proc/<pid>/stat per shepherd at every tick cost a tick of
	// 1,000 children ten times its time; a stopped shepherd is an attack to notice within
	// a second, not a deadline to meet at each tick.
	static final Duration STATE_PERIOD = Duration.ofSeconds(1);

	// Why a bound on reads, past 1,000 shepherds: at 6,000 a period of one second
	// read 1,200 stat files a tick, a third of the tick's time; the period then grows
	// with their number instead.
	private static final long STATE_READS_PER_SECOND = 1_000;

	// Why volatile, not locked: each pass reads the last finished pass's map and
	// publishes a new one; tick() is public, and two passes at once cost at most one
	// extra read each.
	private volatile Map<Long, Long> nextStateChecks = new HashMap<>();

	/**
	 * @param lock the supervisor's children, under which every child is read and changed
	 * @param targets how a child's process is signalled
	 */
	ShepherdWatch(IdentityProbe probe, ChildTable children, StopTargets targets, LongSupplier clock) {
		this.probe = probe;
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	/**
	 * Checks these shepherds, as the tick saw them under the lock: a command's pid until
	 * it is known, and each shepherd's state once per {@link #STATE_PERIOD}. Call it
	 * holding no lock.
	 */
	void watch(List<WatchedShepherd> shepherds) {
		this.children.assertNotHeld();
		long now = this.clock.getAsLong();
		long period = statePeriod(shepherds.size()).toNanos();
		Map<Long, Long> nextChecks = new HashMap<>();
		for (WatchedShepherd seen : shepherds) {
			SupervisedChild child = seen.child();
			ChildProcess process = seen.process();
			boolean commandKnown = seen.commandKnown();
			Long known = this.nextStateChecks.get(process.pid());
			// Why a new shepherd's first check at a random point of the period: shepherds
			// started together would otherwise be read in the same tick, every period.
			long due = (known != null) ? known : now + ThreadLocalRandom.current().nextLong(period);
			boolean checkState = now - due >= 0;
			nextChecks.put(process.pid(), checkState ? now + period : due);
			if (commandKnown && !checkState) {
				continue;
			}
			OptionalLong command = commandKnown ? OptionalLong.empty() : Shepherd.commandPid(process.pid());
			// Why 'T' alone: it is a stop by a signal; 't' is a debugger's, which must be
			// left as it is.
			boolean stopped = checkState
					&& this.probe.stat(process.pid()).map((stat) -> stat.state() == 'T').orElse(false);
			synchronized (this.children) {
				if (child.process() != process) {
					continue;
				}
				command.ifPresent((pid) -> child.command().forked(child.name(), process, pid));
				if (stopped) {
					act(child.shepherdStopped(), this.targets.of(child, process));
				}
			}
		}
		// Why replaced whole: the shepherds of processes that ended are forgotten with
		// them.
		this.nextStateChecks = nextChecks;
	}

	/**
	 * How often each of {@code shepherds} has its state read: {@link #STATE_PERIOD}, or
	 * longer past {@value #STATE_READS_PER_SECOND} shepherds, so that the reads of a
	 * second stay within that number.
	 */
	static Duration statePeriod(int shepherds) {
		return Duration.ofMillis(Math.max(STATE_PERIOD.toMillis(), shepherds * 1_000L / STATE_READS_PER_SECOND));
	}

	private static void act(Action action, StopTarget shepherd) {
		switch (action) {
			case END_TREE -> {
				// A shepherd's SIGKILL step is its kill-tree request; SIGCONT resumes it
				// to act on it.
				shepherd.signal(Posix.SIGKILL);
				shepherd.signal(Posix.SIGCONT);
			}
			case KILL_SHEPHERD -> shepherd.killHarder();
			case LEFT_TO_THE_STOP -> {
			}
		}
	}

	/**
	 * A child's process under a shepherd, as the tick saw it under the lock.
	 *
	 * @param commandKnown whether its command's pid is known yet
	 */
	record WatchedShepherd(SupervisedChild child, ChildProcess process, boolean commandKnown) {
	}

	/**
	 * What is done about a shepherd found stopped (see
	 * {@link SupervisedChild#shepherdStopped()}).
	 */
	enum Action {

		/**
		 * A stop is under way: its ladder resumes the shepherd (SIGCONT) and, if need be,
		 * kills it.
		 */
		LEFT_TO_THE_STOP,

		/**
		 * Found stopped the first time: the kill-tree request, and SIGCONT so that the
		 * shepherd acts on it.
		 */
		END_TREE,

		/**
		 * Found stopped again: SIGKILL to the shepherd itself; its command dies with it,
		 * and what is left is swept.
		 */
		KILL_SHEPHERD

	}

}
