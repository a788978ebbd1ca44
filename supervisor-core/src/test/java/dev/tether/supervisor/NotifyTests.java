package dev.tether.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.OtherUser;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The notify protocol with real children: a Python child (src/test/resources/notify)
 * sends the datagrams each test writes for it, through the socket Tether gave it.
 */
@EnabledOnOs(OS.LINUX)
class NotifyTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final Path PYTHON = Path.of("/usr/bin/python3");

	@TempDir
	Path temp;

	private Path script;

	@BeforeEach
	void script() throws IOException {
		Assumptions.assumeTrue(Files.isExecutable(PYTHON), "needs " + PYTHON);
		this.script = this.temp.resolve("notify-child.py");
		try (InputStream in = NotifyTests.class.getResourceAsStream("/notify/notify-child.py")) {
			Files.copy(in, this.script);
		}
	}

	@Test
	void aNotifyChildIsStartingUntilReadyAndShowsItsStatus() throws Exception {
		Path directory = directory("ready");
		ChildSpec spec = child("ready", directory, 0).readinessNotify(true).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("ready");
			say(directory, 0, "STATUS=loading\u0007 the model");
			ChildSnapshot loading = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "ready"), (child) -> "loading\\x07 the model".equals(child.statusText()));
			assertThat(loading.state()).isEqualTo(ChildState.STARTING);
			assertThat(loading.notifyStatus().phase()).isEqualTo(NotifyStatus.Phase.STARTING);
			assertThat(Files.readString(directory.resolve("socket"))).startsWith("@tether/");
			say(directory, 1, "READY=1\nSTATUS=serving\nMAINPID=1\nUNKNOWN=whatever");
			ChildSnapshot ready = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "ready"), (child) -> child.state() == ChildState.RUNNING);
			await().atMost(DEADLINE).until(() -> "serving".equals(snapshot(test, "ready").statusText()));
			assertThat(snapshot(test, "ready").notifyStatus().phase()).isEqualTo(NotifyStatus.Phase.READY);
			assertThat(ready.pid()).isEqualTo(loading.pid());
			assertThat(ready.notifyStatus().ignoredDatagrams()).isZero();
			say(directory, 2, "STOPPING=1\nERRNO=2");
			await().atMost(DEADLINE)
				.until(() -> snapshot(test, "ready"),
						(child) -> child.notifyStatus().phase() == NotifyStatus.Phase.STOPPING
								&& "the child reported ERRNO=2".equals(child.lastError()));
		}
	}

	@Test
	void readyFromAProcessOutsideTheTreeIsIgnoredAndCounted() throws Exception {
		Path directory = directory("guarded");
		ChildSpec spec = child("guarded", directory, 0).readinessNotify(true).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("guarded");
			await().atMost(DEADLINE).until(() -> Files.exists(directory.resolve("socket")));
			String socket = Files.readString(directory.resolve("socket"));
			List<List<String>> senders = new ArrayList<>();
			senders.add(sender(socket));
			if (otherUserAvailable()) {
				senders.add(OtherUser.command(65534, sender(socket)));
			}
			for (int i = 0; i < senders.size(); i++) {
				Process outsider = new ProcessBuilder(senders.get(i)).redirectErrorStream(true).start();
				try {
					long expected = i + 1;
					await().atMost(DEADLINE)
						.until(() -> snapshot(test, "guarded").notifyStatus().ignoredDatagrams() == expected);
				}
				finally {
					outsider.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				}
				assertThat(snapshot(test, "guarded").state()).isEqualTo(ChildState.STARTING);
			}
			say(directory, 0, "READY=1");
			await().atMost(DEADLINE).until(() -> snapshot(test, "guarded").state() == ChildState.RUNNING);
		}
	}

	@Test
	void extendTimeoutUsecHoldsOffTheStartupTimeout() throws Exception {
		Path extended = directory("extended");
		Path silent = directory("silent");
		List<ChildSpec> specs = List.of(
				child("extended", extended, 0).readinessNotify(true).startupTimeout(Duration.ofSeconds(1)).build(),
				child("silent", silent, 0).readinessNotify(true)
					.startupTimeout(Duration.ofSeconds(1))
					.restart(RestartPolicy.NEVER)
					.build());
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), specs)) {
			say(extended, 0, "EXTEND_TIMEOUT_USEC=60000000");
			test.supervisor().start("extended");
			test.supervisor().start("silent");
			ChildSnapshot killed = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "silent"), (child) -> child.state() == ChildState.EXITED);
			assertThat(killed.lastError()).isEqualTo("did not send READY=1 within PT1S");
			ChildSnapshot waiting = snapshot(test, "extended");
			assertThat(waiting.state()).isEqualTo(ChildState.STARTING);
			assertThat(waiting.restarts()).isZero();
			say(extended, 1, "READY=1");
			await().atMost(DEADLINE).until(() -> snapshot(test, "extended").state() == ChildState.RUNNING);
			assertThat(snapshot(test, "extended").pid()).isEqualTo(waiting.pid());
		}
	}

	@Test
	void aMissedWatchdogRestartsTheChildWhileABeatingOneRunsOnForThirtySeconds() throws Exception {
		Path beating = directory("beating");
		Path silent = directory("mute");
		List<ChildSpec> specs = List.of(child("beating", beating, 0.2).livenessWatchdog(Duration.ofSeconds(1)).build(),
				child("mute", silent, 0).livenessWatchdog(Duration.ofSeconds(1)).build());
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), specs)) {
			test.supervisor().start("beating");
			ChildSnapshot first = test.supervisor().start("mute");
			long beatingPid = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "beating"), (child) -> child.state() == ChildState.RUNNING)
				.pid();
			assertThat(Files.readString(beating.resolve("watchdog"))).isEqualTo("1000000");
			ChildSnapshot restarted = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "mute"),
						(child) -> child.restarts() >= 1 && child.pid() != null && !child.pid().equals(first.pid()));
			assertThat(test.events("mute", ChildEvent.Type.EXITED)).first()
				.satisfies((event) -> assertThat(event.error()).isEqualTo("watchdog: no WATCHDOG=1 for 1s"));
			assertThat(restarted.lastError()).isEqualTo("watchdog: no WATCHDOG=1 for 1s");
			ChildSnapshot beat = snapshot(test, "beating");
			assertThat(beat.restarts()).isZero();
			assertThat(beat.pid()).isEqualTo(beatingPid);
			assertThat(beat.notifyStatus().lastWatchdog()).isNotNull();
			// A child that keeps beating is never restarted, over 30 s of a machine as
			// loaded as the build makes it.
			await("the beating child keeps its pid for 30 s").during(Duration.ofSeconds(30))
				.atMost(Duration.ofSeconds(45))
				.until(() -> snapshot(test, "beating"),
						(child) -> child.restarts() == 0 && Long.valueOf(beatingPid).equals(child.pid()));
			Files.writeString(beating.resolve("silent"), "");
			await().atMost(DEADLINE).until(() -> snapshot(test, "beating").restarts() >= 1);
		}
	}

	@Test
	void watchdogTriggerRestartsAtOnce() throws Exception {
		Path directory = directory("trigger");
		ChildSpec spec = child("trigger", directory, 0.2).livenessWatchdog(Duration.ofMinutes(10)).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot first = test.supervisor().start("trigger");
			await().atMost(DEADLINE).until(() -> snapshot(test, "trigger").notifyStatus().lastWatchdog() != null);
			say(directory, 0, "WATCHDOG=trigger");
			// Why the events, not the count of restarts: each new process sends cmd-0
			// again,
			// so the count moves on while the test polls it. The watchdog's period is ten
			// minutes: only the trigger can restart the child within the deadline.
			await().atMost(DEADLINE).until(() -> test.events("trigger", ChildEvent.Type.STARTED).size() >= 2);
			assertThat(test.events("trigger", ChildEvent.Type.STARTED).get(1).child().pid()).isNotEqualTo(first.pid());
			assertThat(test.events("trigger", ChildEvent.Type.EXITED)).first()
				.satisfies((event) -> assertThat(event.error()).isEqualTo("watchdog: the child sent WATCHDOG=trigger"));
		}
	}

	@Test
	void aReloadWaitsForReadyAndOneThatNeverComesRestartsTheChild() throws Exception {
		Path directory = directory("reloads");
		ChildSpec spec = child("reloads", directory, 0).readinessNotify(true)
			.startupTimeout(Duration.ofSeconds(2))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("reloads");
			say(directory, 0, "READY=1");
			long pid = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "reloads"), (child) -> child.state() == ChildState.RUNNING)
				.pid();
			test.supervisor().reload("reloads");
			assertThat(snapshot(test, "reloads").notifyStatus().phase()).isEqualTo(NotifyStatus.Phase.RELOADING);
			await().atMost(DEADLINE).until(() -> Files.exists(directory.resolve("hup")));
			say(directory, 1, "RELOADING=1\nSTATUS=reloading");
			say(directory, 2, "READY=1\nSTATUS=reloaded");
			await().atMost(DEADLINE)
				.until(() -> snapshot(test, "reloads"),
						(child) -> child.notifyStatus().phase() == NotifyStatus.Phase.READY
								&& "reloaded".equals(child.statusText()));
			assertThat(snapshot(test, "reloads").pid()).isEqualTo(pid);
			assertThat(snapshot(test, "reloads").state()).isEqualTo(ChildState.RUNNING);
			test.supervisor().reload("reloads");
			ChildSnapshot restarted = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "reloads"), (child) -> child.restarts() == 1);
			assertThat(restarted.lastError()).startsWith("did not send READY=1 within PT2S of reloading");
		}
	}

	@Test
	void aLogLineChildIsStartingUntilItsLineAndOneWithoutItIsKilledAtTheStartupTimeout() throws Exception {
		List<ChildSpec> specs = List.of(
				ChildSpec
					.builder("listens",
							List.of("sh", "-c",
									"echo loading; sleep 1; echo 'listening on 8080' >&2; "
											+ "echo after; exec sleep 600"))
					.autostart(false)
					.readinessLogLine("listening on \\d+")
					.build(),
				ChildSpec.builder("quiet", List.of("sh", "-c", "echo loading; exec sleep 600"))
					.autostart(false)
					.restart(RestartPolicy.NEVER)
					.startupTimeout(Duration.ofSeconds(2))
					.readinessLogLine("listening")
					.build());
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), specs)) {
			assertThat(test.supervisor().start("listens").state()).isEqualTo(ChildState.STARTING);
			test.supervisor().start("quiet");
			await().atMost(DEADLINE).until(() -> snapshot(test, "listens").state() == ChildState.RUNNING);
			ChildSnapshot killed = await().atMost(DEADLINE)
				.until(() -> snapshot(test, "quiet"), (child) -> child.state() == ChildState.EXITED);
			assertThat(killed.lastError()).isEqualTo("did not print a line matching /listening/ within PT2S");
		}
	}

	@Test
	void theWatchdogIsTheCommandsOwnThroughWatchdogPidWithOrWithoutAShepherd() throws Exception {
		List<ChildSpec> specs = new ArrayList<>();
		for (boolean shepherd : List.of(true, false)) {
			String name = shepherd ? "shepherded" : "launched";
			// The command writes what it was given, then a descendant of it does.
			specs.add(ChildSpec
				.builder(name,
						List.of("/bin/sh", "-c", "echo \"command $WATCHDOG_PID $$ $WATCHDOG_USEC\" > \"$0\"; "
								+ "/bin/sh -c 'echo \"descendant $WATCHDOG_PID $$\" >> \"$0\"' \"$0\"; exec sleep 120",
								this.temp.resolve(name).toString()))
				.autostart(false)
				.containDescendants(shepherd)
				.livenessWatchdog(Duration.ofSeconds(60))
				.build());
		}
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), specs)) {
			for (ChildSpec spec : specs) {
				test.supervisor().start(spec.name());
				Path seen = this.temp.resolve(spec.name());
				List<String> lines = await().atMost(DEADLINE)
					.until(() -> Files.exists(seen) ? Files.readAllLines(seen) : List.of(), (read) -> read.size() == 2);
				long pid = snapshot(test, spec.name()).pid();
				assertThat(lines.get(0)).as(spec.name()).isEqualTo("command " + pid + " " + pid + " 60000000");
				assertThat(lines.get(1)).as(spec.name())
					.startsWith("descendant " + pid + " ")
					.isNotEqualTo("descendant " + pid + " " + pid);
			}
		}
	}

	@Test
	void unusableSettingsAreRefusedNamingTheSetting() {
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true")).livenessWatchdog(Duration.ofMillis(10)).build())
			.withMessage("child 'a': liveness.watchdog must be at least 100ms (was PT0.01S)");
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true")).readinessLogLine("ready (").build())
			.withMessageStartingWith("child 'a': readiness.log-line is not a regular expression: Unclosed group");
		assertThatExceptionOfType(InvalidChildSpecException.class).isThrownBy(
				() -> ChildSpec.builder("a", List.of("true")).readinessLogLine("ready").readinessNotify(true).build())
			.withMessageContaining("readiness.log-line is another way to say READY=1");
		assertThatExceptionOfType(InvalidChildSpecException.class).isThrownBy(
				() -> ChildSpec.builder("a", List.of("true")).readinessLogLine("ready").logFileEnabled(false).build())
			.withMessageContaining("readiness.log-line needs the child's output");
	}

	private ChildSpecBuilder child(String name, Path directory, double beatSeconds) {
		return ChildSpec
			.builder(name,
					List.of(PYTHON.toString(), this.script.toString(), directory.toString(),
							Double.toString(beatSeconds)))
			.autostart(false)
			.stopTimeout(Duration.ofSeconds(5));
	}

	private Path directory(String name) throws IOException {
		return Files.createDirectories(this.temp.resolve(name));
	}

	/** Has the child send {@code message} as its {@code index}th command. */
	private static void say(Path directory, int index, String message) throws IOException {
		Path written = directory.resolve("cmd-" + index + ".tmp");
		Files.writeString(written, message, StandardCharsets.UTF_8);
		Files.move(written, directory.resolve("cmd-" + index), StandardCopyOption.ATOMIC_MOVE);
	}

	private static ChildSnapshot snapshot(TestSupervisor test, String name) {
		return test.supervisor().snapshot(name).orElseThrow();
	}

	/** A process outside every child's tree that sends READY=1 and lives on. */
	private static List<String> sender(String socket) {
		return List.of(PYTHON.toString(), "-c",
				"import socket, sys, time\n" + "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
						+ "s.sendto(b'READY=1', '\\0' + sys.argv[1][1:])\n" + "time.sleep(120)\n",
				socket);
	}

	private static boolean otherUserAvailable() {
		try {
			OtherUser.assumeAvailable();
			return true;
		}
		catch (Exception ex) {
			return false;
		}
	}

}
