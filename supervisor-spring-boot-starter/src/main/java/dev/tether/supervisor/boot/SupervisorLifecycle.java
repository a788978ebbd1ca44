package dev.tether.supervisor.boot;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

import dev.tether.supervisor.Supervisor;

/**
 * Runs the supervision tick while the context runs, reconciles and starts the autostart
 * children when the application is ready, and stops every child when the context closes.
 */
class SupervisorLifecycle implements SmartLifecycle, ApplicationListener<ApplicationReadyEvent>, DisposableBean {

	/**
	 * Below the web server's lifecycles (graceful shutdown at
	 * {@code Integer.MAX_VALUE - 1024}, then the server's stop at
	 * {@code Integer.MAX_VALUE - 2048} in Spring Boot 4). Why: lifecycles stop from the
	 * highest phase down, so in-flight requests, which may still use a child, finish
	 * before any child is stopped.
	 */
	static final int PHASE = Integer.MAX_VALUE - 4096;

	private static final Logger logger = LoggerFactory.getLogger(SupervisorLifecycle.class);

	private final Supervisor supervisor;

	private final Duration tickInterval;

	private final List<SupervisorTickObserver> observers;

	private @Nullable ScheduledExecutorService ticker;

	private volatile boolean running;

	private boolean reconciled;

	SupervisorLifecycle(Supervisor supervisor, Duration tickInterval, List<SupervisorTickObserver> observers) {
		this.supervisor = supervisor;
		this.tickInterval = tickInterval;
		this.observers = observers;
	}

	@Override
	public void start() {
		startTicking();
		this.running = true;
	}

	/**
	 * Starts the tick, at the lifecycle's start or earlier for a child started before it
	 * (see SupervisorStartup).
	 */
	synchronized void startTicking() {
		if (this.ticker != null) {
			return;
		}
		// Why a private thread: the tick must not depend on, or take over, the
		// application's TaskScheduler, and it must work without @EnableScheduling.
		this.ticker = Executors.newSingleThreadScheduledExecutor((work) -> {
			Thread thread = new Thread(work, "supervisor-tick");
			thread.setDaemon(true);
			return thread;
		});
		long period = this.tickInterval.toMillis();
		this.ticker.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
	}

	/**
	 * Reconciles once per application: at ready, or before a child is started early. Why
	 * once: a second reconciliation would find the children started since as rows of this
	 * run.
	 */
	synchronized void reconcileOnce() {
		if (!this.reconciled) {
			this.supervisor.reconcile();
			this.reconciled = true;
		}
	}

	private void tick() {
		try {
			long started = System.nanoTime();
			this.supervisor.tick();
			Duration took = Duration.ofNanos(System.nanoTime() - started);
			this.observers.forEach((observer) -> observer.ticked(took));
		}
		catch (Throwable ex) {
			// Why Throwable: anything escaping a scheduled task cancels every later run,
			// silently; one bad tick must not end supervision for good.
			logger.error("Supervision tick failed; the next tick runs as scheduled", ex);
		}
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		reconcileOnce();
		this.supervisor.startAutostart();
	}

	@Override
	public void stop() {
		this.running = false;
		stopTicking();
		this.supervisor.stopAll();
	}

	/**
	 * Why: a child started early starts the tick; a context that fails before the
	 * lifecycle starts must end it.
	 */
	@Override
	public void destroy() {
		stopTicking();
	}

	private void stopTicking() {
		ScheduledExecutorService stopping;
		synchronized (this) {
			stopping = this.ticker;
			this.ticker = null;
		}
		if (stopping != null) {
			stopping.shutdown();
			try {
				stopping.awaitTermination(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
