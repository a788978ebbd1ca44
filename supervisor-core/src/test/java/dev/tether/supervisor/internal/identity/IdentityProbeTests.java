package dev.tether.supervisor.internal.identity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.testsupport.Canary;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.OtherUser;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class IdentityProbeTests {

	/** A uid no process of these tests runs as. */
	private static final int OTHER_UID = 54321;

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
		return new ExpectedIdentity(pid, this.spawns.owner(), ChildKind.AGENT, name, startTime,
				this.probe.bootId().orElseThrow());
	}

	@Test
	void spawnedChildIsOurs() throws Exception {
		long pid = this.spawns.spawn("worker", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		assertThat(this.probe.verify(identityOf(pid, "worker"))).isEqualTo(Verdict.OURS);
		assertThat(this.probe.scanMarked(this.spawns.owner()))
			.containsExactly(new MarkedProcess(pid, ChildKind.AGENT, "worker"));
	}

	@ParameterizedTest(name = "another {0}")
	@ValueSource(strings = { "name", "installation", "instance", "kind" })
	void spawnedChildClaimedUnderAnotherMarkerIsNotOurs(String differs) throws Exception {
		long pid = this.spawns.spawn("greeter-staging", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		ExpectedIdentity claimed = switch (differs) {
			case "name" -> new ExpectedIdentity(pid, this.spawns.owner(), ChildKind.AGENT, "greeter", null, null);
			case "installation" -> new ExpectedIdentity(pid,
					new Owner(this.spawns.installationId() + "-other", this.spawns.owner().instanceId()),
					ChildKind.AGENT, "greeter-staging", null, null);
			case "instance" -> new ExpectedIdentity(pid, new Owner(this.spawns.installationId(), "another-instance"),
					ChildKind.AGENT, "greeter-staging", null, null);
			default -> new ExpectedIdentity(pid, this.spawns.owner(), ChildKind.MCP, "greeter-staging", null, null);
		};
		assertThat(this.probe.verify(claimed)).isEqualTo(Verdict.NOT_OURS);
	}

	@Test
	void unmarkedLiveProcessIsNeverOursNorSignalled() throws Exception {
		try (Canary unrelated = Canary.child(this.temp.resolve("canary"), Map.of())) {
			ExpectedIdentity claimed = new ExpectedIdentity(unrelated.pid(), this.spawns.owner(), ChildKind.AGENT,
					"worker", null, null);
			assertThat(this.probe.verify(claimed)).isEqualTo(Verdict.NOT_OURS);
			ProcessSignaller signaller = new ProcessSignaller(this.probe);
			assertThat(signaller.signal(claimed, 15)).isEqualTo(Verdict.NOT_OURS);
			assertThat(signaller.signalGroup(claimed, 15)).isEqualTo(Verdict.NOT_OURS);
			unrelated.assertUntouched();
		}
	}

	@Test
	void markedProcessOfAnotherUserIsNotListed() throws Exception {
		OtherUser.assumeAvailable();
		long ours = this.spawns.spawn("copied", "sleep", "600").pid();
		ProcessBuilder builder = new ProcessBuilder(OtherUser.command(OTHER_UID, List.of("sleep", "600")));
		// The other user's process carries exactly the markers of ours.
		builder.environment().putAll(this.spawns.environment(ChildKind.AGENT, "copied"));
		this.unrelated = builder.start();
		long theirs = this.unrelated.pid();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> LiveProcesses.isRunning(ours, "sleep") && LiveProcesses.isRunning(theirs, "sleep"));
		assertThat(Files.readAllLines(Path.of("/proc", Long.toString(theirs), "status")))
			.contains("Uid:\t" + OTHER_UID + "\t" + OTHER_UID + "\t" + OTHER_UID + "\t" + OTHER_UID);
		assertThat(LiveProcesses.environ(theirs))
			.containsAll(LiveProcesses.environ(ours).stream().filter((entry) -> entry.startsWith("TETHER_")).toList());
		assertThat(this.probe.scanMarked(this.spawns.owner()))
			.containsExactly(new MarkedProcess(ours, ChildKind.AGENT, "copied"));
	}

	@Test
	void goneProcessIsGone() throws Exception {
		long pid = this.spawns.spawn("short", "true").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.spawns.exitOf(pid) != null);
		ExpectedIdentity identity = new ExpectedIdentity(pid, this.spawns.owner(), ChildKind.AGENT, "short", null,
				null);
		assertThat(this.probe.verify(identity)).isEqualTo(Verdict.GONE);
	}

	@Test
	void recordedIdentityWhosePidNowNamesAnUnrelatedProcessIsNotOursNorSignalled() throws Exception {
		long pid = this.spawns.spawn("reused", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		ExpectedIdentity recorded = identityOf(pid, "reused");
		this.spawns.close();
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
		try (Canary unrelated = Canary.withPid(this.temp.resolve("canary"), pid)) {
			// The very pid number now names an unrelated process: only the start time and
			// markers tell them apart.
			assertThat(this.probe.verify(recorded)).isEqualTo(Verdict.NOT_OURS);
			assertThat(new ProcessSignaller(this.probe).signal(recorded, 15)).isEqualTo(Verdict.NOT_OURS);
			assertThat(new ProcessSignaller(this.probe).signalGroup(recorded, 15)).isEqualTo(Verdict.NOT_OURS);
			unrelated.assertUntouched();
		}
	}

	@Test
	void markedChildWhoseRecordedStartTimeOrBootDiffersIsNotOurs() throws Exception {
		long pid = this.spawns.spawn("restarted", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		ExpectedIdentity current = identityOf(pid, "restarted");
		ExpectedIdentity earlierStart = new ExpectedIdentity(pid, current.owner(), ChildKind.AGENT, "restarted",
				current.startTime() - 1, current.bootId());
		assertThat(this.probe.verify(earlierStart)).isEqualTo(Verdict.NOT_OURS);
		ExpectedIdentity anotherBoot = new ExpectedIdentity(pid, current.owner(), ChildKind.AGENT, "restarted",
				current.startTime(), "another-boot");
		assertThat(this.probe.verify(anotherBoot)).isEqualTo(Verdict.NOT_OURS);
	}

	@Test
	void zombieIsRecognised() throws Exception {
		this.unrelated = new ProcessBuilder("sh", "-c", "sleep 600 & exec sleep 600").start();
		await().atMost(Duration.ofSeconds(10)).until(() -> childrenOf(this.unrelated.pid()).size() == 1);
		long grandchild = childrenOf(this.unrelated.pid()).get(0);
		ProcessHandle.of(grandchild).orElseThrow().destroyForcibly();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.probe.hasExited(grandchild));
		assertThat(this.probe
			.verify(new ExpectedIdentity(grandchild, new Owner("x", "y"), ChildKind.AGENT, "z", null, null)))
			.isEqualTo(Verdict.GONE);
	}

	@Test
	void aProcessWhoseLeaderExitedWhileAnotherThreadRunsHasNotExited() throws Exception {
		Path program = compile("""
				#include <pthread.h>
				#include <unistd.h>
				#include <sys/syscall.h>
				static void *hold(void *unused) { for (;;) pause(); return unused; }
				int main(void) {
				    pthread_t thread;
				    pthread_create(&thread, 0, hold, 0);
				    syscall(SYS_exit, 0); /* this thread alone */
				    return 0;
				}
				""");
		this.unrelated = new ProcessBuilder(program.toString()).start();
		long pid = this.unrelated.pid();
		await("its leader has exited").atMost(Duration.ofSeconds(10))
			.until(() -> LiveProcesses.stat(pid).map(ProcStat::state).orElse('?') == 'Z');

		assertThat(this.probe.hasExited(pid)).isFalse();
		assertThat(this.probe.isRunning(pid, null)).isTrue();
		this.unrelated.destroyForcibly();
		this.unrelated.waitFor();
		assertThat(this.probe.isRunning(pid, null)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, -5, 1, Integer.MAX_VALUE + 1L })
	void signalablePidRejectsWhatMustNeverBeSignalled(long pid) {
		assertThat(IdentityProbe.signalablePid(pid)).isFalse();
	}

	@Test
	void signalablePidRejectsTheSupervisorItself() {
		assertThat(IdentityProbe.signalablePid(ProcessHandle.current().pid())).isFalse();
	}

	@Test
	void signalablePidAcceptsAnOrdinaryPid() {
		assertThat(IdentityProbe.signalablePid(4242)).isTrue();
	}

	@Test
	void ourChildIsSignalledThroughItsVerifiedIdentity() throws Exception {
		long pid = this.spawns.spawn("target", "sleep", "600").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		assertThat(new ProcessSignaller(this.probe).signalGroup(identityOf(pid, "target"), 15)).isEqualTo(Verdict.OURS);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.spawns.exitOf(pid) != null);
		assertThat(this.spawns.exitOf(pid).signal()).isEqualTo(15);
	}

	/** A C program built with the machine's {@code cc}; skipped where there is none. */
	private Path compile(String source) throws IOException, InterruptedException {
		Path file = Files.writeString(this.temp.resolve("program.c"), source);
		Path program = this.temp.resolve("program");
		Process cc;
		try {
			cc = new ProcessBuilder("cc", "-pthread", "-o", program.toString(), file.toString()).inheritIO().start();
		}
		catch (IOException ex) {
			return Assumptions.abort("no C compiler to build the test's program: " + ex.getMessage());
		}
		assertThat(cc.waitFor()).as("cc's exit status").isZero();
		return program;
	}

	private static List<Long> childrenOf(long pid) {
		return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::children).map(ProcessHandle::pid).toList();
	}

}
