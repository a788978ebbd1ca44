package dev.tether.supervisor.ports;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildMarkers;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.NoLeakedChildrenExtension;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class PortTests {

	@TempDir
	Path temp;

	private final String installation = NoLeakedChildrenExtension.TEST_INSTALLATION_PREFIX + UUID.randomUUID();

	private Process holder;

	@AfterEach
	void endHolder() throws InterruptedException {
		if (this.holder != null) {
			this.holder.destroyForcibly();
			this.holder.waitFor();
		}
	}

	private Process listen(int port, boolean markedAsOurs) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(Listen.command(port));
		if (markedAsOurs) {
			builder.environment().putAll(ChildMarkers.stamp(java.util.Map.of(), java.util.Map.of(), this.installation,
					ChildKind.MCP, "server"));
		}
		Process process = builder.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> accepts(port));
		return process;
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			return true;
		}
		catch (java.io.IOException ex) {
			return false;
		}
	}

	private ChildSpec server(int port) {
		return ChildSpec.builder("server", Listen.command(port)).kind(ChildKind.MCP).port(port).build();
	}

	@Test
	void listenerIsFoundWithItsPid() throws Exception {
		int port = Listen.freePort();
		this.holder = listen(port, false);
		PortListener listener = new PortListeners().find(port).orElseThrow();
		assertThat(listener.pid()).isEqualTo(this.holder.pid());
		assertThat(new PortListeners().find(Listen.freePort())).isEmpty();
	}

	@Test
	void foreignListenerFailsTheChildAndIsLeftAlive() throws Exception {
		int port = Listen.freePort();
		this.holder = listen(port, false);
		try (TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP,
				List.of(server(port), ChildSpec.builder("other", List.of("sleep", "600")).build()), (b) -> {
				})) {
			test.supervisor().startAutostart();
			ChildSnapshot server = test.supervisor().snapshot("server").orElseThrow();
			assertThat(server.state()).isEqualTo(ChildState.FAILED);
			assertThat(server.lastError()).contains("port " + port).contains("pid " + this.holder.pid()).contains("java");
			assertThat(test.supervisor().snapshot("other").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
			assertThat(this.holder.isAlive()).isTrue();
		}
		assertThat(this.holder.isAlive()).isTrue();
	}

	@Test
	void ourOrphanOnThePortIsReclaimedAndTheChildStarts() throws Exception {
		int port = Listen.freePort();
		this.holder = listen(port, true);
		try (TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP,
				List.of(server(port)), (b) -> {
				})) {
			assertThat(test.supervisor().start("server").state()).isEqualTo(ChildState.STARTING);
			await().atMost(Duration.ofSeconds(20)).until(() -> !this.holder.isAlive());
			await().atMost(Duration.ofSeconds(20))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.RUNNING);
			assertThat(new PortListeners().find(port).orElseThrow().pid())
				.isEqualTo(test.supervisor().snapshot("server").orElseThrow().pid());
		}
	}

	@Test
	void childThatNeverListensFailsItsStartAfterTheStartupTimeout() throws Exception {
		int port = Listen.freePort();
		ChildSpec spec = ChildSpec.builder("server", List.of("sleep", "600"))
			.port(port)
			.startupTimeout(Duration.ofMillis(500))
			.restart(dev.tether.supervisor.RestartPolicy.NEVER)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, this.installation, OrphanPolicy.STOP, List.of(spec),
				(b) -> {
				})) {
			long pid = test.supervisor().start("server").pid();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> test.supervisor().snapshot("server").orElseThrow().state() == ChildState.EXITED);
			assertThat(test.supervisor().snapshot("server").orElseThrow().lastError())
				.contains("did not accept connections on port " + port);
			assertThat(LiveProcesses.isAlive(pid)).isFalse();
		}
	}

	@Test
	void listeningInodesAreParsedFromTheKernelTable() {
		List<String> table = List.of(
				"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
				"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0",
				"   1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 99999 1 0",
				"   2: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0");
		assertThat(PortListeners.listeningInodes(table, 8080)).containsExactly(12345L);
		assertThat(PortListeners.listeningInodes(table, 80)).containsExactly(555L);
		assertThat(PortListeners.listeningInodes(table, 81)).isEmpty();
	}

}
