package dev.tether.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.ManualClock;
import dev.tether.supervisor.testsupport.ObservedRegistry;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The supervisor's lock is never held while a process takes its time, and its public
 * operations are safe to call from many threads at once.
 */
@EnabledOnOs(OS.LINUX)
class SupervisorLockingTests {

	private static final Duration ANSWER_WITHIN = Duration.ofMillis(50);

	@TempDir
	Path temp;

	private final String installation = TestRun.installationId("locking");

	private Process orphan;

	@AfterEach
	void endOrphan() throws InterruptedException {
		if (this.orphan != null) {
			this.orphan.destroyForcibly();
			this.orphan.waitFor();
		}
	}

	@Test
	void snapshotsAnswerAtOnceWhileAStopLadderWaitsOnAChildThatIgnoresTerm() throws Exception {
		ManualClock clock = new ManualClock();
		Path ready = this.temp.resolve("ready");
		ChildSpec spec = ChildSpec
			.builder("stubborn", List.of("sh", "-c", "trap '' TERM; touch " + ready + "; while :; do sleep 1; done"))
			.stopTimeout(Duration.ofSeconds(10))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP, List.of(spec),
				(builder) -> builder.clock(clock))) {
			test.supervisor().start("stubborn");
			// Why wait: a stop signal that lands before the trap is set would simply end
			// the child.
			await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(ready));
			CompletableFuture<StopOutcome> stop = CompletableFuture
				.supplyAsync(() -> test.supervisor().stop("stubborn"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("stubborn").orElseThrow().state() == ChildState.STOPPING);
			assertAnswersAtOnce(test.supervisor());
			assertThat(stop).isNotDone();
			clock.advance(Duration.ofSeconds(10));
			assertThat(stop.get()).isEqualTo(StopOutcome.KILLED);
		}
	}

	@Test
	void snapshotsAnswerAtOnceWhileTheTickReclaimsAPortFromAnOrphanThatIgnoresTerm() throws Exception {
		ManualClock clock = new ManualClock();
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("server", Listen.command(port))
			.kind(ChildKind.MCP)
			.port(port)
			.restart(RestartPolicy.ALWAYS)
			.stopTimeout(Duration.ofSeconds(10))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP, List.of(spec),
				(builder) -> builder.clock(clock))) {
			long first = test.supervisor().start("server").pid();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.RUNNING);
			ProcessHandle.of(first).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.BACKOFF);
			this.orphan = startOrphanOnPort(port, new Owner(this.installation, test.supervisor().instanceId()));
			clock.advance(Duration.ofSeconds(1));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LiveProcesses.stat(this.orphan.pid())
					.map((stat) -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.STARTING)
					.orElse(false));
			assertAnswersAtOnce(test.supervisor());
			assertThat(this.orphan.isAlive()).isTrue();
			clock.advance(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(20)).until(() -> !this.orphan.isAlive());
			await().atMost(Duration.ofSeconds(20))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.RUNNING);
		}
	}

	private Process startOrphanOnPort(int port, Owner owner) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(StubbornListener.command(port));
		builder.environment().putAll(ChildMarkers.stamp(Map.of(), Map.of(), owner, ChildKind.MCP, "server"));
		Process process = builder.start();
		await().atMost(Duration.ofSeconds(60)).until(() -> Listen.accepts(port));
		return process;
	}

	/**
	 * The 95th percentile of 200 snapshot calls, spread over a second, is within
	 * {@link #ANSWER_WITHIN}.
	 */
	private static void assertAnswersAtOnce(Supervisor supervisor) throws InterruptedException {
		long[] nanos = new long[200];
		for (int i = 0; i < nanos.length; i++) {
			long started = System.nanoTime();
			supervisor.snapshots();
			nanos[i] = System.nanoTime() - started;
			Thread.sleep(5);
		}
		Arrays.sort(nanos);
		assertThat(Duration.ofNanos(nanos[nanos.length * 95 / 100])).isLessThan(ANSWER_WITHIN);
	}

	@Test
	void startStopAndRestartFromManyThreadsLeaveOneConsistentChild() throws Exception {
		ChildSpec spec = ChildSpec.builder("contended", List.of("sleep", "600")).build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			ExecutorService pool = Executors.newFixedThreadPool(8);
			List<Future<?>> work = new ArrayList<>();
			for (int thread = 0; thread < 8; thread++) {
				work.add(pool.submit(() -> {
					for (int i = 0; i < 25; i++) {
						switch (ThreadLocalRandom.current().nextInt(3)) {
							case 0 -> test.supervisor().start("contended");
							case 1 -> test.supervisor().stop("contended");
							default -> test.supervisor().restart("contended");
						}
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get();
			}
			pool.shutdown();
			assertThat(test.supervisor().stop("contended")).isIn(StopOutcome.EXITED, StopOutcome.NOT_RUNNING);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("contended", ChildEvent.Type.STARTED)
					.size() == test.events("contended", ChildEvent.Type.STOPPED).size()
							+ test.events("contended", ChildEvent.Type.EXITED).size());
			// The process each start made: its shepherd where there is one (the command's
			// pid may not be known yet).
			List<Long> pids = test.events("contended", ChildEvent.Type.STARTED)
				.stream()
				.map((event) -> (event.child().shepherdPid() != null) ? event.child().shepherdPid()
						: event.child().pid())
				.toList();
			assertThat(pids).doesNotHaveDuplicates();
			await().atMost(Duration.ofSeconds(10)).until(() -> pids.stream().noneMatch(LiveProcesses::isAlive));
			assertThat(test.supervisor().snapshot("contended").orElseThrow().state()).isEqualTo(ChildState.STOPPED);
			assertThat(test.events("contended", ChildEvent.Type.EXITED)).isEmpty();
		}
	}

	@Test
	void concurrentClosesStopEveryChildAndReleaseTheRegistryOnce() throws Exception {
		ObservedRegistry registry = new ObservedRegistry(FileChildRegistry.open(this.temp.resolve("counted")));
		TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP,
				List.of(ChildSpec.builder("a", List.of("sleep", "600")).build(),
						ChildSpec.builder("b", List.of("sleep", "600")).build()),
				(builder) -> builder.registry(registry));
		test.supervisor().startAutostart();
		// Why wait: under a shepherd a child's pid is known a moment after it is RUNNING.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> test.supervisor().snapshots().stream().allMatch((child) -> child.pid() != null));
		List<Long> pids = test.supervisor().snapshots().stream().map(ChildSnapshot::pid).toList();
		ExecutorService pool = Executors.newFixedThreadPool(2);
		List<Future<?>> closes = List.of(pool.submit(() -> {
			test.close();
			return null;
		}), pool.submit(() -> {
			test.supervisor().close();
			return null;
		}));
		for (Future<?> close : closes) {
			close.get();
			// Whichever returns first, every child is already gone.
			assertThat(test.supervisor().snapshots()).allMatch((child) -> child.state() == ChildState.STOPPED);
		}
		pool.shutdown();
		assertThat(registry.closes()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> pids.stream().noneMatch(LiveProcesses::isAlive));
	}

}
