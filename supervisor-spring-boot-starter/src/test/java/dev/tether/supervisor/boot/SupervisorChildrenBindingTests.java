package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each child bound from its own keys: across sources, in their order, with the
 * environment's own spellings, for the properties bean and the supervisor alike, in one
 * pass.
 */
class SupervisorChildrenBindingTests {

	@TempDir
	Path temp;

	// Why in place of the process environment: the source's name is what makes Boot read
	// its keys as environment variables.
	@Test
	void childSetInTwoSourcesBindsEachKeyFromTheFirstThatSetsIt() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("SUPERVISOR_CHILDREN_GREETER_STOPTIMEOUT", "9s",
										"SUPERVISOR_CHILDREN_GREETER_AUTOSTART", "false",
										"SUPERVISOR_CHILDREN_OTHER_COMMAND", "true"))))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + TestRun.installationId("binding"),
					"supervisor.children.greeter.command=true", "supervisor.children.greeter.stop-timeout=3s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, ChildProperties> children = context.getBean(SupervisorProperties.class).getChildren();
				assertThat(children).containsOnlyKeys("greeter", "other");
				assertThat(children.get("greeter").getStopTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(children.get("greeter").getAutostart()).isFalse();
				ChildSpec greeter = context.getBean(Supervisor.class).spec("greeter").orElseThrow();
				assertThat(greeter.stopTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(greeter.autostart()).isFalse();
				assertThat(context.getBean(Supervisor.class).spec("other")).isPresent();
			});
	}

	@Test
	void propertiesBeanAndSupervisorShareOnePassOverTheChildren() {
		runner().withPropertyValues("supervisor.children.greeter.command=true").run((context) -> {
			assertThat(context).hasNotFailed();
			ChildProperties ofTheBean = context.getBean(SupervisorProperties.class).getChildren().get("greeter");
			ChildProperties ofTheSupervisor = context.getBean(ConfiguredChildren.class)
				.properties()
				.getChildren()
				.get("greeter");
			assertThat(ofTheBean).isNotNull().isSameAs(ofTheSupervisor);
		});
	}

	@Test
	void childValueThatDoesNotConvertFailsBootsBindingNamingTheProperty() {
		runner()
			.withPropertyValues("supervisor.children.greeter.command=true",
					"supervisor.children.greeter.stop-timeout=soon")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(causes(context.getStartupFailure())).filteredOn(BindException.class::isInstance)
					.map((bind) -> ((BindException) bind).getName().toString())
					.contains("supervisor.children.greeter.stop-timeout");
			});
	}

	@Test
	void absolutePathIsTakenAsWrittenNotLookedUpOnTheClassPath() {
		String onTheClassPath = "/" + SupervisorChildrenBindingTests.class.getName().replace('.', '/') + ".class";
		// Why this name: Spring's PathEditor would take it for that class file.
		assertThat(SupervisorChildrenBindingTests.class.getResource(onTheClassPath)).isNotNull();
		MockEnvironment environment = new MockEnvironment()
			.withProperty("supervisor.children.greeter.working-directory", onTheClassPath)
			.withProperty("supervisor.children.other.working-directory", "/srv/../srv/app")
			.withProperty("supervisor.children.other.log.file", "relative/other.log");
		Map<String, ChildProperties> children = SupervisorPropertiesBinder.bindChildren(environment);
		assertThat(children.get("greeter").getWorkingDirectory()).isEqualTo(Path.of(onTheClassPath));
		assertThat(children.get("other").getWorkingDirectory()).isEqualTo(Path.of("/srv/app"));
		assertThat(children.get("other").getLog().getFile()).isEqualTo(Path.of("relative/other.log"));
	}

	@Test
	void childBoundByTheSettingsItNamesEqualsBootsBindingOfTheWholeBean() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("supervisor.children.api.command[0]", "/bin/sleep")
			.withProperty("supervisor.children.api.command[1]", "600")
			.withProperty("supervisor.children.api.environment.GREETING", "hello")
			.withProperty("supervisor.children.api.working-directory", "/srv/api")
			.withProperty("supervisor.children.api.kind", "mcp")
			.withProperty("supervisor.children.api.port", "8081")
			.withProperty("supervisor.children.api.startupTimeout", "45s")
			.withProperty("supervisor.children.api.restart-mode", "rolling")
			.withProperty("supervisor.children.api.success-exit-codes", "3,SIGUSR1")
			.withProperty("supervisor.children.api.max-memory", "512MB")
			.withProperty("supervisor.children.api.log.max-size", "10MB")
			.withProperty("supervisor.children.api.readiness.notify", "true")
			.withProperty("supervisor.children.api.limits.open-files", "4096")
			.withProperty("supervisor.children.api.backoff.initial", "2s")
			.withProperty("supervisor.children.api.socket-activation.enabled", "true");
		ChildProperties bound = new SupervisorPropertiesBinder(getClass().getClassLoader()).bind(environment)
			.properties()
			.getChildren()
			.get("api");
		ChildProperties whole = Binder.get(environment).bind("supervisor.children.api", ChildProperties.class).get();
		assertThat(bound).usingRecursiveComparison().isEqualTo(whole);
		assertThat(bound.getRestartMode()).isEqualTo(RestartMode.ROLLING);
		assertThat(bound.getEnvironment()).containsEntry("GREETING", "hello");
	}

	// Why: a refresh rebinds every child by the settings it names, with no check of
	// unknown keys; a module's group and a misspelled key must bind to nothing there, as
	// in Boot's binding of the whole bean.
	@Test
	void childReboundOnARefreshEqualsBootsBindingOfTheWholeBean() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("supervisor.children.api.command[0]", "/bin/sleep")
			.withProperty("supervisor.children.api.command[1]", "600")
			.withProperty("supervisor.children.api.startup-timeout", "45s")
			.withProperty("supervisor.children.api.limits.open-files", "4096")
			.withProperty("supervisor.children.api.mcp.required", "true")
			.withProperty("supervisor.children.api.comand", "/bin/true")
			.withProperty("supervisor.children.idle.mcp.required", "true");
		Map<String, ChildProperties> rebound = SupervisorPropertiesBinder.bindChildren(environment);
		ChildProperties whole = Binder.get(environment).bind("supervisor.children.api", ChildProperties.class).get();
		assertThat(rebound.get("api")).usingRecursiveComparison().isEqualTo(whole);
		assertThat(rebound.get("api").getStartupTimeout()).isEqualTo(Duration.ofSeconds(45));
		assertThat(rebound).containsOnlyKeys("api");
	}

	// Why: the process environment lists RESTART_MODE as 'restart.mode', a name whose
	// first part is a setting of its own ('restart'); it must still bind as restart-mode.
	@Test
	void environmentVariableWhoseFirstWordIsAnotherSettingBindsToTheSettingItSpells() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("SUPERVISOR_CHILDREN_GREETER_COMMAND", "true",
									"SUPERVISOR_CHILDREN_GREETER_RESTART_MODE", "rolling")));
		ChildProperties greeter = new SupervisorPropertiesBinder(getClass().getClassLoader()).bind(environment)
			.properties()
			.getChildren()
			.get("greeter");
		assertThat(greeter.getRestartMode()).isEqualTo(RestartMode.ROLLING);
		assertThat(greeter.getRestart()).isNull();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + TestRun.installationId("binding"));
	}

	private static List<Throwable> causes(Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

}
