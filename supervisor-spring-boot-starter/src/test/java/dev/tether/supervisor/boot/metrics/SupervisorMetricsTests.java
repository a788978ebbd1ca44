package dev.tether.supervisor.boot.metrics;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.Orphans;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SupervisorMetricsTests {

	@TempDir
	Path temp;

	private final String installation = TestRun.installationId("starter");

	private final Orphans orphans = new Orphans();

	@AfterEach
	void endOrphans() {
		this.orphans.close();
	}

	@Test
	void restartsOfAnEarlierRunAreNotCountedAgainAfterAdoption() throws Exception {
		long orphan;
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			orphan = this.orphans.marked(new Owner(this.installation, registry.instanceId()), ChildKind.AGENT,
					"worker");
			long startTime = LiveProcesses.stat(orphan).orElseThrow().startTime();
			registry.save(List.of(new RegistryRow("worker", "agent", this.installation, orphan, orphan, startTime,
					IdentityProbe.forPlatform().bootId().orElseThrow(), "RUNNING", Instant.now(), 3, null)));
		}
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, SupervisorMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + this.installation, "supervisor.reconcile.orphans=adopt",
					"supervisor.tick-interval=20ms", "supervisor.children.worker.command=sleep,600",
					"supervisor.children.worker.autostart=false", "supervisor.children.worker.restart=always",
					"supervisor.children.worker.backoff.initial=20ms")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(SupervisorMetrics.class).bindTo(meters);
				Supervisor supervisor = context.getBean(Supervisor.class);
				supervisor.reconcile();
				assertThat(supervisor.snapshot("worker").orElseThrow().restarts()).isEqualTo(3);
				ProcessHandle.of(orphan).orElseThrow().destroyForcibly();
				await().atMost(Duration.ofSeconds(10)).until(() -> {
					ChildSnapshot worker = supervisor.snapshot("worker").orElseThrow();
					return worker.state() == ChildState.RUNNING && worker.restarts() == 4;
				});
				await().atMost(Duration.ofSeconds(10))
					.until(() -> meters.find("supervisor.child.starts").tag("child", "worker").counter() != null);
				assertThat(meters.get("supervisor.child.restarts").tag("child", "worker").counter().count())
					.isEqualTo(1.0);
			});
	}

}
