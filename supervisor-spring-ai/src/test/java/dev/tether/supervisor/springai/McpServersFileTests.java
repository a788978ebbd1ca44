package dev.tether.supervisor.springai;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code supervisor.mcp.servers-configuration}: a servers file of Claude Desktop's format
 * read into supervised stdio MCP children, with real processes and a real MCP session.
 */
@EnabledOnOs(OS.LINUX)
class McpServersFileTests {

	@TempDir
	Path state;

	@TempDir
	Path files;

	private final String installation = TestRun.installationId("spring-ai-servers-file");

	/**
	 * An application with the servers file {@code json}, read as Spring Boot reads it
	 * (the runner runs no environment post-processor).
	 */
	private ApplicationContextRunner runner(String json) throws IOException {
		Path file = Files.writeString(this.files.resolve("mcp-servers.json"), json);
		return McpHosts.runner(this.state, this.installation)
			.withPropertyValues(McpServersFile.PROPERTY + "=file:" + file)
			.withInitializer((context) -> new McpServersFile().postProcessEnvironment(context.getEnvironment(),
					new SpringApplication()));
	}

	private static String servers(Map<String, Object> servers) {
		return JsonMapper.builder().build().writeValueAsString(Map.of("mcpServers", servers));
	}

	/** The fixture server as a servers file entry, under {@code sh -c}. */
	private static Map<String, Object> fixture() {
		return Map.of("command", "sh", "args",
				List.of("-c", McpHosts.shell(JavaCommand.main(McpFixtureServer.class)) + "; exit $?"), "env",
				Map.of("FIXTURE_FROM", "file"));
	}

	@Test
	void theToolsOfAServerOfTheFileAreCallableThroughSpringAi() throws IOException {
		runner(servers(Map.of("files", fixture()))).run((context) -> {
			assertThat(context).hasNotFailed();
			ToolCallback echo = SpringAiStdioTests.tool(context.getBean(ToolCallbackProvider.class), "echo");
			assertThat(echo.call("{\"text\":\"from the file\"}")).contains("echo: from the file");
			ChildSpec spec = context.getBean(Supervisor.class).spec("files").orElseThrow();
			assertThat(spec.kind()).isEqualTo(ChildKind.MCP);
			assertThat(spec.stdio()).isTrue();
			assertThat(spec.command()).startsWith("sh", "-c");
			assertThat(spec.environment()).containsEntry("FIXTURE_FROM", "file");
		});
	}

	@Test
	void aSpringApplicationReadsTheFileAndItsToolsAreCallable() throws IOException {
		Path file = Files.writeString(this.files.resolve("mcp-servers.json"), servers(Map.of("files", fixture())));
		List<String> args = new ArrayList<>();
		for (String property : McpHosts.properties(this.state, this.installation)) {
			args.add("--" + property);
		}
		args.add("--" + McpServersFile.PROPERTY + "=file:" + file);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
				Configurations.getClasses(McpHosts.autoConfigurations()))
			.web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new))) {
			ToolCallback echo = SpringAiStdioTests.tool(context.getBean(ToolCallbackProvider.class), "echo");
			assertThat(echo.call("{\"text\":\"from a servers file\"}")).contains("echo: from a servers file");
		}
	}

	@Test
	void theDefaultsApplyToTheServersOfTheFile() throws IOException {
		runner(servers(Map.of("files", fixture()))).withPropertyValues("supervisor.defaults.max-restarts=7")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(Supervisor.class).spec("files").orElseThrow().maxRestarts()).isEqualTo(7);
			});
	}

	@Test
	void aRemoteServerFailsStartupNamingTheFileAndTheEntry() throws IOException {
		runner(servers(Map.of("remote", Map.of("url", "https://mcp.example.com/mcp"))))
			.run(fails("supervisor.mcp.servers-configuration", "\"mcpServers\": \"remote\" in file:",
					"has a url: only stdio servers"));
	}

	@Test
	void aNameAlsoDeclaredUnderChildrenFailsStartupNamingBoth() throws IOException {
		runner(servers(Map.of("files", fixture()))).withPropertyValues("supervisor.children.files.command=true")
			.run(fails("declares the MCP server 'files'", "supervisor.children.files.command"));
	}

	@Test
	void aMissingFileFailsStartupNamingItsLocation() throws IOException {
		McpHosts.runner(this.state, this.installation)
			.withPropertyValues(McpServersFile.PROPERTY + "=file:" + this.files.resolve("absent.json"))
			.withInitializer((context) -> new McpServersFile().postProcessEnvironment(context.getEnvironment(),
					new SpringApplication()))
			.run(fails("supervisor.mcp.servers-configuration (file:" + this.files.resolve("absent.json")
					+ ") cannot be read"));
	}

	@Test
	void malformedJsonFailsStartupNamingTheLocationAndThePosition() throws IOException {
		runner("{\"mcpServers\": {\n  \"files\": {\"command\": \"sh\",}\n}}")
			.run(fails("supervisor.mcp.servers-configuration (file:", "is not valid JSON at line 2, column"));
	}

	@Test
	void aFieldTetherDoesNotReadFailsStartupNamingIt() throws IOException {
		runner(servers(Map.of("files", Map.of("command", "true", "disabled", true))))
			.run(fails("\"mcpServers\": \"files\" in file:", "has \"disabled\", which Tether does not read"));
	}

	@Test
	void argumentsThatAreNoArrayFailStartupNamingTheEntry() throws IOException {
		runner(servers(Map.of("files", Map.of("command", "npx", "args", "-y server"))))
			.run(fails("\"mcpServers\": \"files\" in file:", "args must be an array of strings"));
	}

	@Test
	void aMisspelledSettingFailsStartupNamingTheSettingMeant() {
		McpHosts.runner(this.state, this.installation)
			.withPropertyValues("supervisor.mcp.server-configuration=file:mcp.json")
			.run(fails("supervisor.mcp.server-configuration is not a setting of Tether; "
					+ "did you mean supervisor.mcp.servers-configuration?"));
	}

	private static ContextConsumer<AssertableApplicationContext> fails(String... messages) {
		return (context) -> {
			assertThat(context).hasFailed();
			assertThat(SpringAiStdioTests.messages(context.getStartupFailure())).contains(messages);
		};
	}

}
