package dev.tether.supervisor.boot.metrics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Counter;
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
import dev.tether.supervisor.testsupport.HttpHealth;
import dev.tether.supervisor.testsupport.Listen;
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

	@Test
	void aFailingLivenessProbeIsCountedByChildAndProbe() throws Exception {
		int port = Listen.unusedPort();
		Path failing = Files.createFile(this.temp.resolve("failing"));
		List<String> properties = new ArrayList<>(List.of("supervisor.state-directory=" + this.temp.resolve("state"),
				"supervisor.installation-id=" + this.installation, "supervisor.tick-interval=50ms",
				"supervisor.children.api.port=" + port, "supervisor.children.api.liveness.http-get=/health",
				"supervisor.children.api.liveness.period=200ms", "supervisor.children.api.liveness.failure-threshold=2",
				"supervisor.children.api.backoff.initial=100ms"));
		List<String> command = HttpHealth.command(port, failing);
		for (int i = 0; i < command.size(); i++) {
			properties.add("supervisor.children.api.command[" + i + "]=" + command.get(i));
		}
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, SupervisorMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues(properties.toArray(String[]::new))
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(SupervisorMetrics.class).bindTo(meters);
				Supervisor supervisor = context.getBean(Supervisor.class);
				supervisor.startAutostart();
				// Why two: the threshold, so the failures that restarted the child were
				// each counted.
				await().atMost(Duration.ofSeconds(30)).until(() -> {
					Counter failures = meters.find("supervisor.child.probe.failures")
						.tags("child", "api", "kind", "agent", "probe", "liveness")
						.counter();
					return failures != null && failures.count() >= 2;
				});
				await().atMost(Duration.ofSeconds(30))
					.until(() -> supervisor.snapshot("api").orElseThrow().restarts() >= 1);
				assertThat(supervisor.snapshot("api").orElseThrow().lastError())
					.startsWith("failed its liveness probe (GET /health on port " + port + ") 2 times in a row");
			});
	}

}
