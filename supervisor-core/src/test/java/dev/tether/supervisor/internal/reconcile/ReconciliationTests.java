package dev.tether.supervisor.internal.reconcile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.ReconciliationReport;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.Canary;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.Orphans;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class ReconciliationTests {

	@TempDir
	Path temp;

	private final String installation = TestRun.installationId("reconcile");

	private final Orphans orphans = new Orphans();

	private final IdentityProbe probe = IdentityProbe.forPlatform();

	@AfterEach
	void endOrphans() {
		this.orphans.close();
	}

	/**
	 * This installation with the instance id of the state directory, as a previous run
	 * stamped its children.
	 */
	private Owner owner() {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			return new Owner(this.installation, registry.instanceId());
		}
	}

	private RegistryRow row(String name, long pid) {
		long startTime = LiveProcesses.stat(pid).orElseThrow().startTime();
		return new RegistryRow(name, "agent", this.installation, pid, pid, startTime, this.probe.bootId().orElseThrow(),
				"RUNNING", Instant.now(), 0, null);
	}

	private void writeRows(RegistryRow... rows) {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(rows));
		}
	}

	private TestSupervisor supervisor(OrphanPolicy policy, ChildSpec... children) {
		return new TestSupervisor(this.temp, this.installation, policy, List.of(children), (builder) -> {
		});
	}

	@Test
	void rowWhosePidNamesAnUnrelatedProcessIsDroppedWithoutASignal() throws Exception {
		try (Canary unrelated = Canary.orphan(this.temp.resolve("canary"), Map.of())) {
			writeRows(row("worker", unrelated.pid()));
			try (TestSupervisor test = supervisor(OrphanPolicy.STOP)) {
				ReconciliationReport report = test.supervisor().reconcile();
				assertThat(report.notOurs()).isEqualTo(1);
				assertThat(report.stopped()).isZero();
				unrelated.assertUntouched();
			}
			try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
				assertThat(registry.load()).isEmpty();
			}
			unrelated.assertUntouched();
		}
	}

	@Test
	void rowOfOurOrphanIsStopped() throws Exception {
		long orphan = this.orphans.marked(owner(), ChildKind.AGENT, "worker");
		assertThat(LiveProcesses.stat(orphan).orElseThrow().ppid()).isNotEqualTo(ProcessHandle.current().pid());
		writeRows(row("worker", orphan));
		try (TestSupervisor test = supervisor(OrphanPolicy.STOP,
				ChildSpec.builder("worker", List.of("sleep", "600")).build())) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.ours()).isEqualTo(1);
			assertThat(report.stopped()).isEqualTo(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(orphan));
			assertThat(test.supervisor().lastReconciliation()).contains(report);
		}
	}

	@Test
	void markedOrphansWithoutARowAreFoundAndStopped() throws Exception {
		long orphan = this.orphans.marked(owner(), ChildKind.MCP, "files");
		long groupMember = this.orphans.markedGroupMember(owner(), "worker");
		try (TestSupervisor test = supervisor(OrphanPolicy.STOP)) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.ours()).isEqualTo(2);
			assertThat(report.stopped()).isEqualTo(2);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !LiveProcesses.isAlive(orphan) && !LiveProcesses.isAlive(groupMember));
		}
	}

	@ParameterizedTest(name = "of another {0}")
	@ValueSource(strings = { "installation", "instance" })
	void markedProcessOfAnotherOwnerIsUntouched(String differs) throws Exception {
		Owner ours = owner();
		Owner other = differs.equals("installation") ? new Owner(ours.installationId() + "-other", ours.instanceId())
				: new Owner(ours.installationId(), "elsewhere");
		Map<String, String> markers = ChildMarkers.stamp(Map.of(), Map.of(), other, ChildKind.AGENT, "worker");
		try (Canary canary = Canary.orphan(this.temp.resolve("canary"), markers);
				TestSupervisor test = supervisor(OrphanPolicy.STOP)) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.ours()).isZero();
			assertThat(report.stopped()).isZero();
			canary.assertUntouched();
		}
	}

	@Test
	void startAskedForDuringReconciliationWaitsForItAndIsNeverTakenForAnOrphan() throws Exception {
		// The canary orphan ignores TERM, so reconciliation lasts the orphan's stop
		// timeout.
		Map<String, String> markers = ChildMarkers.stamp(Map.of(), Map.of(), owner(), ChildKind.AGENT, "slow");
		Path record = this.temp.resolve("worker.record");
		try (Canary orphan = Canary.orphan(this.temp.resolve("orphan"), markers);
				TestSupervisor test = supervisor(OrphanPolicy.STOP,
						ChildSpec.builder("slow", List.of("sleep", "600")).stopTimeout(Duration.ofSeconds(1)).build(),
						ChildSpec.builder("worker", Canary.command(record))
							.stopTimeout(Duration.ofSeconds(1))
							.build())) {
			CompletableFuture<ReconciliationReport> reconciliation = CompletableFuture
				.supplyAsync(test.supervisor()::reconcile);
			await().atMost(Duration.ofSeconds(10)).until(() -> orphan.signals().contains("TERM"));
			ChildSnapshot asked = test.supervisor().start("worker");
			assertThat(asked.state()).isEqualTo(ChildState.STARTING);
			assertThat(asked.pid()).isNull();
			ReconciliationReport report = reconciliation.get();
			assertThat(report.ours()).isEqualTo(1);
			assertThat(report.stopped()).isEqualTo(1);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("worker").orElseThrow().state() == ChildState.RUNNING);
			Canary.observe(record).assertUntouched();
		}
	}

	@Test
	void adoptedOrphanThatWipesItsEnvironmentIsStillStopped() throws Exception {
		// Verified by its markers when adopted; from then on its pid and start time prove
		// it.
		Path wipe = this.temp.resolve("wipe");
		long orphan = this.orphans.markedThenWiped(owner(), "worker", wipe);
		writeRows(row("worker", orphan));
		try (TestSupervisor test = supervisor(OrphanPolicy.ADOPT,
				ChildSpec.builder("worker", List.of("sleep", "600")).build())) {
			assertThat(test.supervisor().reconcile().adopted()).isEqualTo(1);
			Files.createFile(wipe);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LiveProcesses.isRunning(orphan, "sleep") && LiveProcesses.environ(orphan).isEmpty());
			assertThat(test.supervisor().stop("worker")).isEqualTo(StopOutcome.EXITED);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(orphan));
			assertThat(test.supervisor().snapshot("worker").orElseThrow().lastError()).isNull();
		}
	}

	@Test
	void rowOfAGoneProcessIsDropped() throws Exception {
		Process process = new ProcessBuilder("true").start();
		process.waitFor();
		writeRows(new RegistryRow("worker", "agent", this.installation, process.pid(), process.pid(), 1L,
				this.probe.bootId().orElseThrow(), "RUNNING", Instant.now(), 0, null));
		try (TestSupervisor test = supervisor(OrphanPolicy.STOP)) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.gone()).isEqualTo(1);
			assertThat(report.notOurs()).isZero();
			assertThat(report.stopped()).isZero();
		}
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			assertThat(registry.load()).isEmpty();
		}
	}

	@Test
	void orphanIsAdoptedWhenConfiguredAndStoppedLater() throws Exception {
		long orphan = this.orphans.marked(owner(), ChildKind.AGENT, "worker");
		writeRows(row("worker", orphan));
		try (TestSupervisor test = supervisor(OrphanPolicy.ADOPT,
				ChildSpec.builder("worker", List.of("sleep", "600")).build())) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.adopted()).isEqualTo(1);
			ChildSnapshot adopted = test.supervisor().snapshot("worker").orElseThrow();
			assertThat(adopted.state()).isEqualTo(ChildState.RUNNING);
			assertThat(adopted.pid()).isEqualTo(orphan);
			assertThat(adopted.adopted()).isTrue();
			assertThat(test.supervisor().stop("worker")).isEqualTo(StopOutcome.EXITED);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(orphan));
			assertThat(test.supervisor().snapshot("worker").orElseThrow().lastExit().outcome()).isEqualTo("unknown");
		}
	}

	@Test
	void adoptedOrphanThatDiesIsSeenThroughProc() throws Exception {
		long orphan = this.orphans.marked(owner(), ChildKind.AGENT, "worker");
		writeRows(row("worker", orphan));
		try (TestSupervisor test = supervisor(OrphanPolicy.ADOPT,
				ChildSpec.builder("worker", List.of("sleep", "600"))
					.restart(dev.tether.supervisor.RestartPolicy.NEVER)
					.build())) {
			test.supervisor().reconcile();
			ProcessHandle.of(orphan).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("worker").orElseThrow().state() == ChildState.EXITED);
		}
	}

	@Test
	void corruptRegistryIsMovedAsideAndStartProceeds() throws Exception {
		Files.writeString(this.temp.resolve("registry.json"), "{\"version\": 1, \"rows\": [ {\"name\": ");
		long orphan = this.orphans.marked(owner(), ChildKind.AGENT, "worker");
		try (TestSupervisor test = supervisor(OrphanPolicy.STOP,
				ChildSpec.builder("worker", List.of("sleep", "600")).build())) {
			ReconciliationReport report = test.supervisor().reconcile();
			assertThat(report.stopped()).isEqualTo(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(orphan));
			assertThat(test.supervisor().start("worker").state()).isEqualTo(ChildState.RUNNING);
		}
		try (var entries = Files.list(this.temp)) {
			assertThat(entries.map((p) -> p.getFileName().toString()))
				.anyMatch((n) -> n.startsWith("registry.json.corrupt-"));
		}
	}

}
