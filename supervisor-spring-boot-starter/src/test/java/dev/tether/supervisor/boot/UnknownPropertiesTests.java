package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration.SupervisorSettings;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key under {@code supervisor} that binds to nothing fails startup, naming it, where it
 * was set and the setting it most likely meant; what Boot's relaxed binding accepts, the
 * free-form settings and a renamed setting's former name do not. No child is started
 * here: none is autostarted before the application is ready.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesTests {

	@TempDir
	Path temp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + TestRun.installationId("unknown-keys"),
					"supervisor.children.api.command=sleep,600");
	}

	@ParameterizedTest
	@CsvSource({ "supervisor.children.api.max-restart, supervisor.children.api.max-restarts",
			"supervisor.children.api.restat, supervisor.children.api.restart",
			"supervisor.defaults.stop-timout, supervisor.defaults.stop-timeout",
			"supervisor.children.api.readiness.http-gett, supervisor.children.api.readiness.http-get",
			"supervisor.defaults.liveness.failure-treshold, supervisor.defaults.liveness.failure-threshold",
			"supervisor.children.api.limits.open-file, supervisor.children.api.limits.open-files",
			"supervisor.defaults.limits.cpu-tme, supervisor.defaults.limits.cpu-time",
			"supervisor.children.api.log.max-sise, supervisor.children.api.log.max-size",
			"supervisor.children.api.backoff.inital, supervisor.children.api.backoff.initial",
			"supervisor.children.api.readiness.notfy, supervisor.children.api.readiness.notify",
			"supervisor.defaults.liveness.watchdgo, supervisor.defaults.liveness.watchdog",
			"supervisor.children.api.socket-activation.adress, supervisor.children.api.socket-activation.address",
			"supervisor.defaults.socket-activation.backlg, supervisor.defaults.socket-activation.backlog",
			"supervisor.tick-intervall, supervisor.tick-interval",
			"supervisor.reconcile.orphan, supervisor.reconcile.orphans" })
	void aMisspelledSettingFailsStartupNamingItAndTheSettingMeant(String written, String meant) {
		runner().withPropertyValues(written + "=1").run((context) -> {
			String description = failure(context).getDescription();
			assertThat(description).contains("Property: " + written + "\n")
				.contains("Problem: is not a setting of Tether; did you mean " + meant + "?\n");
		});
	}

	@Test
	void aKeyCloseToNoSettingIsReportedWithoutASuggestion() {
		runner().withPropertyValues("supervisor.children.api.colour=blue").run((context) -> {
			FailureAnalysis analysis = failure(context);
			assertThat(analysis.getDescription()).contains("Property: supervisor.children.api.colour\n")
				.contains("Problem: is not a setting of Tether\n");
			assertThat(analysis.getAction()).contains("'supervisor.children.api.colour'");
		});
	}

	@Test
	void everyUnknownKeyIsReportedAtOnceWithTheFileAndLineThatSetIt() throws Exception {
		Path yaml = Files.writeString(this.temp.resolve("typos.yml"), """
				supervisor:
				  defaults:
				    stop-timout: 3s
				  children:
				    api:
				      max-restart: 3
				      restat: never
				""");
		runner().withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(yamlSource(yaml)))
			.run((context) -> {
				String description = failure(context).getDescription();
				assertThat(description).contains("Property: supervisor.defaults.stop-timout\n")
					.contains("Property: supervisor.children.api.max-restart\n")
					.contains("Property: supervisor.children.api.restat\n")
					.contains("typos.yml] - 3:")
					.contains("typos.yml] - 6:")
					.contains("typos.yml] - 7:");
			});
	}

	@Test
	void relaxedSpellingsAndFreeFormSettingsBind() {
		runner()
			.withPropertyValues("supervisor.children.api.maxRestarts=3", "supervisor.children.api.RESTART=never",
					"supervisor.children.api.environment.ANY_NAME.WITH.DOTS=1",
					"supervisor.children.api.environment[lower-case]=2", "supervisor.defaults.environment.SHARED=3",
					"supervisor.children.worker.command[0]=sleep", "supervisor.children.worker.command[1]=600")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				assertThat(specs.get(0).maxRestarts()).isEqualTo(3);
				assertThat(specs.get(0).restart()).isEqualTo(RestartPolicy.NEVER);
				assertThat(specs.get(0).environment()).containsEntry("ANY_NAME.WITH.DOTS", "1")
					.containsEntry("lower-case", "2")
					.containsEntry("SHARED", "3");
				assertThat(specs.get(1).command()).containsExactly("sleep", "600");
			});
	}

	@Test
	void theProcessEnvironmentBindsButIsNotCheckedForUnknownKeys() {
		// Why not checked: supervisord, for one, sets SUPERVISOR_PROCESS_NAME and others
		// in the environment of every program it runs.
		Map<String, Object> environment = Map.of("SUPERVISOR_CHILDREN_API_MAXRESTARTS", "3", "SUPERVISOR_PROCESS_NAME",
				"web", "SUPERVISOR_SERVER_URL", "unix:///tmp/supervisor.sock");
		runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								environment)))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				assertThat(specs.get(0).maxRestarts()).isEqualTo(3);
			});
	}

	@Test
	void theFormerNameOfTheTickIntervalWorksWithAWarningNamingTheNewOne(CapturedOutput output) {
		runner().withPropertyValues("supervisor.reap-interval=50ms").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(SupervisorSettings.class).tickInterval()).isEqualTo(Duration.ofMillis(50));
			assertThat(output).contains("supervisor.reap-interval is deprecated")
				.contains("set supervisor.tick-interval instead");
		});
	}

	@Test
	void theTickIntervalUnderBothNamesFailsNamingBoth() {
		runner().withPropertyValues("supervisor.reap-interval=50ms", "supervisor.tick-interval=100ms")
			.run((context) -> assertThat(failure(context).getDescription())
				.contains("Property: supervisor.reap-interval\n")
				.contains("supervisor.tick-interval are both set"));
	}

	@Test
	void theTickIntervalDefaultsTo200Milliseconds() {
		runner().run((context) -> assertThat(context.getBean(SupervisorSettings.class).tickInterval())
			.isEqualTo(Duration.ofMillis(200)));
	}

	private static FailureAnalysis failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
			.analyze(context.getStartupFailure());
		assertThat(analysis).as(() -> String.valueOf(context.getStartupFailure())).isNotNull();
		return analysis;
	}

	private static PropertySource<?> yamlSource(Path yaml) {
		try {
			return new YamlPropertySourceLoader().load("typos", new FileSystemResource(yaml)).get(0);
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
