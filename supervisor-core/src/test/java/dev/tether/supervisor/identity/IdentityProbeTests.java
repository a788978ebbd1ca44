package dev.tether.supervisor.identity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.spawn.Spawner;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class IdentityProbeTests {

	private static final Path NS_LAST_PID = Path.of("/proc/sys/kernel/ns_last_pid");

	@TempDir
	Path temp;

	private final IdentityProbe probe = IdentityProbe.forPlatform();

	private TestSpawns spawns;

	private Process unrelated;

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endProcesses() throws InterruptedException {
		this.spawns.close();
		if (this.unrelated != null) {
			this.unrelated.destroyForcibly();
			this.unrelated.waitFor();
		}
	}

	private ExpectedIdentity identityOf(long pid, String name) {
		long startTime = LiveProcesses.stat(pid).orElseThrow().startTime();
		return new ExpectedIdentity(pid, this.spawns.installationId(), ChildKind.AGENT, name, startTime,
				this.probe.bootId().orElseThrow());
	}

	@Test
	void spawnedChildIsOurs() throws Exception {
		long pid = this.spawns.spawn("worker", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		assertThat(this.probe.verify(identityOf(pid, "worker"))).isEqualTo(Verdict.OURS);
		assertThat(this.probe.scanMarked(this.spawns.installationId()))
			.containsExactly(new MarkedProcess(pid, ChildKind.AGENT, "worker"));
	}

	@Test
	void spawnedChildUnderAnotherNameOrInstallationIsNotOurs() throws Exception {
		long pid = this.spawns.spawn("greeter-staging", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		assertThat(this.probe.verify(identityOf(pid, "greeter"))).isEqualTo(Verdict.NOT_OURS);
		ExpectedIdentity other = new ExpectedIdentity(pid, "test-other", ChildKind.AGENT, "greeter-staging", null, null);
		assertThat(this.probe.verify(other)).isEqualTo(Verdict.NOT_OURS);
		ExpectedIdentity wrongKind = new ExpectedIdentity(pid, this.spawns.installationId(), ChildKind.MCP,
				"greeter-staging", null, null);
		assertThat(this.probe.verify(wrongKind)).isEqualTo(Verdict.NOT_OURS);
	}

	@Test
	void unmarkedLiveProcessIsNeverOurs() throws Exception {
		this.unrelated = new ProcessBuilder("sleep", "600").start();
		ExpectedIdentity claimed = new ExpectedIdentity(this.unrelated.pid(), this.spawns.installationId(),
				ChildKind.AGENT, "worker", null, null);
		assertThat(this.probe.verify(claimed)).isEqualTo(Verdict.NOT_OURS);
		ProcessSignaller signaller = new ProcessSignaller(this.probe);
		assertThat(signaller.signal(claimed, 9)).isEqualTo(Verdict.NOT_OURS);
		assertThat(signaller.signalGroup(claimed, 9)).isEqualTo(Verdict.NOT_OURS);
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(this.unrelated::isAlive);
	}

	@Test
	void goneProcessIsGone() throws Exception {
		long pid = this.spawns.spawn("short", "true").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.spawns.exitOf(pid) != null);
		ExpectedIdentity identity = new ExpectedIdentity(pid, this.spawns.installationId(), ChildKind.AGENT, "short",
				null, null);
		assertThat(this.probe.verify(identity)).isIn(Verdict.GONE, Verdict.NOT_OURS);
	}

	@Test
	void recordedIdentityWhosePidNowNamesAnotherProcessIsNotOurs() throws Exception {
		long pid = this.spawns.spawn("reused", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		ExpectedIdentity recorded = identityOf(pid, "reused");
		this.spawns.close();
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
		this.unrelated = startWithPid(pid);
		if (this.unrelated != null) {
			// The very pid number now names an unrelated process: only the start time and markers tell them apart.
			assertThat(this.unrelated.pid()).isEqualTo(pid);
			assertThat(this.probe.verify(recorded)).isEqualTo(Verdict.NOT_OURS);
			assertThat(new ProcessSignaller(this.probe).signal(recorded, 9)).isEqualTo(Verdict.NOT_OURS);
			assertThat(this.unrelated.isAlive()).isTrue();
		}
		// Where the pid cannot be recreated, a live marked child whose recorded start time differs stands in.
		long other = this.spawns.spawn("reused", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(other, "sleep"));
		ExpectedIdentity stale = new ExpectedIdentity(other, recorded.installationId(), ChildKind.AGENT, "reused",
				recorded.startTime() - 1, recorded.bootId());
		assertThat(this.probe.verify(stale)).isEqualTo(Verdict.NOT_OURS);
		assertThat(this.probe.verify(stale.withStart(null, "another-boot"))).isEqualTo(Verdict.NOT_OURS);
	}

	@Test
	void zombieIsRecognised() throws Exception {
		this.unrelated = new ProcessBuilder("sh", "-c", "sleep 600 & exec sleep 600").start();
		await().atMost(Duration.ofSeconds(5)).until(() -> childrenOf(this.unrelated.pid()).size() == 1);
		long grandchild = childrenOf(this.unrelated.pid()).get(0);
		ProcessHandle.of(grandchild).orElseThrow().destroyForcibly();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.probe.isZombie(grandchild));
		assertThat(this.probe.verify(new ExpectedIdentity(grandchild, "x", ChildKind.AGENT, "y", null, null)))
			.isEqualTo(Verdict.GONE);
	}

	@Test
	void signalablePidRejectsWhatMustNeverBeSignalled() {
		assertThat(IdentityProbe.signalablePid(0)).isFalse();
		assertThat(IdentityProbe.signalablePid(-5)).isFalse();
		assertThat(IdentityProbe.signalablePid(1)).isFalse();
		assertThat(IdentityProbe.signalablePid(ProcessHandle.current().pid())).isFalse();
		assertThat(IdentityProbe.signalablePid(Integer.MAX_VALUE + 1L)).isFalse();
		assertThat(IdentityProbe.signalablePid(4242)).isTrue();
	}

	@Test
	void ourChildIsSignalledThroughItsVerifiedIdentity() throws Exception {
		long pid = this.spawns.spawn("target", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		assertThat(new ProcessSignaller(this.probe).signalGroup(identityOf(pid, "target"), 15)).isEqualTo(Verdict.OURS);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.spawns.exitOf(pid) != null);
		assertThat(this.spawns.exitOf(pid).signal()).isEqualTo(15);
	}

	private static List<Long> childrenOf(long pid) {
		return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::children).map(ProcessHandle::pid).toList();
	}

	/** Recreates a pid number for an unrelated process (root only); {@code null} where that cannot be done. */
	private static Process startWithPid(long pid) throws IOException, InterruptedException {
		if (!Files.isWritable(NS_LAST_PID)) {
			return null;
		}
		for (int attempt = 0; attempt < 50; attempt++) {
			try {
				Files.writeString(NS_LAST_PID, Long.toString(pid - 1));
			}
			catch (IOException ex) {
				return null;
			}
			Process process = new ProcessBuilder("sleep", "600").start();
			if (process.pid() == pid) {
				return process;
			}
			process.destroyForcibly();
			process.waitFor();
		}
		return null;
	}

}
