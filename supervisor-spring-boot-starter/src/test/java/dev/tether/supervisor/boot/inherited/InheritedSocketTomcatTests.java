package dev.tether.supervisor.boot.inherited;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.RequestLoop;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tomcat, the web server of a Spring Boot child, serves the socket it is handed on
 * descriptor 0 ({@code fd: 0}) once its connector's {@code useInheritedChannel} is on,
 * and binds no port of its own: across restarts no request is refused.
 */
@EnabledOnOs(OS.LINUX)
class InheritedSocketTomcatTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path temp;

	@Test
	void tomcatServesTheInheritedSocketAcrossRestartsAndBindsNoPortOfItsOwn() throws Exception {
		int port = Listen.unusedPort();
		int fallback = Listen.unusedPort();
		ChildSpec spec = ChildSpec
			.builder("tomcat",
					JavaCommand.main(InheritedSocketTomcat.class, this.temp.resolve("tomcat").toString(),
							Integer.toString(fallback)))
			.port(port)
			.readinessHttpGet("/")
			.startupTimeout(DEADLINE)
			.socketActivation(new SocketActivation(true, "127.0.0.1", null, 0))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("tomcat");
			long first = awaitServing(test, 0);
			try (RequestLoop client = RequestLoop.start(port, Duration.ofMillis(20))) {
				await().atMost(DEADLINE).until(() -> client.lastServer() == first);
				test.supervisor().restart("tomcat");
				long second = awaitServing(test, first);
				await().atMost(DEADLINE).until(() -> client.lastServer() == second);
				client.close();
				System.out.printf("Tomcat on the inherited socket: %d answered, %d refused, other failures %s%n",
						client.answered(), client.refused(), client.failures());
				// Why refusals only: a connection Tomcat itself accepted just before its
				// stop may be closed by Tomcat, which is the child's shutdown, not the
				// supervisor's; what socket activation promises is that none is refused.
				assertThat(client.refused()).isZero();
			}
			try (ServerSocket free = new ServerSocket(fallback, 1, InetAddress.getLoopbackAddress())) {
				assertThat(free.getLocalPort()).as("Tomcat bound no port of its own").isEqualTo(fallback);
			}
		}
	}

	private static long awaitServing(TestSupervisor test, long previous) {
		return await().atMost(DEADLINE).until(() -> {
			var child = test.supervisor().snapshot("tomcat").orElseThrow();
			return (child.state() == ChildState.RUNNING && child.pid() != null) ? child.pid() : 0L;
		}, (pid) -> pid != 0 && pid != previous);
	}

}
