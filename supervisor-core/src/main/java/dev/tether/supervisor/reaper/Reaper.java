package dev.tether.supervisor.reaper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.os.Posix;

/**
 * Collects the exits of the children Tether spawned, by pid, and delivers each exactly once to the owner that
 * registered it. One per JVM, shared by every supervisor in it.
 * <p>
 * Never {@code waitpid(-1)}: that steals the exits of every other {@link Process} in the JVM (the JDK then reports
 * exit code 0). Two events wake a drain of the registered pids: SIGCHLD, and a pidfd of each child becoming readable
 * (watched by one thread, {@code supervisor-reaper}); {@link #drain()} from the supervisors' tick is the backstop.
 * <p>
 * Why both: another library in the JVM may take SIGCHLD over (NuProcess does, measured), which silences the signal
 * handler; pidfds cannot be taken away.
 */
public final class Reaper {

	private static final Logger logger = LoggerFactory.getLogger(Reaper.class);

	private static final Reaper SHARED = new Reaper(Posix.get());

	private final Posix posix;

	private final Object lock = new Object();

	private final Map<Long, ExitListener> routes = new HashMap<>();

	private final Map<Long, Integer> pidfds = new HashMap<>();

	private final List<Integer> pidfdsToClose = new ArrayList<>();

	private int[] wakePipe;

	private volatile boolean eventDriven;

	private boolean handlerInstalled;

	Reaper(Posix posix) {
		this.posix = posix;
	}

	/** The JVM's reaper. */
	public static Reaper shared() {
		return SHARED;
	}

	/**
	 * Runs a spawn and registers its pid under the same lock, so that no exit can be collected before its owner is
	 * known.
	 * @return the pid the spawn returned
	 */
	public <E extends Exception> long spawnRegistered(Spawn<E> spawn, ExitListener listener) throws E {
		installHandler();
		synchronized (this.lock) {
			long pid = spawn.run();
			this.routes.put(pid, listener);
			watch(pid);
			return pid;
		}
	}

	/** Must hold the lock. */
	private void watch(long pid) {
		if (!this.posix.isPidfdAvailable()) {
			return;
		}
		if (this.wakePipe == null) {
			int[] pipe = this.posix.wakePipe();
			if (pipe == null) {
				return;
			}
			this.wakePipe = pipe;
			// Why a thread of its own: poll() blocks; it is one thread for every child of every supervisor.
			Thread poller = new Thread(this::pollPidfds, "supervisor-reaper");
			poller.setDaemon(true);
			poller.start();
		}
		int pidfd = this.posix.pidfdOpen(pid);
		if (pidfd >= 0) {
			this.pidfds.put(pid, pidfd);
			this.posix.poke(this.wakePipe[1]);
		}
	}

	private void pollPidfds() {
		while (true) {
			int[] fds;
			synchronized (this.lock) {
				// Why closed here: a descriptor must not be closed (and its number reused) while poll() watches it.
				this.pidfdsToClose.forEach(this.posix::close);
				this.pidfdsToClose.clear();
				fds = new int[this.pidfds.size() + 1];
				fds[0] = this.wakePipe[0];
				int i = 1;
				for (int pidfd : this.pidfds.values()) {
					fds[i++] = pidfd;
				}
			}
			boolean[] ready = this.posix.pollReadable(fds, -1);
			if (ready[0]) {
				this.posix.drainReadable(fds[0]);
			}
			for (int i = 1; i < ready.length; i++) {
				if (ready[i]) {
					drain();
					break;
				}
			}
		}
	}

	/**
	 * Signals the process group of a registered child that has not been reaped yet (so its pid cannot have been
	 * reused), then collects what exited.
	 * @return whether the child was still registered and was signalled
	 */
	public boolean killUnreaped(long pid, int signal) {
		boolean signalled;
		synchronized (this.lock) {
			signalled = this.routes.containsKey(pid) && this.posix.kill(-pid, signal) == 0;
		}
		drain();
		return signalled;
	}

	/** Whether exits wake the reaper (SIGCHLD or pidfds; otherwise they are seen at the next drain). */
	public boolean isEventDriven() {
		return this.eventDriven || this.posix.isPidfdAvailable();
	}

	/** How many pids are registered and not yet reaped. */
	public int routeCount() {
		synchronized (this.lock) {
			return this.routes.size();
		}
	}

	/**
	 * Reaps every registered pid that has exited and delivers its status. Safe to call from any thread, any number
	 * of times: each exit is delivered once.
	 */
	public void drain() {
		List<Delivery> deliveries = new ArrayList<>();
		synchronized (this.lock) {
			Iterator<Map.Entry<Long, ExitListener>> routes = this.routes.entrySet().iterator();
			while (routes.hasNext()) {
				Map.Entry<Long, ExitListener> route = routes.next();
				Posix.WaitResult result = this.posix.waitpid(route.getKey(), false);
				if (!result.isRunning()) {
					forgetPidfd(route.getKey());
				}
				if (result.isExited()) {
					routes.remove();
					deliveries.add(new Delivery(route.getValue(), route.getKey(), ExitStatus.fromWaitStatus(result.status())));
				}
				else if (result.isNotAChild()) {
					// Why: someone else reaped it (a waitpid(-1) elsewhere in the JVM); its status is lost.
					routes.remove();
					deliveries.add(new Delivery(route.getValue(), route.getKey(), ExitStatus.unknown()));
				}
			}
		}
		for (Delivery delivery : deliveries) {
			try {
				delivery.listener.onExit(delivery.pid, delivery.status);
			}
			catch (RuntimeException ex) {
				logger.warn("Exit listener for pid {} failed", delivery.pid, ex);
			}
		}
	}

	/** Must hold the lock. */
	private void forgetPidfd(long pid) {
		Integer pidfd = this.pidfds.remove(pid);
		if (pidfd != null) {
			this.pidfdsToClose.add(pidfd);
			this.posix.poke(this.wakePipe[1]);
		}
	}

	private void installHandler() {
		synchronized (this.lock) {
			if (this.handlerInstalled) {
				return;
			}
			this.handlerInstalled = true;
			try {
				// Why: ProcessImpl's static initialiser resets SIGCHLD to its default; it must run before our handler
				// is installed, or the handler is silently lost the first time anyone uses ProcessBuilder.
				Class.forName("java.lang.ProcessImpl", true, ClassLoader.getSystemClassLoader());
				SignalHandler[] previous = new SignalHandler[1];
				previous[0] = Signal.handle(new Signal("CHLD"), (signal) -> {
					drain();
					SignalHandler chained = previous[0];
					if (chained != null && chained != SignalHandler.SIG_DFL && chained != SignalHandler.SIG_IGN) {
						chained.handle(signal);
					}
				});
				this.eventDriven = true;
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
