package dev.tether.supervisor.springai;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.modelcontextprotocol.spec.McpTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.PythonListener;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP transport never opens a session to a port that the child's own tree does not
 * hold: a child that was ready closes its listener, another process binds the port, and
 * the connection fails naming that process, which receives nothing. A child that listens
 * on IPv6's loopback only is reached there.
 */
@EnabledOnOs(OS.LINUX)
class HttpChildTransportTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void aSessionIsNeverOpenedToAnotherProcessThatTookTheChildsPort() throws Exception {
		PythonListener.assumeAvailable();
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("tools", PythonListener.command(port, PythonListener.Mode.CLOSE_ON_USR1))
			.port(port)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			long pid = test.supervisor().start("tools").pid();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("tools").orElseThrow().state() == ChildState.RUNNING);
			assertThat(new ProcessBuilder("kill", "-USR1", Long.toString(pid)).start().waitFor()).isZero();
			await().atMost(DEADLINE).until(() -> !Listen.accepts(port));
			try (ServerSocket squatter = new ServerSocket(port, 16, InetAddress.getByName("127.0.0.1"))) {
				HttpChildTransport transport = new HttpChildTransport("tools", test.supervisor(), DEADLINE,
						McpTransportType.STREAMABLE_HTTP, ChildSpec.DEFAULT_PROBE_ADDRESS, port, "/mcp");
				assertThatThrownBy(() -> transport.connect((message) -> message).block())
					.isInstanceOf(McpTransportException.class)
					.hasMessageContaining("MCP server 'tools' (a supervised child) is not connected to: port " + port
							+ " is held by pid " + ProcessHandle.current().pid());
				squatter.setSoTimeout(500);
				assertThatThrownBy(squatter::accept).as("nothing connected to the squatter")
					.isInstanceOf(SocketTimeoutException.class);
				assertThat(transport.live()).isFalse();
				transport.closeGracefully().block();
			}
		}
	}

	@Test
	void aChildThatListensOnIpv6sLoopbackIsReachedThere() throws Exception {
		ChildSpec spec = ChildSpec.builder("tools", List.of("true"))
			.autostart(false)
			.port(18874)
			.probeAddress("::1")
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			HttpChildTransport transport = (HttpChildTransport) TetherMcpAutoConfiguration.transport("tools",
					new McpProperties(), McpTransportType.STREAMABLE_HTTP,
					test.supervisor().snapshot("tools").orElseThrow(), test.supervisor(), DEADLINE);
			assertThat(transport.baseUrl()).isEqualTo("http://[::1]:18874");
		}
	}

}
