package dev.tether.supervisor.internal.ports;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.OtherUser;
import dev.tether.supervisor.testsupport.PythonListener;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A port counts for readiness, liveness and a client's connection only when the child's
 * own tree holds it: a process that takes the port after the child was spawned (of this
 * user or another) keeps the child {@code STARTING} until its startup timeout, named in
 * its readiness and lastError, and is never signalled; a child that holds its port,
 * directly or under its shepherd, becomes {@code RUNNING} and passes its liveness probes.
 */
@EnabledOnOs(OS.LINUX)
class PortOwnershipTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void aListenerOfThisUserOnTheChildsPortNeverMakesItRunning() throws Exception {
		PythonListener.assumeAvailable();
		neverRunningWhileSquatted(UnaryOperator.identity());
	}

	@Test
	void aListenerOfAnotherUserOnTheChildsPortNeverMakesItRunning() throws Exception {
		PythonListener.assumeAvailable();
		OtherUser.assumeAvailable();
		neverRunningWhileSquatted((command) -> OtherUser.command(65534, command));
	}

	private void neverRunningWhileSquatted(UnaryOperator<List<String>> asUser) throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("server", List.of("sleep", "600"))
			.port(port)
			.startupTimeout(Duration.ofSeconds(3))
			.restart(RestartPolicy.NEVER)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			// Why after the spawn: the check before it already refuses a port that is
			// held; the squatter binds while the child is starting, as a race would.
			test.supervisor().start("server");
			try (PythonListener squatter = PythonListener.start(port, PythonListener.Mode.ACCEPT, asUser)) {
				String holder = "port " + port + " is held by pid " + squatter.pid();
				Set<ChildState> seen = ConcurrentHashMap.newKeySet();
				ChildSnapshot named = await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5)).until(() -> {
					ChildSnapshot child = test.supervisor().snapshot("server").orElseThrow();
					seen.add(child.state());
					return child;
				}, (child) -> child.readiness() != null && child.readiness().detail().startsWith(holder));
				assertThat(named.state()).isEqualTo(ChildState.STARTING);
				assertThat(named.readiness().passed()).isFalse();
				assertThat(named.readiness().detail())
					.endsWith(", executable " + squatter.executable() + "), which is not this child's");
				ProbeResult check = test.supervisor().checkPort("server").orElseThrow();
				assertThat(check.passed()).isFalse();
				assertThat(check.detail()).startsWith(holder);
				ChildSnapshot ended = await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5)).until(() -> {
					ChildSnapshot child = test.supervisor().snapshot("server").orElseThrow();
					seen.add(child.state());
					return child;
				}, (child) -> child.state() == ChildState.EXITED);
				assertThat(seen).as("states seen").doesNotContain(ChildState.RUNNING);
				assertThat(ended.lastError()).startsWith("did not accept connections on port " + port).contains(holder);
				assertThat(squatter.pid()).as("the squatter is never signalled")
					.matches((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
			}
		}
	}

	@Test
	void aChildWhosePortIsTakenAfterItClosedItsListenerFailsItsLivenessProbes() throws Exception {
		PythonListener.assumeAvailable();
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("server", PythonListener.command(port, PythonListener.Mode.CLOSE_ON_USR1))
			.port(port)
			.livenessTcp(true)
			.livenessPeriod(Duration.ofMillis(100))
			.livenessFailureThreshold(1000)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			long pid = test.supervisor().start("server").pid();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("server").orElseThrow().liveness(),
						(liveness) -> liveness != null && liveness.passed());
			assertThat(new ProcessBuilder("kill", "-USR1", Long.toString(pid)).start().waitFor()).isZero();
			await().atMost(DEADLINE).until(() -> !Listen.accepts(port));
			// Why this JVM: any process outside the child's tree is a squatter.
			try (ServerSocket squatter = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
				String holder = "port " + port + " is held by pid " + ProcessHandle.current().pid() + " (user "
						+ System.getProperty("user.name") + ", executable java), which is not this child's";
				// Why a threshold never reached: the probes refused between the close and
				// the bind count too; the first probe that reaches the squatter fails.
				ProbeResult failed = await().atMost(DEADLINE)
					.until(() -> test.supervisor().snapshot("server").orElseThrow().liveness(),
							(liveness) -> liveness.detail().equals(holder));
				assertThat(failed.passed()).isFalse();
				assertThat(test.supervisor().checkPort("server").orElseThrow().detail()).isEqualTo(holder);
			}
		}
	}

	@ParameterizedTest(name = "contain-descendants: {0}")
	@ValueSource(booleans = { false, true })
	void aChildThatHoldsItsPortBecomesRunningAndPassesLiveness(boolean shepherd) throws Exception {
		PythonListener.assumeAvailable();
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("web", PythonListener.httpServer(port))
			.port(port)
			.containDescendants(shepherd)
			.livenessHttpGet("/")
			.livenessPeriod(Duration.ofMillis(200))
			.livenessFailureThreshold(1)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("web");
			ChildSnapshot live = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("web").orElseThrow(),
						(child) -> child.liveness() != null && child.liveness().passed());
			assertThat(live.state()).isEqualTo(ChildState.RUNNING);
			assertThat(live.readiness().detail()).isEqualTo("port " + port + " accepts connections");
			assertThat(live.liveness().detail()).isEqualTo("HTTP 200");
			assertThat(test.supervisor().checkPort("web").orElseThrow().passed()).isTrue();
			ChildSnapshot later = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("web").orElseThrow(),
						(child) -> child.liveness().at().isAfter(live.liveness().at().plusSeconds(1)));
			assertThat(later.liveness().passed()).isTrue();
			assertThat(later.restarts()).isZero();
			assertThat(later.pid()).isEqualTo(live.pid());
		}
	}

}
