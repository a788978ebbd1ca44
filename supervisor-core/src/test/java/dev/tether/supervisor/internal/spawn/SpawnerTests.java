package dev.tether.supervisor.internal.spawn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class SpawnerTests {

	@TempDir
	Path temp;

	private TestSpawns spawns;

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
	}

	@Test
	void usesTheLauncherWhereItRuns() {
		assertThat(this.spawns.spawner().parentDeathMechanism()).isEqualTo(ParentDeathMechanism.LAUNCHER);
		assertThat(this.spawns.spawner().parentDeathWarning()).isEmpty();
	}

	@Test
	void saysWhyChildrenOutliveTheJvmWhereNoMechanismRunsAndNothingWhereNoneWasAskedFor() {
		try (Spawner none = new Spawner(15, EnumSet.noneOf(ParentDeathMechanism.class), this.temp.resolve("none"))) {
			assertThat(none.parentDeathMechanism()).isEqualTo(ParentDeathMechanism.NONE);
			assertThat(none.parentDeathWarning()).hasValue("neither the parent-death launcher nor setpriv --pdeathsig "
					+ "runs here: children and their descendants outlive this JVM if it is killed with SIGKILL (until "
					+ "the next start stops them as orphans)");
		}
		try (Spawner unasked = new Spawner(0, this.temp.resolve("unasked"))) {
			assertThat(unasked.parentDeathMechanism()).isEqualTo(ParentDeathMechanism.NONE);
			assertThat(unasked.parentDeathWarning()).isEmpty();
		}
	}

	@Test
	void childIsAChildOfTheJvmLeadingItsOwnSessionAndGroup() throws Exception {
		long pid = spawnSleeping("alone");
		ProcStat stat = LiveProcesses.stat(pid).orElseThrow();
		assertThat(stat.pgrp()).isEqualTo(pid);
		assertThat(stat.session()).isEqualTo(pid);
		assertThat(stat.ppid()).isEqualTo(ProcessHandle.current().pid());
	}

	@Test
	void childHoldsOnlyStdinFromDevNullAndStdoutAndStderrToItsLog() throws Exception {
		long pid = spawnSleeping("alone");
		assertThat(LiveProcesses.descriptors(pid)).containsExactly(0, 1, 2);
		Path fds = Path.of("/proc", Long.toString(pid), "fd");
		Path log = this.temp.resolve("alone.log").toRealPath();
		assertThat(Files.readSymbolicLink(fds.resolve("0"))).isEqualTo(Path.of("/dev/null"));
		assertThat(Files.readSymbolicLink(fds.resolve("1"))).isEqualTo(log);
		assertThat(Files.readSymbolicLink(fds.resolve("2"))).isEqualTo(log);
	}

	private long spawnSleeping(String name) throws SpawnException {
		long pid = this.spawns.spawn(name, "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		return pid;
	}

	@Test
	void outputIsAppendedToTheLogFile() throws Exception {
		Path log = this.temp.resolve("echo.log");
		Files.writeString(log, "before\n");
		long pid = this.spawns.spawn("echo", "sh", "-c", "echo out; echo err >&2").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.spawns.exitOf(pid) != null);
		assertThat(Files.readAllLines(log)).containsExactly("before", "out", "err");
		assertThat(this.spawns.exitOf(pid).code()).isZero();
	}

	@Test
	void fourThreadsSpawningAtOnceAllGetLiveChildrenOfTheJvm() throws Exception {
		CyclicBarrier start = new CyclicBarrier(4);
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<Long>> pids = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				String name = "parallel-" + i;
				pids.add(threads.submit(() -> {
					start.await();
					return this.spawns.spawn(name, "sleep", "600").pid();
				}));
			}
			for (Future<Long> pid : pids) {
				long child = pid.get();
				assertThat(LiveProcesses.isAlive(child)).isTrue();
				assertThat(LiveProcesses.stat(child).orElseThrow().ppid()).isEqualTo(ProcessHandle.current().pid());
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@ParameterizedTest
	@CsvSource({ "no-such-binary-tether-test, not found on PATH", "/nonexistent/tool, does not exist" })
	void missingExecutableIsReportedByName(String executable, String reason) {
		assertThatExceptionOfType(SpawnException.class).isThrownBy(() -> this.spawns.spawn("missing", executable))
			.withMessageContaining(executable)
			.withMessageContaining(reason);
	}

	@Test
	void aFailedSpawnLeavesTheSpawnerWorking() throws Exception {
		assertThatExceptionOfType(SpawnException.class)
			.isThrownBy(() -> this.spawns.spawn("missing", "no-such-binary-" + UUID.randomUUID()));
		assertThat(spawnSleeping("after")).isPositive();
	}

	@Test
	void nonExecutableFileIsReportedByName() throws Exception {
		Path script = Files.writeString(this.temp.resolve("script.sh"), "#!/bin/sh\n");
		assertThatExceptionOfType(SpawnException.class).isThrownBy(() -> this.spawns.spawn("plain", script.toString()))
			.withMessageContaining("is not executable")
			.withMessageContaining(script.toString());
	}

	@Test
	void missingWorkingDirectoryIsReportedByName() {
		Path missing = this.temp.resolve("no-such-directory");
		assertThatExceptionOfType(SpawnException.class).isThrownBy(() -> this.spawns.spawner()
			.spawn(new SpawnRequest(List.of("sleep", "1"), Map.of(), missing, this.temp.resolve("x.log"), null),
					(pid, status) -> {
					}))
			.withMessageContaining("working directory " + missing + " does not exist");
	}

	@Test
	void childOfACallerThreadThatEndsStaysAlive() throws Exception {
		AtomicReference<Long> pid = new AtomicReference<>();
		Thread caller = new Thread(() -> {
			try {
				pid.set(this.spawns.spawn("orphaned-caller", "sleep", "600").pid());
			}
			catch (SpawnException ex) {
				throw new IllegalStateException(ex);
			}
		});
		caller.start();
		caller.join();
		long child = pid.get();
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(15)).until(() -> LiveProcesses.isAlive(child));
	}

	@Test
	void spawnerThreadThatCannotStartFailsTheCallerAndIsRetried() throws Exception {
		AtomicInteger attempts = new AtomicInteger();
		try (Spawner spawner = new Spawner(15, EnumSet.allOf(ParentDeathMechanism.class), this.temp.resolve("launcher"),
				Reaper.shared(), (work) -> {
					if (attempts.incrementAndGet() == 1) {
						throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
					}
					return new Thread(work, "supervisor-spawner");
				})) {
			SpawnRequest request = new SpawnRequest(List.of("true"), Map.of("PATH", "/usr/bin:/bin"), null,
					this.temp.resolve("retry.log"), null);
			CountDownLatch exited = new CountDownLatch(1);
			assertThatExceptionOfType(SpawnException.class)
				.isThrownBy(() -> spawner.spawn(request, (p, s) -> exited.countDown()))
				.withMessageContaining("cannot start the supervisor-spawner thread");
			spawner.spawn(request, (p, s) -> exited.countDown());
			assertThat(exited.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
			assertThat(attempts).hasValue(2);
		}
	}

	@Test
	void aCallerThatGivesUpLeavesNoChildBehind() {
		// The interrupt lands before the spawner thread ran the task (nothing is
		// spawned), or after it completed (the child is killed and reaped), or the spawn
		// had completed before the caller looked (it owns the child).
		for (int attempt = 0; attempt < 20; attempt++) {
			String name = "abandoned-" + attempt;
			Thread.currentThread().interrupt();
			try {
				this.spawns.spawn(name, "sleep", "600");
			}
			catch (SpawnException ex) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> LiveProcesses.withEnvironmentEntry(ChildKind.AGENT.nameKey() + "=" + name)
						.stream()
						.noneMatch((pid) -> LiveProcesses.environ(pid)
							.contains(ChildMarkers.INSTALLATION_ENV + "=" + this.spawns.installationId())));
			}
			finally {
				Thread.interrupted();
			}
		}
	}

	@Test
	void launcherDoesNotRunTheCommandWhenItsParentIsNotTheSupervisor() throws Exception {
		ParentDeath launcher = ParentDeath.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), this.temp);
		assertThat(launcher.mechanism()).isEqualTo(ParentDeathMechanism.LAUNCHER);
		Path witness = this.temp.resolve("ran");
		Process process = new ProcessBuilder(launcher.program().toString(), "15", "1", "/bin/sh", "sh", "-c",
				"touch " + witness)
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor()).isEqualTo(126);
		assertThat(output).contains("supervisor is gone");
		assertThat(witness).doesNotExist();
	}

}
