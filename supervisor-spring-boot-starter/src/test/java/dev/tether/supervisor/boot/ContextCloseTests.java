package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ContextCloseTests {

	@TempDir
	Path temp;

	@Test
	void closingTheContextStopsEveryChildWithinItsStopTimeout() {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + TestRun.installationId("starter"),
					"supervisor.children.polite.command=sleep,600",
					"supervisor.children.stubborn.command=sh,-c,trap '' TERM; sleep 600 & wait",
					"supervisor.children.stubborn.stop-timeout=1s")
			.run();
		Supervisor supervisor = context.getBean(Supervisor.class);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> supervisor.snapshots().stream().allMatch((child) -> child.state() == ChildState.RUNNING));
		List<Long> pids = supervisor.snapshots().stream().map(ChildSnapshot::pid).toList();
		long started = System.nanoTime();
		context.close();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(pids).noneMatch(LiveProcesses::isAlive);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
