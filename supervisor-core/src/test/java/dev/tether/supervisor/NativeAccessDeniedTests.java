package dev.tether.supervisor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.SocketActivationJvm;
import dev.tether.supervisor.testsupport.StopOnRequestJvm;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TreeSupervisorJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A supervisor in a JVM denied native access ({@code --illegal-native-access=deny}, JDK
 * 24+) makes no native call, yet its children do not outlive it: the launcher, started by
 * {@code ProcessBuilder}, arms their parent-death signal and shepherds their descendants,
 * so after a {@code kill -9} of that JVM nothing marked with its installation is left, a
 * daemon in a session of its own included.
 */
@EnabledOnOs(OS.LINUX)
class NativeAccessDeniedTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int CHILDREN = 3;

	@TempDir
	Path temp;

	@Test
	void childrenAndTheirDescendantsDoNotOutliveAJvmDeniedNativeAccessKilledWithSigkill() throws Exception {
		String installation = TestRun.installationId("denied");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		Path log = this.temp.resolve("jvm.log");
		List<String> command = deniedJvm(TreeSupervisorJvm.class, installation, this.temp.resolve("state").toString(),
				Integer.toString(CHILDREN), "true", TreeSupervisorJvm.TREE, "true");
		try (SecondJvm jvm = SecondJvm.start(new ProcessBuilder(command).redirectError(log.toFile()))) {
			// Why one key at a time: the JVM's log lines come on the same output.
			assertThat(jvm.readUntilCount("BACKEND", 1)).as(() -> read(log)).isEqualTo("none");
			assertThat(jvm.readUntilCount("MECHANISM", 1)).isEqualTo("launcher shepherd");
			jvm.readUntilCount("STARTED", 1);
			// Each tree: its shepherd, the shell, a background sleep and a daemon sleep
			// in a session of its own.
			await("every tree complete").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.filter((pid) -> LiveProcesses.isRunning(pid, "sleep"))
					.count() == 2L * CHILDREN);
			jvm.kill9();
			await("nothing marked left after kill -9").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
	}

	@Test
	void aStopEndsTheWholeTreeThroughTheJdksHandleAndAReloadThatWouldBeSentAsTermIsRefused() throws Exception {
		String installation = TestRun.installationId("denied-stop");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		Path log = this.temp.resolve("jvm.log");
		List<String> command = deniedJvm(StopOnRequestJvm.class, installation, this.temp.resolve("state").toString());
		try (SecondJvm jvm = SecondJvm.start(new ProcessBuilder(command).redirectError(log.toFile()))) {
			assertThat(jvm.readUntilCount("RUNNING", 1)).as(() -> read(log)).isEqualTo("launcher");
			await("the tree complete").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.filter((pid) -> LiveProcesses.isRunning(pid, "sleep"))
					.count() == 2);
			jvm.process().getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
			jvm.process().getOutputStream().flush();
			assertThat(jvm.readUntilCount("RELOAD", 1)).isEqualTo("child 'tree' was not reloaded: without a native "
					+ "backend only TERM and KILL can be sent to it, not signal 1");
			// The shepherd forwards the TERM to its command's group, then ends the rest
			// of the tree (the daemon in a session of its own) once the command exited.
			assertThat(jvm.readUntilCount("STOPPED", 1)).isEqualTo("EXITED");
			await("nothing marked left after the stop").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
		}
	}

	@Test
	void aSocketActivatedChildIsNotStartedAndSaysThatItNeedsTheNativeBackend() throws Exception {
		Path log = this.temp.resolve("jvm.log");
		List<String> command = deniedJvm(SocketActivationJvm.class, TestRun.installationId("denied-socket"),
				this.temp.resolve("state").toString(), Integer.toString(Listen.unusedPort()));
		try (SecondJvm jvm = SecondJvm.start(new ProcessBuilder(command).redirectError(log.toFile()))) {
			assertThat(jvm.readUntilCount("NOT_STARTED", 1)).as(() -> read(log))
				.isEqualTo("its listening socket could not be opened: socket activation needs the native backend, "
						+ "which this JVM cannot load");
		}
	}

	/** A JVM denied native access, running a main class of this test class path. */
	private static List<String> deniedJvm(Class<?> mainClass, String... arguments) {
		return JavaCommand.main(denyingJava(), List.of("--illegal-native-access=deny"), mainClass, arguments);
	}

	/**
	 * A JDK that has {@code --illegal-native-access} (24+): this one,
	 * {@code JAVA25_HOME}, or the JDK 25 the build finds by itself.
	 */
	private static Path denyingJava() {
		List<Path> homes = new ArrayList<>();
		if (Runtime.version().feature() >= 24) {
			homes.add(Path.of(System.getProperty("java.home")));
		}
		if (System.getenv("JAVA25_HOME") != null) {
			homes.add(Path.of(System.getenv("JAVA25_HOME")));
		}
		homes.add(Path.of("/usr/lib/jvm/temurin-25-jdk-amd64"));
		Path java = homes.stream()
			.map((home) -> home.resolve("bin/java"))
			.filter(Files::isExecutable)
			.findFirst()
			.orElse(null);
		if (java == null) {
			System.out.println("Skipped: needs a JDK 24+ (JAVA25_HOME) for --illegal-native-access=deny");
		}
		assumeTrue(java != null, "needs a JDK 24+ (JAVA25_HOME) for --illegal-native-access=deny");
		return java;
	}

	private static String read(Path log) {
		try {
			return Files.readString(log);
		}
		catch (java.io.IOException ex) {
			return ex.toString();
		}
	}

}
