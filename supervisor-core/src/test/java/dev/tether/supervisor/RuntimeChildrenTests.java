package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;
import dev.tether.supervisor.testsupport.TreeSupervisorJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Children added and removed while the supervisor runs, supervised exactly like
 * configured ones: real processes, the registry, and a second JVM killed with SIGKILL.
 */
@EnabledOnOs(OS.LINUX)
class RuntimeChildrenTests {

	// Why generous: the machines that run this are loaded, and fifty shepherded children
	// are a hundred processes.
	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void anAddFromAnInterruptedThreadRecordsItsChildAndKeepsTheInterrupt() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of())) {
			Thread.currentThread().interrupt();
			ChildSnapshot added;
			try {
				added = test.supervisor().add(ChildSpec.builder("interrupted", List.of("sleep", "600")).build());
			}
			finally {
				assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
			}
			assertThat(added.state()).isEqualTo(ChildState.RUNNING);
			assertThat(added.lastError()).isNull();
			Long pid = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("interrupted").orElseThrow().pid(), Objects::nonNull);
			assertThat(LiveProcesses.isAlive(pid)).isTrue();
		}
	}

	@Test
	void fiftyAddedAndTwentyFiveRemovedLeaveTheOthersUntouchedAndTheRegistryAgrees() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of())) {
			Supervisor supervisor = test.supervisor();
			for (int i = 0; i < 50; i++) {
				assertThat(supervisor.add(ChildSpec.builder("agent-" + i, List.of("sleep", "600")).build()).state())
					.isEqualTo(ChildState.RUNNING);
			}
			Map<String, Long> pids = new LinkedHashMap<>();
			for (int i = 0; i < 50; i++) {
				String name = "agent-" + i;
				pids.put(name, await().atMost(DEADLINE)
					.until(() -> supervisor.snapshot(name).orElseThrow().pid(), Objects::nonNull));
			}
			List<String> kept = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				String name = "agent-" + i;
				if (i % 2 == 0) {
					assertThat(supervisor.remove(name)).isIn(StopOutcome.EXITED, StopOutcome.KILLED);
				}
				else {
					kept.add(name);
				}
			}
			assertThat(supervisor.snapshots()).extracting(ChildSnapshot::name).containsExactlyElementsOf(kept);
			for (int i = 0; i < 50; i += 2) {
				long removed = pids.get("agent-" + i);
				await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(removed));
			}
			for (String name : kept) {
				ChildSnapshot child = supervisor.snapshot(name).orElseThrow();
				assertThat(child.pid()).as(name).isEqualTo(pids.get(name));
				assertThat(child.state()).as(name).isEqualTo(ChildState.RUNNING);
				assertThat(LiveProcesses.isAlive(pids.get(name))).as(name).isTrue();
			}
			assertThat(test.registry().load()).extracting(RegistryRow::name).containsExactlyInAnyOrderElementsOf(kept);
			assertThat(test.events()).filteredOn((event) -> event.type() == ChildEvent.Type.REMOVED)
				.hasSize(25)
				.allMatch((event) -> event.child().state() == ChildState.STOPPED && event.child().pid() == null);
		}
	}

	@Test
	void aRemovedChildIsNeverRestartedAndItsNameCanBeAddedAgain() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of())) {
			Supervisor supervisor = test.supervisor();
			supervisor.add(ChildSpecs.restartedForever("crasher", List.of("sh", "-c", "sleep 0.05; exit 3"),
					Duration.ofMillis(50)));
			await().atMost(DEADLINE).until(() -> test.events("crasher", ChildEvent.Type.RESTARTING).size() >= 2);
			supervisor.remove("crasher");
			int starts = test.events("crasher", ChildEvent.Type.STARTED).size();
			assertThat(supervisor.snapshot("crasher")).isEmpty();
			await("no start after the removal").during(Duration.ofMillis(500))
				.atMost(DEADLINE)
				.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == starts);
			ChildSnapshot again = supervisor.add(ChildSpec.builder("crasher", List.of("sleep", "600")).build());
			assertThat(again.state()).isEqualTo(ChildState.RUNNING);
			assertThat(again.restarts()).isZero();
		}
	}

	@Test
	void aTakenNameAnUnknownNameAndAClosedSupervisorAreRefusedNamingWhat() throws Exception {
		TestSupervisor test = new TestSupervisor(this.temp,
				List.of(ChildSpec.builder("configured", List.of("sleep", "600")).autostart(false).build()));
		try (test) {
			Supervisor supervisor = test.supervisor();
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> supervisor.add(ChildSpec.builder("configured", List.of("true")).build()))
				.withMessageContaining("configured")
				.withMessageContaining("already registered");
			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> supervisor.remove("nobody"))
				.withMessageContaining("'nobody'");
			assertThat(supervisor.remove("configured")).isEqualTo(StopOutcome.NOT_RUNNING);
			assertThat(supervisor.snapshots()).isEmpty();
		}
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> test.supervisor().add(ChildSpec.builder("late", List.of("sleep", "600")).build()))
			.withMessageContaining("'late'");
	}

	@Test
	void killNineLeavesNoChildAddedAtRuntimeAndTheNextStartEndsWhatEscaped() throws Exception {
		String installation = TestRun.installationId("runtime-kill9");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		Path state = this.temp.resolve("state");
		int children = 2;
		// Why without shepherds: each child's daemon (its own session) then outlives the
		// JVM, as an orphan that the next start must find by its markers although no
		// configuration names its child.
		try (SecondJvm jvm = SecondJvm.start(TreeSupervisorJvm.class, this.temp.resolve("jvm.log"), installation,
				state.toString(), Integer.toString(children), "false", TreeSupervisorJvm.TREE, "true", "true")) {
			jvm.readUntil("STARTED");
			await("every tree complete").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.filter((pid) -> LiveProcesses.isRunning(pid, "sleep"))
					.count() == 2 * children);
			jvm.kill9();
			await("each child's own process gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.noneMatch((pid) -> LiveProcesses.isRunning(pid, "sh")));
		}
		try (TestSupervisor next = new TestSupervisor(state, installation, OrphanPolicy.STOP, List.of(), (builder) -> {
		})) {
			ReconciliationReport report = next.supervisor().reconcile();
			assertThat(report.stopped()).isPositive();
			await("every orphan of the runtime children gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
	}

}
