package dev.tether.supervisor.internal.ports;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.Canary;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class PortTests {

	@TempDir
	Path temp;

	private final String installation = TestRun.installationId("ports");

	/**
	 * This installation with the instance id of the state directory, as an earlier run
	 * stamped its children.
	 */
	private Owner owner() {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			return new Owner(this.installation, registry.instanceId());
		}
	}

	private Canary listener(boolean markedAsOurs) throws Exception {
		Map<String, String> markers = markedAsOurs
				? ChildMarkers.stamp(Map.of(), Map.of(), owner(), ChildKind.MCP, "server") : Map.of();
		return Canary.listening(this.temp.resolve("canary"), markers);
	}

	private TestSupervisor supervisor(ChildSpec... children) {
		return new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP, List.of(children), (builder) -> {
		});
	}

	private static ChildSpec server(int port) {
		return ChildSpec.builder("server", Listen.command(port)).kind(ChildKind.MCP).port(port).build();
	}

	@Test
	void listenerIsFoundWithItsPid() throws Exception {
		try (Canary holder = listener(false)) {
			assertThat(new PortListeners().find(holder.port()).orElseThrow().pid()).isEqualTo(holder.pid());
		}
	}

	@Test
	void portWithoutAListenerHasNone() throws Exception {
		assertThat(new PortListeners().find(Listen.unusedPort())).isEmpty();
	}

	@Test
	void foreignListenerFailsTheChildNamingItAndIsNeverSignalled() throws Exception {
		try (Canary holder = listener(false)) {
			try (TestSupervisor test = supervisor(server(holder.port()),
					ChildSpec.builder("other", List.of("sleep", "600")).build())) {
				test.supervisor().startAutostart();
				ChildSnapshot server = test.supervisor().snapshot("server").orElseThrow();
				assertThat(server.state()).isEqualTo(ChildState.FAILED);
				// Its pid, user and executable name, never its command line (arguments
				// can carry secrets).
				assertThat(server.lastError()).contains("port " + holder.port())
					.contains("pid " + holder.pid())
					.contains("user " + System.getProperty("user.name"))
					.contains("executable java")
					.doesNotContain(Listen.class.getName())
					.doesNotContain("--record");
				assertThat(test.supervisor().snapshot("other").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
				holder.assertUntouched();
			}
			holder.assertUntouched();
		}
	}

	@Test
	void ourOrphanOnThePortIsReclaimedAndTheChildStarts() throws Exception {
		int port = Listen.unusedPort();
		ProcessBuilder builder = new ProcessBuilder(Listen.command(port))
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().putAll(ChildMarkers.stamp(Map.of(), Map.of(), owner(), ChildKind.MCP, "server"));
		Process orphan = builder.start();
		try (TestSupervisor test = supervisor(server(port))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> new PortListeners().find(port).isPresent());
			ChildSnapshot started = test.supervisor().start("server");
			assertThat(started.state()).isEqualTo(ChildState.STARTING);
			await().atMost(Duration.ofSeconds(20)).until(() -> !orphan.isAlive());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.RUNNING);
			assertThat(new PortListeners().find(port).orElseThrow().pid())
				.isEqualTo(test.supervisor().snapshot("server").orElseThrow().pid());
		}
		finally {
			orphan.destroyForcibly();
			orphan.waitFor();
		}
	}

	@Test
	void ourOrphanThatClearedItsEnvironmentUnderAShepherdIsReclaimedAndTheChildStarts() throws Exception {
		int port = Listen.unusedPort();
		List<String> command = new ArrayList<>(List.of("env", "-i"));
		command.addAll(Listen.command(port));
		Map<String, String> markers = ChildMarkers.stamp(System.getenv(), Map.of(), owner(), ChildKind.MCP, "server");
		CompletableFuture<ExitStatus> orphanExit = new CompletableFuture<>();
		// Why a spawner of its own: it stands for the previous run, whose shepherd is
		// still there.
		Spawner previous = new Spawner(15, this.temp.resolve("previous"));
		long shepherd = previous
			.spawn(new SpawnRequest(command, markers, null, this.temp.resolve("orphan.log"), null, true),
					(pid, status) -> orphanExit.complete(status))
			.pid();
		try (TestSupervisor test = supervisor(server(port))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> new PortListeners().find(port).isPresent());
			long holder = new PortListeners().find(port).orElseThrow().pid();
			assertThat(LiveProcesses.environ(holder)).isEmpty();
			assertThat(LiveProcesses.stat(holder).orElseThrow().ppid()).isEqualTo(shepherd);
			test.supervisor().start("server");
			orphanExit.get(20, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.RUNNING);
		}
		finally {
			Reaper.shared().signalGroupUnreaped(shepherd, Shepherd.KILL_TREE_SIGNAL);
			orphanExit.get(20, TimeUnit.SECONDS);
			previous.close();
		}
	}

	@Test
	void childThatNeverListensFailsItsStartAfterTheStartupTimeout() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = ChildSpec.builder("server", List.of("sleep", "600"))
			.port(port)
			.startupTimeout(Duration.ofMillis(500))
			.restart(RestartPolicy.NEVER)
			.build();
		try (TestSupervisor test = supervisor(spec)) {
			long pid = test.supervisor().start("server").pid();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.EXITED);
			assertThat(test.supervisor().snapshot("server").orElseThrow().lastError())
				.contains("did not accept connections on port " + port);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(pid));
		}
	}

	@Test
	void listeningInodesAreParsedFromTheKernelTableUpToItsFirstSocketThatDoesNotListen() {
		List<String> table = List.of(
				"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
				"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0",
				"   1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 99999 1 0",
				"   2: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0");
		ListeningSockets sockets = ListeningSockets.parse(table);
		assertThat(sockets.inodes(8080)).containsExactly(12345L);
		assertThat(sockets.inodes(80)).isEmpty();
		assertThat(sockets.inodes(81)).isEmpty();
	}

}
