package dev.tether.sample.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildMarkers;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.NoLeakedChildrenExtension;

/**
 * What every fault scenario shares: a private state directory and installation id, a configuration file of its
 * own, and a final check that no process of this run's installation is alive.
 */
abstract class FaultScenarioSupport {

	@TempDir
	Path temp;

	final String installation = NoLeakedChildrenExtension.TEST_INSTALLATION_PREFIX + "e2e-" + UUID.randomUUID();

	Path state() {
		return this.temp.resolve("state");
	}

	Path log(String name) {
		return this.temp.resolve(name + ".log");
	}

	/** A configuration file: the common settings, then the scenario's {@code supervisor.children} block. */
	Path config(String name, String children) throws IOException {
		return config(name, children, "");
	}

	Path config(String name, String children, String extraSupervisor) throws IOException {
		String yaml = """
				spring:
				  application:
				    name: tether-e2e
				management:
				  endpoints:
				    web:
				      exposure:
				        include: health,children,metrics
				  endpoint:
				    health:
				      show-details: always
				    children:
				      access: unrestricted
				supervisor:
				  installation-id: %s
				  state-directory: %s
				  reap-interval: 100ms
				%s
				  children:
				%s
				""".formatted(this.installation, state(), indent(extraSupervisor, 2), indent(children, 4));
		return Files.writeString(this.temp.resolve(name + ".yml"), yaml);
	}

	private static String indent(String block, int spaces) {
		String pad = " ".repeat(spaces);
		return block.lines().map((line) -> line.isBlank() ? line : pad + line).collect(Collectors.joining("\n"));
	}

	/** Live processes carrying this run's installation id. */
	List<Long> ours() {
		return LiveProcesses.withEnvironmentEntry(ChildMarkers.INSTALLATION_ENV + "=" + this.installation);
	}

	@AfterEach
	void nothingOfThisRunSurvives() {
		try {
			Awaitility.await("no process of " + this.installation + " alive")
				.atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> ours().isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			List<Long> survivors = ours();
			survivors.forEach((pid) -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
			throw new AssertionError("processes of this run survived: " + survivors.stream()
				.map((pid) -> pid + " " + LiveProcesses.commandLine(pid))
				.collect(Collectors.joining("; ")));
		}
	}

}
