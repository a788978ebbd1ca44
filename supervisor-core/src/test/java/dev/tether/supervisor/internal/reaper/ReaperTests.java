package dev.tether.supervisor.internal.reaper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.testsupport.Canary;
import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.TestSpawns;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class ReaperTests {

	@TempDir
	Path temp;

	@Test
	void plainProcessBuilderExitCodesAreNeverStolen() throws Exception {
		ChildSpec churn = ChildSpecs.restartedForever("churn", List.of("sh", "-c", "exit 1"), Duration.ofMillis(5));
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(churn))) {
			test.supervisor().start("churn");
			List<Process> processes = new ArrayList<>();
			for (int i = 0; i < 200; i++) {
				processes.add(new ProcessBuilder("sh", "-c", "exit " + (i % 200 + 1)).start());
			}
			int wrong = 0;
			for (int i = 0; i < processes.size(); i++) {
				if (processes.get(i).waitFor() != i % 200 + 1) {
					wrong++;
				}
			}
			assertThat(wrong).as("JDK exit codes reported wrongly").isZero();
			await().atMost(Duration.ofSeconds(10)).until(() -> !test.events("churn", ChildEvent.Type.EXITED).isEmpty());
			assertThat(test.events("churn", ChildEvent.Type.EXITED)).allMatch((event) -> event.exit().code() == 1);
		}
	}

	@Test
	void exitsArriveEvenWhenAnotherLibraryTakesSigchldOver() throws Exception {
		// No tick here: only the reaper's own event sources can deliver the exit.
		try (TestSpawns spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp)) {
			long pid = spawns.spawn("victim", "sleep", "600").pid();
			SignalHandler ours = Signal.handle(new Signal("CHLD"), (signal) -> {
			});
			try {
				ProcessHandle.of(pid).orElseThrow().destroyForcibly();
				await().atMost(Duration.ofSeconds(10)).until(() -> spawns.exitOf(pid) != null);
				assertThat(spawns.exitOf(pid).signal()).isEqualTo(9);
			}
			finally {
				Signal.handle(new Signal("CHLD"), ours);
			}
		}
	}

	@Test
	void eachOfManyChildrenIsDeliveredOnceWhetherTheyEndOneByOneOrAllAtOnce() throws Exception {
		// The pidfd that turns ready names the child to reap; the others, alive, stay
		// registered and undelivered.
		try (TestSpawns spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp)) {
			List<Long> pids = new ArrayList<>();
			for (int i = 0; i < 150; i++) {
				pids.add(spawns.spawn("many-" + i, "sleep", "600").pid());
			}
			for (long pid : pids.subList(0, 50)) {
				ProcessHandle.of(pid).orElseThrow().destroyForcibly();
				await().atMost(Duration.ofSeconds(10)).until(() -> spawns.exitOf(pid) != null);
			}
			assertThat(pids.subList(50, 150)).allMatch((pid) -> spawns.exitOf(pid) == null);
			pids.subList(50, 150).forEach((pid) -> ProcessHandle.of(pid).orElseThrow().destroyForcibly());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> pids.stream().allMatch((pid) -> spawns.exitOf(pid) != null));
			Reaper.shared().drain();
			assertThat(pids).allSatisfy((pid) -> {
				assertThat(spawns.exitOf(pid).signal()).as("signal of %d", pid).isEqualTo(9);
				assertThat(spawns.deliveriesOf(pid)).as("deliveries of %d", pid).isEqualTo(1);
			});
		}
	}

	@Test
	void exitsArriveAfterGarbageCollectionsWhileTheReaperWaits() throws Exception {
		// The reaper's native wait buffer must survive collections that happen while it
		// blocks.
		try (TestSpawns spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp)) {
			for (int round = 0; round < 20; round++) {
				long pid = spawns.spawn("victim-" + round, "sleep", "600").pid();
				for (int i = 0; i < 3; i++) {
					byte[][] churn = new byte[256][];
					for (int j = 0; j < churn.length; j++) {
						churn[j] = new byte[16 * 1024];
					}
					System.gc();
				}
				ProcessHandle.of(pid).orElseThrow().destroyForcibly();
				await().atMost(Duration.ofSeconds(10)).until(() -> spawns.exitOf(pid) != null);
				assertThat(spawns.exitOf(pid).signal()).isEqualTo(9);
			}
		}
	}

	@Test
	void twoSupervisorsInOneJvmEachSeeOnlyTheirOwnExits() throws Exception {
		try (TestSupervisor first = new TestSupervisor(this.temp.resolve("first"), List
			.of(ChildSpec.builder("worker", List.of("sh", "-c", "exit 11")).restart(RestartPolicy.NEVER).build()));
				TestSupervisor second = new TestSupervisor(this.temp.resolve("second"),
						List.of(ChildSpec.builder("worker", List.of("sh", "-c", "exit 22"))
							.restart(RestartPolicy.NEVER)
							.build()))) {
			for (int round = 1; round <= 20; round++) {
				first.supervisor().start("worker");
				second.supervisor().start("worker");
				int expected = round;
				// Why the events and not the state: a state is visible before its events
				// are dispatched.
				await().atMost(Duration.ofSeconds(10))
					.until(() -> first.events("worker", ChildEvent.Type.EXITED).size() == expected
							&& second.events("worker", ChildEvent.Type.EXITED).size() == expected);
			}
			// Why the exit codes and not the pids: each supervisor saw as many
			// exits as it started processes, each with its own command's code, so
			// none was routed to the other; a pid, once reaped, may be the
			// kernel's to give to the other supervisor's next process.
			assertThat(first.events("worker", ChildEvent.Type.EXITED)).allMatch((e) -> e.exit().code() == 11);
			assertThat(second.events("worker", ChildEvent.Type.EXITED)).allMatch((e) -> e.exit().code() == 22);
		}
	}

	@Test
	void exitCollectedBySomeoneElseIsDeliveredOnceAsUnknown() throws Exception {
		Map<Long, List<ExitStatus>> delivered = new ConcurrentHashMap<>();
		Process[] other = new Process[1];
		// Why the JDK collects first: a real waitpid by another owner (here the JDK's own
		// reaper, through waitFor) takes the exit before Tether looks; racing the
		// reaper's event sources for it would make the test flaky.
		long pid = Reaper.shared().spawnRegistered(() -> {
			other[0] = new ProcessBuilder("sh", "-c", "exit 7").start();
			other[0].waitFor();
			return other[0].pid();
		}, (exited, status) -> delivered.computeIfAbsent(exited, (key) -> new CopyOnWriteArrayList<>()).add(status));
		Reaper.shared().drain();
		await().atMost(Duration.ofSeconds(10)).until(() -> delivered.containsKey(pid));
		Reaper.shared().drain();
		assertThat(delivered.get(pid)).singleElement().satisfies((status) -> {
			assertThat(status.outcome()).isEqualTo("unknown");
			assertThat(status.code()).isNull();
			assertThat(status.signal()).isNull();
		});
		assertThat(other[0].exitValue()).as("the real owner's exit code").isEqualTo(7);
	}

	@Test
	void aReapedChildsGroupIsNeverSignalledEvenWhenItsPidNowNamesAnotherProcess() throws Exception {
		// The check that the child is unreaped and the signal happen under the lock that
		// reaping takes: once reaped, the pid number may be reused, and nothing is sent
		// to it any more.
		long pid;
		try (TestSpawns spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp)) {
			pid = spawns.spawn("reaped", "sleep", "600").pid();
			assertThat(Reaper.shared().signalGroupUnreaped(pid, 9)).isTrue();
			await().atMost(Duration.ofSeconds(10)).until(() -> spawns.exitOf(pid) != null);
		}
		try (Canary other = Canary.withPid(this.temp.resolve("canary"), pid)) {
			assertThat(Reaper.shared().signalGroupUnreaped(pid, 15)).isFalse();
			other.assertUntouched();
		}
	}

}
