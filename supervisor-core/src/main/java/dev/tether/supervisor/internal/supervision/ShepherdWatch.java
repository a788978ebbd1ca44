package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
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

	private final Turns turns;

	/**
	 * @param lock the supervisor's children, under which every child is read and changed
	 * @param targets how a child's process is signalled
	 */
	ShepherdWatch(IdentityProbe probe, ChildTable children, StopTargets targets, LongSupplier clock) {
		this.probe = probe;
		this.children = children;
		this.targets = targets;
		this.clock = clock;
		this.turns = new Turns(clock.getAsLong());
	}

	/**
	 * Checks these shepherds, as the tick saw them under the lock: a command's pid until
	 * it is known, and each shepherd's state in its turn ({@link Turns}), once per
	 * {@link #statePeriod}. Call it holding no lock.
	 */
	void watch(List<WatchedShepherd> shepherds) {
		this.children.assertNotHeld();
		Turn turn = this.turns.next(shepherds.size(), this.clock.getAsLong());
		for (int index = 0; index < shepherds.size(); index++) {
			WatchedShepherd seen = shepherds.get(index);
			SupervisedChild child = seen.child();
			ChildProcess process = seen.process();
			boolean commandKnown = seen.commandKnown();
			boolean checkState = turn.includes(index);
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
	}

	/**
	 * How often each of {@code shepherds} has its state read: {@link #STATE_PERIOD}, or
	 * longer past {@value #STATE_READS_PER_SECOND} shepherds, so that the reads of a
	 * second stay within that number.
	 */
	static Duration statePeriod(int shepherds) {
		return Duration.ofMillis(Math.max(STATE_PERIOD.toMillis(), shepherds * 1_000L / STATE_READS_PER_SECOND));
	}

	/**
	 * Whose state the passes read, in turn: each pass reads the shepherds that follow
	 * those the last pass read, as many as the time since it is worth at one read per
	 * shepherd per {@link #statePeriod}. Why in turn: due times drawn per shepherd kept
	 * the phase of the second they were drawn in, and children started together were
	 * still read together, 2,400 of 6,400 in one tick (a tick of 25 ms, against 3 ms for
	 * most); in turn, every pass reads its share. A child added or removed shifts the
	 * turn by one place, which delays or hastens one read by a period at most.
	 */
	static final class Turns {

		private long lastPass;

		/**
		 * What the passes so far were worth and did not read, in shepherd-nanoseconds (a
		 * read is worth a period).
		 */
		private long owed;

		private int next;

		Turns(long now) {
			this.lastPass = now;
		}

		/**
		 * The turn of a pass at {@code now} over {@code shepherds} of them. Why
		 * synchronized: {@code tick()} is public, and two passes at once split the reads
		 * between them.
		 */
		synchronized Turn next(int shepherds, long now) {
			long elapsed = now - this.lastPass;
			this.lastPass = now;
			if (shepherds == 0) {
				this.owed = 0;
				return new Turn(0, 0, 0);
			}
			long period = statePeriod(shepherds).toNanos();
			this.owed = Math.min(shepherds * period, this.owed + shepherds * Math.min(Math.max(0, elapsed), period));
			int reads = (int) (this.owed / period);
			this.owed -= reads * period;
			int first = this.next % shepherds;
			this.next = (first + reads) % shepherds;
			return new Turn(first, reads, shepherds);
		}

	}

	/**
	 * The shepherds one pass reads the state of: {@code reads} of them from the index
	 * {@code first} on, past the last to the first.
	 */
	record Turn(int first, int reads, int shepherds) {

		boolean includes(int index) {
			return Math.floorMod(index - this.first, Math.max(1, this.shepherds)) < this.reads;
		}

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
