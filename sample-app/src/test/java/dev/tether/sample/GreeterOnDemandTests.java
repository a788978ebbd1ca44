package dev.tether.sample;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.boot.test.AutoConfigureSupervisor;
import dev.tether.supervisor.boot.test.NoChildLeftRunning;
import dev.tether.supervisor.boot.test.SupervisedChildren;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with autostart off and a greeting of the test's own: the test starts the greeter, reads what it says,
 * and stops it. A second context next to {@link SampleApplicationTests}'.
 */
@SpringBootTest(properties = "supervisor.children.greeter.environment.GREETING=Hello from a test")
@AutoConfigureSupervisor(autostart = false)
@NoChildLeftRunning
class GreeterOnDemandTests {

	@Test
	void nothingRunsUntilTheTestStartsIt(SupervisedChildren children) {
		assertThat(children.active()).isEmpty();
		assertThat(children.snapshot("tools").state()).isEqualTo(ChildState.STOPPED);
	}

	@Test
	void greeterSaysTheTestsGreeting(SupervisedChildren children,
			@Value("${supervisor.state-directory}") Path stateDirectory) {
		children.supervisor().start("greeter");
		children.awaitState("greeter", ChildState.RUNNING);
		Path log = stateDirectory.resolve("logs").resolve("greeter.log");
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(log).exists().content().contains("greeter: Hello from a test"));
		children.supervisor().stop("greeter");
		children.awaitState("greeter", ChildState.STOPPED);
	}

}
