package dev.tether.supervisor.boot.actuate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.ObservedRegistry;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code supervisor} health answers at once whatever the children are doing, and says
 * when the registry cannot be saved.
 */
class SupervisorHealthTests {

	@TempDir
	Path temp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, SupervisorHealthAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + TestRun.installationId("starter"));
	}

	@Test
	void healthAnswersAtOnceWhileAStopLadderWaitsOnAChildThatIgnoresTerm() {
		Path ready = this.temp.resolve("ready");
		runner()
			.withPropertyValues("supervisor.children.stubborn.command=sh,-c,trap '' TERM; touch " + ready
					+ "; while :; do sleep 1; done", "supervisor.children.stubborn.stop-timeout=4s")
			.run((context) -> {
				Supervisor supervisor = context.getBean(Supervisor.class);
				SupervisorHealthContributor health = context.getBean(SupervisorHealthContributor.class);
				supervisor.start("stubborn");
				// Why wait: a stop signal that lands before the trap is set would simply
				// end the child.
				await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(ready));
				CompletableFuture<StopOutcome> stop = CompletableFuture.supplyAsync(() -> supervisor.stop("stubborn"));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> supervisor.snapshot("stubborn").orElseThrow().state() == ChildState.STOPPING);
				long[] nanos = new long[100];
				for (int i = 0; i < nanos.length; i++) {
					long started = System.nanoTime();
					Health child = ((HealthIndicator) health.getContributor("stubborn")).health(true);
					nanos[i] = System.nanoTime() - started;
					assertThat(child.getDetails()).containsEntry("state", "STOPPING");
					Thread.sleep(5);
				}
				Arrays.sort(nanos);
				assertThat(Duration.ofNanos(nanos[95])).isLessThan(Duration.ofMillis(50));
				assertThat(stop.get()).isEqualTo(StopOutcome.KILLED);
			});
	}

	@Test
	void aNotifyChildsStatusTextAndPhaseAreInItsHealthAndTheEndpoint() {
		String script = "import os, socket, time\n" + "a = os.environ['NOTIFY_SOCKET']\n"
				+ "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
				+ "s.sendto(b'STATUS=serving\\nREADY=1', '\\0' + a[1:])\n" + "time.sleep(600)\n";
		runner()
			.withPropertyValues("supervisor.children.notified.command[0]=/usr/bin/python3",
					"supervisor.children.notified.command[1]=-c", "supervisor.children.notified.command[2]=" + script,
					"supervisor.children.notified.readiness.notify=true")
			.run((context) -> {
				Supervisor supervisor = context.getBean(Supervisor.class);
				SupervisorHealthContributor health = context.getBean(SupervisorHealthContributor.class);
				supervisor.start("notified");
				await().atMost(Duration.ofSeconds(30))
					.until(() -> supervisor.snapshot("notified").orElseThrow().state() == ChildState.RUNNING);
				Health child = ((HealthIndicator) health.getContributor("notified")).health(true);
				assertThat(child.getDetails()).containsEntry("statusText", "serving");
				assertThat(child.getDetails().get("notify"))
					.isEqualTo(new ChildrenEndpoint.NotifyDescriptor("READY", null, 0));
				ChildrenEndpoint.ChildDescriptor described = new ChildrenEndpoint(supervisor).child("notified");
				assertThat(described.statusText()).isEqualTo("serving");
				assertThat(described.details()).containsKey("notify");
			});
	}

	@Test
	void registryThatCannotBeSavedIsShownInTheDetailsAndKeepsTheHealthUp() {
		ObservedRegistry registry = new ObservedRegistry(FileChildRegistry.open(this.temp.resolve("registry")));
		registry.failSaves(true);
		runner().withBean(ChildRegistry.class, () -> registry)
			.withPropertyValues("supervisor.children.worker.command=sleep,600")
			.run((context) -> {
				Supervisor supervisor = context.getBean(Supervisor.class);
				SupervisorHealthContributor health = context.getBean(SupervisorHealthContributor.class);
				HealthIndicator indicator = (HealthIndicator) health
					.getContributor(SupervisorHealthContributor.REGISTRY);
				assertThat(indicator.health(true).getDetails()).isEmpty();
				supervisor.start("worker");
				Health failing = indicator.health(true);
				assertThat(failing.getStatus().getCode()).isEqualTo("UP");
				assertThat(failing.getDetails()).containsEntry("problem", "No space left on device");
				registry.failSaves(false);
				supervisor.tick();
				assertThat(indicator.health(true).getDetails()).isEmpty();
				supervisor.stop("worker");
			});
	}

}
