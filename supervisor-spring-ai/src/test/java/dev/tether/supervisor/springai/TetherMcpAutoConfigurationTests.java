package dev.tether.supervisor.springai;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.ConfiguredChildren;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.testsupport.TestRun;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the module configures itself, and what it may use. No child is started here: none
 * has autostart at refresh, and no MCP transport is configured but where a test says so.
 */
class TetherMcpAutoConfigurationTests {

	@TempDir
	Path state;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, TetherMcpAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.state,
					"supervisor.installation-id=" + TestRun.installationId("spring-ai-conditions"),
					"supervisor.children.plain.command=true", "supervisor.children.plain.mcp.path=/elsewhere");
	}

	@Test
	void configuredWhereSpringAisMcpClientIsPresent() {
		runner().run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(McpChildren.class)
			.hasSingleBean(McpChildEvents.class)
			.hasBean("tetherMcpConnections")
			.hasBean("tetherMcpChildSpecCustomizer")
			.doesNotHaveBean("tetherMcpOptionalToolCallbacks"));
	}

	@Test
	void anOptionalServerWithoutSpringAisSynchronousClientFailsStartupNamingTheProperty() {
		assertStartupFails(
				"supervisor.children.plain.mcp.required is false, which needs Spring AI's synchronous MCP " + "client",
				"supervisor.children.plain.mcp.required=false");
	}

	@Test
	void aNonPositivePingFailsStartupNamingTheProperty() {
		assertStartupFails("supervisor.children.plain.mcp.ping must be a positive period",
				"supervisor.children.plain.mcp.ping=0s");
	}

	/**
	 * A stdio MCP child {@code plain} with {@code properties} fails startup saying so.
	 */
	private void assertStartupFails(String message, String... properties) {
		runner().withPropertyValues("supervisor.children.plain.mcp.transport=stdio")
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(SpringAiStdioTests.messages(context.getStartupFailure())).contains(message);
			});
	}

	@Test
	void notConfiguredWithoutSpringAisMcpClient() {
		runner().withClassLoader(new FilteredClassLoader(NamedClientMcpTransport.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Supervisor.class)
				.doesNotHaveBean(McpChildren.class)
				.doesNotHaveBean(McpChildEvents.class)
				.doesNotHaveBean("tetherMcpChildSpecCustomizer"));
	}

	@Test
	void theStarterAloneIgnoresTheMcpSettingsOfAChild() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.state,
					"supervisor.installation-id=" + TestRun.installationId("spring-ai-absent"),
					"supervisor.children.server.command=true", "supervisor.children.server.mcp.transport=stdio",
					"supervisor.defaults.mcp.path=/mcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(Supervisor.class).snapshot("server")).isPresent();
			});
	}

	@Test
	void aTransportWithoutAChildFailsStartupNamingTheProperty() {
		runner().withPropertyValues("supervisor.children.ghost.mcp.transport=stdio").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(SpringAiStdioTests.messages(context.getStartupFailure())).contains("supervisor.children.ghost");
		});
	}

	@Test
	void anHttpTransportWithoutAPortFailsStartupNamingThePort() {
		runner().withPropertyValues("supervisor.children.plain.mcp.transport=streamable-http").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(SpringAiStdioTests.messages(context.getStartupFailure()))
				.contains("supervisor.children.plain.port must be set");
		});
	}

	@Test
	void misspelledMcpSettingsFailStartupNamingEachAndTheSettingMeant() {
		runner().withPropertyValues("supervisor.children.plain.mcp.transprot=stdio", "supervisor.defaults.mcp.paht=/x")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(SpringAiStdioTests.messages(context.getStartupFailure()))
					.contains("supervisor.children.plain.mcp.transprot is not a setting of Tether; "
							+ "did you mean supervisor.children.plain.mcp.transport?")
					.contains("supervisor.defaults.mcp.paht is not a setting of Tether; "
							+ "did you mean supervisor.defaults.mcp.path?");
			});
	}

	@Test
	void mcpSettingsAreKnownWithoutSpringAisMcpClient() {
		runner().withClassLoader(new FilteredClassLoader(NamedClientMcpTransport.class))
			.withPropertyValues("supervisor.children.plain.mcp.transport=stdio")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aChildsMcpSettingsAreItsOwnOverTheDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.mcp.transport=sse", "supervisor.children.plain.port=7070",
					"supervisor.children.other.command=true", "supervisor.children.other.port=7071")
			.run((context) -> {
				ConfiguredChildren configured = context.getBean(ConfiguredChildren.class);
				McpProperties plain = configured.get("plain").orElseThrow().settings(McpProperties.class);
				McpProperties other = configured.get("other").orElseThrow().settings(McpProperties.class);
				assertThat(plain.getTransport()).isEqualTo(McpTransportType.SSE);
				assertThat(plain.getPath()).isEqualTo("/elsewhere");
				assertThat(other.getTransport()).isEqualTo(McpTransportType.SSE);
				assertThat(other.getPath()).isNull();
			});
	}

	@Test
	void theModuleUsesTheApiOnly() {
		JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.tether.supervisor.springai");
		noClasses().that()
			.resideInAPackage("dev.tether.supervisor.springai..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.tether.supervisor.internal..")
			.because("internals may change in any release; docs/architecture.md lists the API")
			.check(classes);
	}

}
