package dev.tether.sample.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

/**
 * What every fault scenario shares: a private state directory and an installation id of
 * this test run, and a configuration file of its own. After each scenario the run's leak
 * check (applied to every test) fails it if a process of the run, or a descendant of the
 * test JVM, is still alive.
 */
abstract class FaultScenarioSupport {

	@TempDir
	Path temp;

	final String installation = TestRun.installationId("e2e");

	Path state() {
		return this.temp.resolve("state");
	}

	Path log(String name) {
		return this.temp.resolve(name + ".log");
	}

	/**
	 * A configuration file: the common settings, then the scenario's
	 * {@code supervisor.children} block.
	 */
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
				  tick-interval: 100ms
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

	/** Live processes carrying this scenario's installation id. */
	List<Long> ours() {
		return LiveProcesses.withEnvironmentEntry(ChildMarkers.INSTALLATION_ENV + "=" + this.installation);
	}

	/**
	 * Live processes of this scenario's installation that carry the marker of one child.
	 */
	List<Long> oursNamed(String child) {
		return ours().stream()
			.filter((pid) -> LiveProcesses.environ(pid).contains(ChildKind.AGENT.nameKey() + "=" + child))
			.toList();
	}

	/** The rows of the registry file, parsed. */
	List<JsonNode> registryRows() throws IOException {
		JsonNode registry = JsonMapper.builder().build().readTree(state().resolve("registry.json").toFile());
		List<JsonNode> rows = new ArrayList<>();
		registry.get("rows").forEach(rows::add);
		return rows;
	}

}
