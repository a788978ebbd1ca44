package dev.tether.supervisor.internal.reaper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.internal.os.Epoll;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Collects the exits of the children Tether spawned, by pid, and delivers each exactly
 * once to the owner that registered it. One per JVM, shared by every supervisor in it.
 * <p>
 * Never {@code waitpid(-1)}: that steals the exits of every other {@link Process} in the
 * JVM (the JDK then reports exit code 0). Two events wake reaping: a pidfd of a child
 * becoming readable (an epoll set watched by one thread, {@code supervisor-reaper}),
 * which reaps that child alone; and SIGCHLD, which reaps the children that have no pidfd
 * (an older kernel, or none could be opened). {@link #drain()} of those same children,
 * from the supervisors' tick, is the backstop where SIGCHLD is silenced; a pidfd needs
 * none (it stays readable until its child is reaped).
 * <p>
 * Why by the pid that is ready, not every registered one: a {@code waitpid} per
 * registered child at each exit made ending one of n children cost n system calls, twice
 * (once for the signal, once for the pidfd), and each tick n more, under the lock every
 * spawn takes.
 * <p>
 * Why both: another library in the JVM may take SIGCHLD over (NuProcess does: the
 * benchmark runs Tether after it), which silences the signal handler; pidfds cannot be
 * taken away.
 */
public final class Reaper {

	private static final Logger logger = LoggerFactory.getLogger(Reaper.class);

	private static final Reaper SHARED = new Reaper(Posix.get());

	private final Posix posix;

	private final Object lock = new Object();

	private final Map<Long, ExitListener> routes = new HashMap<>();

	private final Map<Long, Integer> pidfds = new HashMap<>();

	private final Map<Integer, Long> pidsByPidfd = new HashMap<>();

	/**
	 * The registered pids with no pidfd: kept apart so that SIGCHLD and the tick look at
	 * these alone, not at every registered pid.
	 */
	private final Set<Long> unwatched = new HashSet<>();

	private @Nullable Epoll epoll;

	private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private boolean handlerInstalled;

	Reaper(Posix posix) {
		this.posix = posix;
	}

	/** The JVM's reaper. */
	public static Reaper shared() {
		return SHARED;
	}

	/**
	 * Runs a spawn and registers its pid under the same lock, so that no exit can be
	 * collected before its owner is known.
	 * @return the pid the spawn returned
	 */
	public <E extends Exception> long spawnRegistered(Spawn<E> spawn, ExitListener listener) throws E {
		installHandler();
		synchronized (this.lock) {
			long pid = spawn.run();
			this.routes.put(pid, listener);
			watch(pid);
			if (!this.pidfds.containsKey(pid)) {
				this.unwatched.add(pid);
			}
			return pid;
		}
	}

	/** Must hold the lock. */
	private void watch(long pid) {
		if (!this.posix.isPidfdAvailable()) {
			return;
		}
		if (this.epoll == null) {
			Epoll epoll = Epoll.create(this.posix);
			if (epoll == null) {
				return;
			}
			this.epoll = epoll;
			// Why a thread of its own: epoll_wait blocks; it is one thread for every
			// child of every supervisor, and adding a child to the epoll set needs no
			// wake-up of it.
			Thread watcher = new Thread(() -> watchPidfds(epoll), "supervisor-reaper");
			watcher.setDaemon(true);
			watcher.start();
		}
		int pidfd = this.posix.pidfdOpen(pid);
		if (pidfd >= 0) {
			if (this.epoll.add(pidfd)) {
				this.pidfds.put(pid, pidfd);
				this.pidsByPidfd.put(pidfd, pid);
			}
			else {
				this.posix.close(pidfd);
			}
		}
	}

	private void watchPidfds(Epoll epoll) {
		while (true) {
			// Why the pause: a pidfd that reads as exited before waitpid agrees (or whose
			// exit another drain just took) must not turn this loop into a spin.
			int ready = epoll.await(-1);
			if (ready > 0 && reap(() -> readyPids(epoll, ready)) == 0) {
				LockSupport.parkNanos(PAUSE_NANOS);
			}
		}
	}

	/**
	 * Signals the process group of a registered child that has not been reaped yet. Why
	 * this is safe without any other check: until we reap it, the kernel keeps its pid
	 * (and so its group id) from being reused, and the check and the signal happen under
	 * the lock that reaping takes.
	 * @return whether the child was still unreaped and the signal was sent
	 */
	public boolean signalGroupUnreaped(long pid, int signal) {
		synchronized (this.lock) {
			return this.routes.containsKey(pid) && this.posix.kill(-pid, signal) == 0;
		}
	}

	/**
	 * Reaps every registered pid with no pidfd that has exited and delivers its status
	 * (the others are reaped as their pidfds become readable). Safe to call from any
	 * thread, any number of times: each exit is delivered once.
	 * @return how many exits this call delivered
	 */
	public int drain() {
		return reap(this::unwatchedPids);
	}

	/**
	 * Must hold the lock. The registered pids of the pidfds the last wait of
	 * {@code epoll} reported ready.
	 */
	private List<Long> readyPids(Epoll epoll, int ready) {
		List<Long> pids = new ArrayList<>(ready);
		for (int i = 0; i < ready; i++) {
			// Why a miss is skipped: a drain meanwhile reaped that pid and closed its
			// pidfd.
			Long pid = this.pidsByPidfd.get(epoll.ready(i));
			if (pid != null) {
				pids.add(pid);
			}
		}
		return pids;
	}

	/**
	 * Must hold the lock. The registered pids with no pidfd, whose exits only SIGCHLD and
	 * the tick announce.
	 */
	private List<Long> unwatchedPids() {
		return List.copyOf(this.unwatched);
	}

	/**
	 * Reaps those of the pids that {@code candidates} gives (called holding the lock)
	 * that are registered and have exited, then delivers their statuses outside the lock.
	 * Each exit is delivered once.
	 * @return how many exits it delivered
	 */
	private int reap(Supplier<List<Long>> candidates) {
		List<Delivery> deliveries = new ArrayList<>();
		synchronized (this.lock) {
			for (Long pid : candidates.get()) {
				ExitListener listener = this.routes.get(pid);
				if (listener == null) {
					continue;
				}
				Posix.WaitResult result = this.posix.waitpid(pid);
				ExitStatus status = switch (result.kind()) {
					case RUNNING -> null;
					case EXITED -> ExitStatus.fromWaitStatus(result.status());
					// Why: someone else reaped it (a waitpid(-1) elsewhere in the JVM);
					// its status is lost.
					case NOT_A_CHILD -> ExitStatus.unknown();
				};
				if (status != null) {
					forgetPidfd(pid);
					this.routes.remove(pid);
					this.unwatched.remove(pid);
					deliveries.add(new Delivery(listener, pid, status));
				}
			}
		}
		for (Delivery delivery : deliveries) {
			try {
				delivery.listener.onExit(delivery.pid, delivery.status);
			}
			catch (Throwable ex) {
				// Why every Throwable: the reaper's thread must outlive any owner's
				// failure, or exits go unseen.
				logger.warn("Exit listener for pid {} failed", delivery.pid, ex);
			}
		}
		return deliveries.size();
	}

	/** Must hold the lock. Closing a pidfd also takes it out of the epoll set. */
	private void forgetPidfd(long pid) {
		Integer pidfd = this.pidfds.remove(pid);
		if (pidfd != null) {
			this.pidsByPidfd.remove(pidfd);
			this.posix.close(pidfd);
		}
	}

	private void installHandler() {
		synchronized (this.lock) {
			if (this.handlerInstalled) {
				return;
			}
			this.handlerInstalled = true;
			try {
				// Why: ProcessImpl's static initialiser resets SIGCHLD to its default; it
				// must run before our handler is installed, or the handler is silently
				// lost the first time anyone uses ProcessBuilder.
				Class.forName("java.lang.ProcessImpl", true, ClassLoader.getSystemClassLoader());
				SignalHandler[] previous = new SignalHandler[1];
				previous[0] = Signal.handle(new Signal("CHLD"), (signal) -> {
					reap(this::unwatchedPids);
					SignalHandler chained = previous[0];
					if (chained != null && chained != SignalHandler.SIG_DFL && chained != SignalHandler.SIG_IGN) {
						chained.handle(signal);
					}
				});
			}
			catch (ClassNotFoundException | IllegalArgumentException | UnsupportedOperationException ex) {
				logger.warn("SIGCHLD cannot be handled here ({}); exits are seen at each tick instead", ex.toString());
			}
		}
	}

	/** A spawn that returns the new pid. */
	@FunctionalInterface
	public interface Spawn<E extends Exception> {

		long run() throws E;

	}

	/** Receives the exit of one registered pid, once. */
	@FunctionalInterface
	public interface ExitListener {

		void onExit(long pid, ExitStatus status);

	}

	private record Delivery(ExitListener listener, long pid, ExitStatus status) {
	}

}
