package dev.tether.supervisor.springai;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kill -9} of an application that hosts an MCP stdio server which never exits on its own (a periodic timer
 * keeps it alive after its stdin closes) and runs under {@code sh -c}, so that it has a grandchild.
 */
@EnabledOnOs(OS.LINUX)
class ApplicationKilledTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path temp;

	@Test
	void underTetherNoProcessOfTheServersTreeSurvives() throws Exception {
		String installation = TestRun.installationId("spring-ai-kill9");
		String run = "tether-" + installation;
		Path log = this.temp.resolve("jvm.log");
		ProcessBuilder host = new ProcessBuilder(JavaCommand.main(McpHostJvm.class, this.temp.resolve("state").toString(),
				installation, "tether", run)).redirectErrorStream(true).redirectOutput(log.toFile());
		try (SecondJvm jvm = SecondJvm.start(host)) {
			await("the application is ready").atMost(DEADLINE).until(() -> ready(log) != null || !jvm.process().isAlive());
			assertThat(ready(log)).as("READY in %s", LiveProcesses.readIfPresent(log)).isNotNull();
			long serverPid = Long.parseLong(ready(log));
			List<Long> tree = LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run);
			assertThat(tree).as("the server and its sh wrapper").contains(serverPid).hasSizeGreaterThanOrEqualTo(2);
			String java = JavaCommand.of().get(0);
			assertThat(tree.stream().filter((pid) -> LiveProcesses.commandLine(pid).startsWith(java)))
				.as("one server, though the autostart at ready came after Spring AI connected")
				.hasSize(1);
			jvm.kill9();
			await("every process of the server's tree gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run).isEmpty());
		}
	}

	@Test
	void underSpringAisOwnStdioConnectionTheServerSurvives() throws Exception {
		String run = "spring-ai-" + TestRun.installationId("spring-ai-own");
		Path log = this.temp.resolve("jvm.log");
		ProcessBuilder host = new ProcessBuilder(JavaCommand.main(McpHostJvm.class, this.temp.resolve("state").toString(),
				TestRun.installationId("spring-ai-own"), "spring-ai", run)).redirectErrorStream(true)
			.redirectOutput(log.toFile());
		try (SecondJvm jvm = SecondJvm.start(host)) {
			await("the application is ready").atMost(DEADLINE).until(() -> ready(log) != null || !jvm.process().isAlive());
			assertThat(ready(log)).as("READY in %s", LiveProcesses.readIfPresent(log)).isNotNull();
			jvm.kill9();
			// Why a wait first: the server is given as long as it would need to notice; it never does.
			await("the JVM is gone").atMost(DEADLINE).until(() -> !jvm.process().isAlive());
			await().pollDelay(Duration.ofSeconds(3)).atMost(DEADLINE).until(() -> true);
			assertThat(LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run)).as("survivors").isNotEmpty();
		}
		finally {
			// Why here: nothing else would ever end them; each carries this run's marker in its environment.
			for (long pid : LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run)) {
				new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
			}
		}
	}

	private static String ready(Path log) throws java.io.IOException {
		return java.nio.file.Files.readAllLines(log).stream()
			.filter((line) -> line.startsWith("READY "))
			.map((line) -> line.substring(6).trim())
			.findFirst()
			.orElse(null);
	}

}
