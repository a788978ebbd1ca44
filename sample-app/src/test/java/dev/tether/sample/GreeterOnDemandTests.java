package dev.tether.sample;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.boot.test.AutoConfigureSupervisor;
import dev.tether.supervisor.boot.test.NoChildLeftRunning;
import dev.tether.supervisor.boot.test.SupervisedChildren;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with autostart off and a greeting of the test's own: the test starts the
 * greeter, reads what it says, and stops it. Only the MCP servers run without the test,
 * started by Spring AI's client. A second context next to
 * {@link SampleApplicationTests}'.
 */
@SpringBootTest(properties = "supervisor.children.greeter.environment.GREETING=Hello from a test")
@AutoConfigureSupervisor(autostart = false)
@NoChildLeftRunning
class GreeterOnDemandTests {

	@DynamicPropertySource
	static void freeToolsPort(DynamicPropertyRegistry registry) {
		FreeToolsPort.register(registry);
	}

	@Test
	void onlyTheMcpServersRunUntilTheTestStartsTheGreeter(SupervisedChildren children) {
		// Why: Spring AI's client initialises its MCP sessions while the context starts,
		// whatever the autostart.
		assertThat(children.active()).containsExactlyInAnyOrder("clock", "tools");
		assertThat(children.snapshot("greeter").state()).isEqualTo(ChildState.STOPPED);
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
