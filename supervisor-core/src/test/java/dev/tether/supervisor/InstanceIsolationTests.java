package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.Canary;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two supervisors that share an installation id (two deployments of one application, or
 * two contexts in one JVM) each touch only their own instance's processes.
 */
@EnabledOnOs(OS.LINUX)
class InstanceIsolationTests {

	@TempDir
	Path temp;

	@Test
	void supervisorsSharingAnInstallationIdNeverTouchEachOthersChildren() throws Exception {
		String installation = TestRun.installationId("shared");
		Path record = this.temp.resolve("other-worker.record");
		ChildSpec otherWorker = ChildSpec.builder("worker", Canary.command(record))
			.stopTimeout(Duration.ofSeconds(1))
			.build();
		try (TestSupervisor other = new TestSupervisor(this.temp.resolve("other"), installation, OrphanPolicy.STOP,
				List.of(otherWorker), (builder) -> {
				})) {
			other.supervisor().start("worker");
			Canary canary = Canary.observe(record);
			TestSupervisor one = new TestSupervisor(this.temp.resolve("one"), installation, OrphanPolicy.STOP,
					List.of(ChildSpec.builder("worker", List.of("sleep", "600")).build()), (builder) -> {
					});
			ReconciliationReport report = one.supervisor().reconcile();
			one.supervisor().start("worker");
			one.close();
			assertThat(report.ours()).isZero();
			canary.assertUntouched();
			assertThat(other.supervisor().snapshot("worker").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
		}
	}

	@Test
	void instanceIdIsKeptByItsStateDirectoryAndDiffersBetweenThem() {
		String first;
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp.resolve("a"))) {
			first = registry.instanceId();
		}
		try (FileChildRegistry again = FileChildRegistry.open(this.temp.resolve("a"));
				FileChildRegistry elsewhere = FileChildRegistry.open(this.temp.resolve("b"))) {
			assertThat(again.instanceId()).isEqualTo(first).matches("[0-9a-f]{32}");
			assertThat(elsewhere.instanceId()).isNotEqualTo(first);
		}
	}

	@Test
	void childCarriesTheInstanceOfItsSupervisor() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(ChildSpec.builder("worker", List.of("sleep", "600")).build()))) {
			long pid = test.supervisor().start("worker").pid();
			String marker = ChildMarkers.INSTANCE_ENV + "=" + test.supervisor().instanceId();
			// Why wait: the shepherd has forked the command, which may not have run its
			// exec yet.
			await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.environ(pid).contains(marker));
		}
	}

}
