package dev.tether.supervisor.boot.actuate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.boot.RunningApplication;
import dev.tether.supervisor.testsupport.Listen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A socket-activated child in a running application: {@code /actuator/children} shows the
 * socket the application holds on the child's port for it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=children",
				"supervisor.children.held.command=sleep,600", "supervisor.children.held.socket-activation.enabled=true",
				"supervisor.children.held.socket-activation.backlog=16" })
@EnabledOnOs(OS.LINUX)
@DirtiesContext
class SocketActivationApplicationTests extends RunningApplication {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static int heldPort;

	@DynamicPropertySource
	static void heldPort(DynamicPropertyRegistry registry) throws IOException {
		heldPort = Listen.unusedPort();
		registry.add("supervisor.children.held.port", () -> heldPort);
	}

	// Why closed after the method: the supervisor's probe thread starts with the child's
	// first readiness probe, during the test, and ends with the application.
	@Test
	@DirtiesContext
	void theEndpointShowsTheSocketTheApplicationHoldsForTheChild() throws Exception {
		JsonNode child = await().atMost(DEADLINE)
			.until(() -> getJson("/actuator/children/held"),
					(node) -> node.get("state").asString().equals("RUNNING") && !node.get("pid").isNull());
		JsonNode socket = child.get("socketActivation");
		assertThat(socket.propertyNames()).containsExactly("address", "port", "fd", "backlog", "heldBy");
		assertThat(socket.get("address").asString()).isEqualTo("127.0.0.1");
		assertThat(socket.get("port").asInt()).isEqualTo(heldPort);
		assertThat(socket.get("fd").asInt()).isEqualTo(3);
		assertThat(socket.get("backlog").asInt()).isEqualTo(16);
		assertThat(socket.get("heldBy").asLong()).isEqualTo(ProcessHandle.current().pid());
		String handed = Files.readSymbolicLink(Path.of("/proc/" + child.get("pid").asLong() + "/fd/3")).toString();
		assertThat(handed).startsWith("socket:[");
		try (Stream<Path> own = Files.list(Path.of("/proc/self/fd"))) {
			assertThat(own.map(SocketActivationApplicationTests::target)).as("the application holds the same socket")
				.contains(handed);
		}
		try (Socket client = new Socket(InetAddress.getLoopbackAddress(), heldPort)) {
			assertThat(client.isConnected()).as("the backlog takes a connection the child never accepts").isTrue();
		}
	}

	private static String target(Path descriptor) {
		try {
			return Files.readSymbolicLink(descriptor).toString();
		}
		catch (IOException ex) {
			// Closed since it was listed (the listing's own descriptor, for one).
			return "";
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
