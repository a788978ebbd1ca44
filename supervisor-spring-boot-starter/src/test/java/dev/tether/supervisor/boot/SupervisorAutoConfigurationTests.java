package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

import dev.tether.supervisor.Backoff;
import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ResourceLimit;
import dev.tether.supervisor.ResourceLimits;
import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.SelfReport;
import dev.tether.supervisor.Signals;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.actuate.ChildLogEndpoint;
import dev.tether.supervisor.boot.actuate.ChildrenEndpoint;
import dev.tether.supervisor.boot.actuate.SupervisorEndpointAutoConfiguration;
import dev.tether.supervisor.boot.actuate.SupervisorHealthAutoConfiguration;
import dev.tether.supervisor.boot.actuate.SupervisorHealthContributor;
import dev.tether.supervisor.boot.metrics.SupervisorMetrics;
import dev.tether.supervisor.boot.metrics.SupervisorMetricsAutoConfiguration;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.LogSettings;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.Privileges;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

class SupervisorAutoConfigurationTests {

	@TempDir
	Path temp;

	@TempDir
	static Path userBeansTemp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, SupervisorEndpointAutoConfiguration.class,
							SupervisorHealthAutoConfiguration.class, SupervisorMetricsAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"management.endpoints.web.exposure.include=children",
					"supervisor.installation-id=" + TestRun.installationId("starter"));
	}

	@Test
	void suppliesEveryBeanWhenEnabled() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(Supervisor.class)
				.hasSingleBean(ChildRegistry.class)
				.hasSingleBean(SupervisorLifecycle.class)
				.doesNotHaveBean(Spawner.class)
				.doesNotHaveBean(IdentityProbe.class)
				.doesNotHaveBean(Reaper.class)
				.doesNotHaveBean(Reconciler.class)
				.hasSingleBean(ChildrenEndpoint.class)
				.hasSingleBean(SupervisorHealthContributor.class)
				.doesNotHaveBean(SupervisorMetrics.class);
			assertThat(context.getBean(Supervisor.class).installationId()).startsWith("test-");
		});
	}

	@Test
	void backsOffWhenDisabled() {
		runner().withPropertyValues("supervisor.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Supervisor.class)
				.doesNotHaveBean(SupervisorLifecycle.class)
				.doesNotHaveBean(ChildrenEndpoint.class)
				.doesNotHaveBean(SupervisorHealthContributor.class));
	}

	@Test
	void registersNoMetersWhenDisabled() {
		runner().withPropertyValues("supervisor.enabled=false")
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(SupervisorMetrics.class);
				assertThat(context.getBean(MeterRegistry.class).find("supervisor.children").gauges()).isEmpty();
			});
	}

	@Test
	void startsWithoutActuatorOnTheClassPath() {
		runner()
			.withClassLoader(
					new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Supervisor.class)
				.doesNotHaveBean(ChildrenEndpoint.class)
				.doesNotHaveBean(SupervisorHealthContributor.class));
	}

	@Test
	void startsWithoutMicrometerOnTheClassPath() {
		runner().withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Supervisor.class)
				.doesNotHaveBean(SupervisorMetrics.class));
	}

	@Test
	void suppliesMetricsWhenAMeterRegistryExists() {
		runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(SupervisorMetrics.class));
	}

	@Test
	void userBeansReplaceTheRegistryAndTheSupervisor() {
		runner().withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(ChildRegistry.class).hasSingleBean(Supervisor.class);
			assertThat(context.getBean(ChildRegistry.class)).isSameAs(context.getBean("userRegistry"));
			assertThat(context.getBean(Supervisor.class)).isSameAs(context.getBean("userSupervisor"));
			assertThat(context.getBean(Supervisor.class).installationId()).isEqualTo("test-user");
		});
	}

	@Test
	void childSettingsInheritDefaultsThenTheContractsDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.stop-timeout=3s", "supervisor.defaults.restart=always",
					"supervisor.defaults.environment.SHARED=1", "supervisor.children.greeter.command[0]=sleep",
					"supervisor.children.greeter.command[1]=600", "supervisor.children.greeter.environment.OWN=2",
					"supervisor.children.files.command=sleep,600", "supervisor.children.files.kind=mcp",
					"supervisor.children.files.restart=never", "supervisor.children.files.backoff.initial=1s",
					"supervisor.children.files.port=7070")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				ChildSpec greeter = specs.get(0);
				assertThat(greeter.name()).isEqualTo("greeter");
				assertThat(greeter.command()).containsExactly("sleep", "600");
				assertThat(greeter.kind()).isEqualTo(ChildKind.AGENT);
				assertThat(greeter.stopTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(greeter.restart()).isEqualTo(RestartPolicy.ALWAYS);
				assertThat(greeter.environment()).containsEntry("SHARED", "1").containsEntry("OWN", "2");
				assertThat(greeter.maxRestarts()).isEqualTo(5);
				assertThat(greeter.stableAfter()).isEqualTo(Duration.ofSeconds(10));
				assertThat(greeter.backoff()).isEqualTo(Backoff.DEFAULT);
				assertThat(greeter.autostart()).isTrue();
				assertThat(greeter.stopSignal()).isEqualTo(15);
				ChildSpec files = specs.get(1);
				assertThat(files.kind()).isEqualTo(ChildKind.MCP);
				assertThat(files.restart()).isEqualTo(RestartPolicy.NEVER);
				assertThat(files.backoff().initial()).isEqualTo(Duration.ofSeconds(1));
				assertThat(files.backoff().max()).isEqualTo(Duration.ofSeconds(30));
				assertThat(files.port()).isEqualTo(7070);
				assertThat(files.stopTimeout()).isEqualTo(Duration.ofSeconds(3));
			});
	}

	@Test
	void logSettingsInheritDefaultsThenTheContractsDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.log.logger=true", "supervisor.defaults.log.max-size=1MB",
					"supervisor.children.greeter.command=true", "supervisor.children.greeter.log.stderr-level=info",
					"supervisor.children.greeter.log.max-history=2", "supervisor.children.quiet.command=true",
					"supervisor.children.quiet.log.logger=false", "supervisor.children.quiet.log.file-enabled=false",
					"supervisor.children.quiet.log.max-line-length=1KB")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				LogSettings greeter = specs.get(0).log();
				assertThat(greeter.logger()).isTrue();
				assertThat(greeter.maxSize()).isEqualTo(1024 * 1024);
				assertThat(greeter.maxHistory()).isEqualTo(2);
				assertThat(greeter.stderrLevel()).isEqualTo(org.slf4j.event.Level.INFO);
				assertThat(greeter.fileEnabled()).isTrue();
				assertThat(greeter.maxLineLength()).isEqualTo(16 * 1024);
				LogSettings quiet = specs.get(1).log();
				assertThat(quiet.logger()).isFalse();
				assertThat(quiet.fileEnabled()).isFalse();
				assertThat(quiet.maxLineLength()).isEqualTo(1024);
				assertThat(quiet.maxHistory()).isEqualTo(7);
			});
	}

	@Test
	void badLogSettingsFailNamingTheProperty() {
		assertFailure("supervisor.children.greeter.log.max-line-length", containing("must be between 80 bytes"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter.log.max-line-length",
						"2MB"));
		assertFailure("supervisor.defaults.log.max-size", containing("must not be smaller than log.max-line-length"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.defaults.log.max-size", "1KB"));
		assertFailure("supervisor.children.greeter.log.max-history", containing("between 0 and 1000"), Map
			.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter.log.max-history", "-1"));
	}

	@Test
	void childLogEndpointExistsOnlyWhenExposed() {
		runner().run((context) -> assertThat(context).doesNotHaveBean(ChildLogEndpoint.class));
		runner().withPropertyValues("management.endpoints.web.exposure.include=childlog")
			.run((context) -> assertThat(context).hasSingleBean(ChildLogEndpoint.class));
	}

	@Test
	void installationIdDefaultsToTheApplicationName() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"management.endpoints.web.exposure.include=children", "spring.application.name=test-billing")
			.run((context) -> assertThat(context.getBean(Supervisor.class).installationId()).isEqualTo("test-billing"));
	}

	@Test
	void emptyCommandFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.command", "supervisor.children.greeter.kind=agent");
	}

	@Test
	void missingExecutableFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.command",
				"supervisor.children.greeter.command=no-such-tool-xyz");
	}

	@Test
	void nonExecutableFileFailsNamingTheProperty() throws Exception {
		Path script = java.nio.file.Files.writeString(this.temp.resolve("plain.sh"), "#!/bin/sh\n");
		assertFailureNames("supervisor.children.greeter.command", "supervisor.children.greeter.command=" + script);
	}

	@Test
	void missingWorkingDirectoryFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.working-directory", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.working-directory=" + this.temp.resolve("nowhere"));
	}

	@Test
	void badNameFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.bad/name", "supervisor.children[bad/name].command=true");
	}

	@Test
	void nonPositiveDurationsFailNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.stop-timeout", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.stop-timeout=-1s");
		assertFailureNames("supervisor.children.greeter.backoff.initial", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.backoff.initial=0s");
		assertFailureNames("supervisor.tick-interval", "supervisor.tick-interval=0ms");
	}

	@Test
	void restartWindowTooShortForMaxRestartsFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.restart-window", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.max-restarts=10", "supervisor.children.greeter.restart-window=5s");
	}

	@Test
	void badSignalFailsNamingTheProperty() {
		assertFailureNames("supervisor.children.greeter.stop-signal", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.stop-signal=POLITELY");
		assertFailureNames("supervisor.parent-death-signal", "supervisor.parent-death-signal=SOMETIMES");
	}

	@Test
	void reasonIsReportedWholeWhenTheChildsNameContainsTheSetting() {
		assertFailure("supervisor.children.port-api.port", Pattern.quote("must be between 1 and 65535 (was 70000)"),
				Map.of("supervisor.children.port-api.command", "true", "supervisor.children.port-api.port", "70000"));
	}

	@Test
	void durationsBeyondTheirBoundFailNamingTheProperty() {
		for (String setting : List.of("stable-after", "startup-timeout", "stop-timeout", "restart-window",
				"backoff.initial", "backoff.max")) {
			assertFailure("supervisor.children.greeter." + setting, containing("at most 365 days"),
					Map.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter." + setting,
							"200000d"));
		}
	}

	@Test
	void inheritedValuesFailNamingTheDefaultsProperty() {
		assertFailure("supervisor.defaults.stop-timeout", containing("at most 365 days"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.defaults.stop-timeout", "400d"));
		assertFailure("supervisor.defaults.stop-signal", containing("is not a signal"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.defaults.stop-signal", "POLITELY"));
	}

	@Test
	void tickIntervalOutsideItsBoundsFailsNamingTheProperty() {
		for (String interval : List.of("500us", "9ms", "2h")) {
			assertFailure("supervisor.tick-interval", containing("must be between 10ms and 1h"),
					Map.of("supervisor.tick-interval", interval));
		}
	}

	@Test
	void unusableEnvironmentFailsNamingTheProperty() {
		assertFailure("supervisor.children.greeter.environment.FOO=BAR", containing("contains '='"),
				Map.of("supervisor.children.greeter.command", "true",
						"supervisor.children.greeter.environment[FOO=BAR]", "v"));
		assertFailure("supervisor.children.greeter.environment.NUL\\0KEY", containing("contains NUL"),
				Map.of("supervisor.children.greeter.command", "true",
						"supervisor.children.greeter.environment[NUL\0KEY]", "v"));
		assertFailure("supervisor.children.greeter.environment.TOKEN", containing("containing NUL"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter.environment.TOKEN",
						"abc\0def"));
		assertFailure("supervisor.children.greeter.environment.TETHER_INSTALLATION", containing("identity markers"),
				Map.of("supervisor.children.greeter.command", "true",
						"supervisor.children.greeter.environment.TETHER_INSTALLATION", "other"));
		assertFailure("supervisor.defaults.environment.TETHER_SUBPROCESS", containing("identity markers"),
				Map.of("supervisor.children.greeter.command", "true",
						"supervisor.defaults.environment.TETHER_SUBPROCESS", "0"));
	}

	@Test
	void aRefreshedConfigurationIsAppliedWhereSpringCloudContextIsPresentAndAnUnusableOneChangesNothing() {
		runner()
			.withPropertyValues("supervisor.children.kept.command=sleep,600",
					"supervisor.children.kept.autostart=false", "supervisor.children.other.command=sleep,600",
					"supervisor.children.other.autostart=false")
			.run((context) -> {
				Supervisor supervisor = context.getBean(Supervisor.class);
				MutablePropertySources sources = context.getEnvironment().getPropertySources();
				sources.addFirst(new MapPropertySource("refreshed",
						Map.of("supervisor.children.other.command", "", "supervisor.children.added.command",
								"sleep,600", "supervisor.children.added.autostart", "false")));
				// An empty command is unusable: the refresh is refused whole.
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("supervisor.children.added.command")));
				assertThat(supervisor.snapshots()).extracting(ChildSnapshot::name).containsExactly("kept", "other");
				sources.remove("refreshed");
				sources.addFirst(new MapPropertySource("refreshed", Map.of("supervisor.children.added.command",
						"sleep,600", "supervisor.children.added.autostart", "false")));
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("unrelated.key")));
				assertThat(supervisor.snapshots()).extracting(ChildSnapshot::name).containsExactly("kept", "other");
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("SUPERVISOR_CHILDREN_ADDED_COMMAND")));
				assertThat(supervisor.snapshots()).extracting(ChildSnapshot::name)
					.containsExactly("kept", "other", "added");
			});
	}

	@Test
	void noRefresherWithoutSpringCloudContext() {
		runner().withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class))
			.run((context) -> assertThat(context).hasSingleBean(Supervisor.class)
				.doesNotHaveBean(ConfigurationRefresher.class));
	}

	@Test
	void unknownDependenciesAndCyclesFailNamingTheProperty() {
		assertFailure("supervisor.children.app.depends-on", containing("names 'db', which is not a child"),
				Map.of("supervisor.children.app.command", "true", "supervisor.children.app.depends-on", "db"));
		assertFailure("supervisor.children.a.depends-on", containing("forms a cycle: a -> b -> a"),
				Map.of("supervisor.children.a.command", "true", "supervisor.children.a.depends-on", "b",
						"supervisor.children.b.command", "true", "supervisor.children.b.depends-on", "a"));
		assertFailure("supervisor.children.self.depends-on", containing("names the child itself"),
				Map.of("supervisor.children.self.command", "true", "supervisor.children.self.depends-on", "self"));
		assertFailure("supervisor.defaults.depends-on", containing("every child names what it depends on"),
				Map.of("supervisor.children.app.command", "true", "supervisor.defaults.depends-on", "db"));
	}

	@Test
	void unusableProbesFailNamingTheProperty() {
		assertFailure("supervisor.children.api.liveness.http-get", containing("must be a path starting with '/'"),
				Map.of("supervisor.children.api.command", "true", "supervisor.children.api.port", "8080",
						"supervisor.children.api.liveness.http-get", "health"));
		assertFailure("supervisor.children.api.readiness.http-get", containing("needs the child's port to be set"), Map
			.of("supervisor.children.api.command", "true", "supervisor.children.api.readiness.http-get", "/ready"));
		assertFailure("supervisor.children.api.liveness.tcp", containing("cannot be set with liveness.http-get"),
				Map.of("supervisor.children.api.command", "true", "supervisor.children.api.port", "8080",
						"supervisor.children.api.liveness.http-get", "/health", "supervisor.children.api.liveness.tcp",
						"true"));
		assertFailure("supervisor.defaults.liveness.failure-threshold",
				containing("must be between 1 and 1000 (was 0)"), Map.of("supervisor.children.api.command", "true",
						"supervisor.defaults.liveness.failure-threshold", "0"));
		assertFailure("supervisor.children.api.liveness.period", containing("must be a positive duration"),
				Map.of("supervisor.children.api.command", "true", "supervisor.children.api.liveness.period", "0s"));
	}

	@Test
	void probesAndCriticalAreBoundAndInheritedFromTheDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.liveness.period=3s", "supervisor.defaults.critical=false",
					"supervisor.children.api.command=true", "supervisor.children.api.autostart=false",
					"supervisor.children.api.port=8080", "supervisor.children.api.liveness.http-get=/health",
					"supervisor.children.api.readiness.http-get=/ready")
			.run((context) -> {
				ChildSpec spec = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of()).get(0);
				assertThat(spec.liveness().httpGet()).isEqualTo("/health");
				assertThat(spec.liveness().period()).isEqualTo(Duration.ofSeconds(3));
				assertThat(spec.liveness().failureThreshold()).isEqualTo(3);
				assertThat(spec.readiness().httpGet()).isEqualTo("/ready");
				assertThat(spec.critical()).isFalse();
			});
	}

	@Test
	void exitCodeRulesAreBoundAsCodesAndSignalNamesAndInheritedFromTheDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.restart-prevent-exit-codes=78",
					"supervisor.children.api.command=true", "supervisor.children.api.autostart=false",
					"supervisor.children.api.success-exit-codes=3,SIGTERM,HUP")
			.run((context) -> {
				ChildSpec spec = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of()).get(0);
				assertThat(spec.successExitCodes().codes()).containsExactly(3);
				assertThat(spec.successExitCodes().signals()).containsExactlyInAnyOrder(Signals.number("TERM"),
						Signals.number("HUP"));
				assertThat(spec.restartPreventExitCodes().codes()).containsExactly(78);
				assertThat(spec.restartPreventExitCodes().signals()).isEmpty();
				assertThat(context.getBean(ChildrenEndpoint.class).child("api").details().get("exitCodes")).isEqualTo(
						new ChildrenEndpoint.ExitCodesDescriptor(List.of("3", "SIGHUP", "SIGTERM"), List.of("78")));
			});
	}

	@Test
	void notifyWatchdogAndLogLineAreBoundAndInheritedFromTheDefaults() {
		runner()
			.withPropertyValues("supervisor.defaults.readiness.notify=true", "supervisor.defaults.liveness.watchdog=2s",
					"supervisor.children.api.command=true", "supervisor.children.api.autostart=false",
					"supervisor.children.web.command=true", "supervisor.children.web.autostart=false",
					"supervisor.children.web.readiness.notify=false",
					"supervisor.children.web.readiness.log-line=listening on \\d+")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				ChildSpec api = specs.stream().filter((spec) -> spec.name().equals("api")).findFirst().orElseThrow();
				ChildSpec web = specs.stream().filter((spec) -> spec.name().equals("web")).findFirst().orElseThrow();
				assertThat(api.selfReport()).isEqualTo(new SelfReport(true, Duration.ofSeconds(2), null));
				assertThat(web.selfReport())
					.isEqualTo(new SelfReport(false, Duration.ofSeconds(2), "listening on \\d+"));
			});
		assertFailureNames("supervisor.children.greeter.liveness.watchdog", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.liveness.watchdog=1ms");
	}

	@Test
	void theReloadSignalIsBoundAndTheEndpointRefusesToReloadAChildThatIsNotRunning() {
		runner()
			.withPropertyValues("supervisor.children.api.command=true", "supervisor.children.api.autostart=false",
					"supervisor.children.api.reload-signal=USR2")
			.run((context) -> {
				ChildSpec spec = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of()).get(0);
				assertThat(spec.reloadSignal()).isEqualTo(Signals.number("USR2"));
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> context.getBean(ChildrenEndpoint.class).control("api", "reload"))
					.withMessageContaining("child 'api' is STOPPED: only a RUNNING child is reloaded");
			});
		assertFailureNames("supervisor.children.greeter.reload-signal", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.reload-signal=GENTLY");
	}

	@Test
	void theProbeAddressIsBoundFromTheChildOrTheDefaultsAndOnlyALoopbackAddressIsAccepted() {
		runner()
			.withPropertyValues("supervisor.defaults.probe-address=::1", "supervisor.children.v6.command=true",
					"supervisor.children.v4.command=true", "supervisor.children.v4.probe-address=127.0.0.1")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				assertThat(specs).extracting(ChildSpec::name, ChildSpec::probeAddress)
					.containsExactlyInAnyOrder(tuple("v6", "::1"), tuple("v4", "127.0.0.1"));
			});
		assertFailure("supervisor.children.greeter.probe-address",
				containing("must be a loopback IP address such as 127.0.0.1 (the default) or ::1 (was '192.168.1.2')"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter.probe-address",
						"192.168.1.2"));
	}

	@Test
	void socketActivationIsBoundFromTheChildOverTheDefaultsAndABadValueFailsNamingTheProperty() {
		String web = "supervisor.children.web.";
		runner()
			.withPropertyValues("supervisor.defaults.socket-activation.address=0.0.0.0",
					"supervisor.defaults.socket-activation.backlog=64", web + "command=true", web + "port=7070",
					web + "socket-activation.enabled=true", web + "socket-activation.fd=0",
					"supervisor.children.v6.command=true", "supervisor.children.v6.port=7071",
					"supervisor.children.v6.socket-activation.enabled=true",
					"supervisor.children.v6.socket-activation.address=::", "supervisor.children.plain.command=true")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				assertThat(specs).extracting(ChildSpec::name, ChildSpec::socketActivation)
					.containsExactly(tuple("web", new SocketActivation(true, "0.0.0.0", 64, 0)),
							tuple("v6", new SocketActivation(true, "::", 64, 3)),
							tuple("plain", new SocketActivation(false, "0.0.0.0", 64, 3)));
			});
		runner().withPropertyValues(web + "command=true")
			.run((context) -> assertThat(ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of())
				.get(0)
				.socketActivation()).isEqualTo(SocketActivation.DISABLED));
		assertFailure(web + "socket-activation.fd",
				containing("must be 3 (systemd's LISTEN_FDS convention) or 0 (standard input) (was 5)"),
				Map.of(web + "command", "true", web + "port", "7070", web + "socket-activation.enabled", "true",
						web + "socket-activation.fd", "5"));
		assertFailure(web + "socket-activation.backlog", containing("must be between 1 and 65535 (was 0)"),
				Map.of(web + "command", "true", web + "port", "7070", web + "socket-activation.enabled", "true",
						web + "socket-activation.backlog", "0"));
		assertFailure("supervisor.defaults.socket-activation.address",
				containing("must be an IP address such as 127.0.0.1 (the default), 0.0.0.0 or :: (was 'localhost')"),
				Map.of(web + "command", "true", web + "port", "7070", web + "socket-activation.enabled", "true",
						"supervisor.defaults.socket-activation.address", "localhost"));
		assertFailure(web + "socket-activation.enabled", containing("needs the child's port"),
				Map.of(web + "command", "true", web + "socket-activation.enabled", "true"));
	}

	@Test
	void startupDelayIsBoundAndOneAsLongAsTheStartupTimeoutFailsNamingIt() {
		String web = "supervisor.children.web.";
		runner()
			.withPropertyValues("supervisor.defaults.startup-delay=2s", web + "command=true", web + "port=7070",
					"supervisor.children.told.command=true", "supervisor.children.told.startup-delay=500ms")
			.run((context) -> assertThat(ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of()))
				.extracting(ChildSpec::name, ChildSpec::startupDelay)
				.containsExactly(tuple("web", Duration.ofSeconds(2)), tuple("told", Duration.ofMillis(500))));
		assertFailure(web + "startup-delay", containing("must be shorter than startup-timeout"),
				Map.of(web + "command", "true", web + "startup-delay", "10s", web + "startup-timeout", "10s"));
	}

	@Test
	void restartModeIsBoundFromTheChildOverTheDefaultsAndRollingWithoutSocketActivationFails() {
		String web = "supervisor.children.web.";
		runner()
			.withPropertyValues("supervisor.defaults.restart-mode=rolling",
					"supervisor.defaults.socket-activation.enabled=true", "supervisor.defaults.readiness.notify=true",
					web + "command=true", web + "port=7070", "supervisor.children.plain.command=true",
					"supervisor.children.plain.port=7071", "supervisor.children.plain.restart-mode=stop-first")
			.run((context) -> assertThat(ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of()))
				.extracting(ChildSpec::name, ChildSpec::restartMode)
				.containsExactly(tuple("web", RestartMode.ROLLING), tuple("plain", RestartMode.STOP_FIRST)));
		assertFailure(web + "restart-mode", containing("rolling needs socket-activation.enabled"),
				Map.of(web + "command", "true", web + "port", "7070", web + "restart-mode", "rolling",
						web + "readiness.notify", "true"));
	}

	@Test
	void badExitCodeRulesFailNamingTheProperty() {
		assertFailure("supervisor.children.greeter.success-exit-codes", containing("'SOMETIMES'"),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.children.greeter.success-exit-codes",
						"0,SOMETIMES"));
		assertFailure("supervisor.children.greeter.restart-prevent-exit-codes", containing("0 to 255"),
				Map.of("supervisor.children.greeter.command", "true",
						"supervisor.children.greeter.restart-prevent-exit-codes", "300"));
	}

	@Test
	void dependenciesAreBoundFromTheChildsOwnList() {
		runner()
			.withPropertyValues("supervisor.children.db.command=true", "supervisor.children.db.autostart=false",
					"supervisor.children.app.command=true", "supervisor.children.app.autostart=false",
					"supervisor.children.app.depends-on=db")
			.run((context) -> assertThat(
					context.getBean(SupervisorProperties.class).getChildren().get("app").getDependsOn())
				.containsExactly("db"));
	}

	@Test
	void resourceSettingsInheritDefaultsAndTakeSoftAndHardLimits() {
		runner().withPropertyValues("supervisor.defaults.limits.open-files=1024",
				"supervisor.defaults.oom-score-adjust=500", "supervisor.children.greeter.command=true",
				"supervisor.children.greeter.autostart=false", "supervisor.children.greeter.limits.open-files=64:128",
				"supervisor.children.greeter.limits.core-size=0",
				"supervisor.children.greeter.limits.file-size=1MB:infinity",
				"supervisor.children.greeter.limits.cpu-time=1h",
				"supervisor.children.greeter.limits.address-space=4GB",
				"supervisor.children.greeter.limits.processes=100", "supervisor.children.greeter.max-memory=256MB",
				"supervisor.children.greeter.max-memory-samples=3", "supervisor.children.quiet.command=true",
				"supervisor.children.quiet.autostart=false")
			.run((context) -> {
				List<ChildSpec> specs = ChildSpecFactory.from(context.getBean(ConfiguredChildren.class), List.of());
				ResourceLimits greeter = specs.get(0).resources();
				assertThat(greeter.openFiles()).isEqualTo(new ResourceLimit(64, 128));
				assertThat(greeter.coreSize()).isEqualTo(ResourceLimit.of(0));
				assertThat(greeter.fileSize()).isEqualTo(new ResourceLimit(1024 * 1024, ResourceLimit.UNLIMITED));
				assertThat(greeter.cpuTime()).isEqualTo(ResourceLimit.of(3600));
				assertThat(greeter.addressSpace()).isEqualTo(ResourceLimit.of(4L * 1024 * 1024 * 1024));
				assertThat(greeter.processes()).isEqualTo(ResourceLimit.of(100));
				assertThat(greeter.maxMemory()).isEqualTo(256L * 1024 * 1024);
				assertThat(greeter.maxMemorySamples()).isEqualTo(3);
				assertThat(greeter.oomScoreAdjust()).isEqualTo(500);
				ResourceLimits quiet = specs.get(1).resources();
				assertThat(quiet.openFiles()).isEqualTo(ResourceLimit.of(1024));
				assertThat(quiet.oomScoreAdjust()).isEqualTo(500);
				assertThat(quiet.maxMemory()).isNull();
				assertThat(quiet.maxMemorySamples()).isEqualTo(2);
			});
	}

	@Test
	void badResourceSettingsFailNamingTheProperty() {
		String child = "supervisor.children.greeter.";
		Map<String, String> bad = Map.of("limits.open-files", "lots", "limits.processes", "1:2:3", "limits.core-size",
				"-1", "limits.file-size", "1XB", "limits.cpu-time", "soon", "limits.address-space", "4GB:");
		bad.forEach((setting, value) -> assertFailure(child + setting, containing("must be "),
				Map.of(child + "command", "true", child + setting, value)));
		assertFailure(child + "limits.address-space",
				containing("has its soft limit (4294967296) above its hard limit (1073741824)"),
				Map.of(child + "command", "true", child + "limits.address-space", "4GB:1GB"));
		assertFailure(child + "oom-score-adjust", containing("must be between -1000 and 1000 (was 1001)"),
				Map.of(child + "command", "true", child + "oom-score-adjust", "1001"));
		assertFailure("supervisor.defaults.oom-score-adjust", containing("must be between -1000 and 1000 (was -1001)"),
				Map.of(child + "command", "true", "supervisor.defaults.oom-score-adjust", "-1001"));
		assertFailure(child + "max-memory", containing("must be a positive size"),
				Map.of(child + "command", "true", child + "max-memory", "0B"));
		assertFailure(child + "max-memory-samples", containing("must be between 1 and 1000 (was 0)"),
				Map.of(child + "command", "true", child + "max-memory-samples", "0"));
	}

	@Test
	void aLimitAboveTheApplicationsOwnFailsNamingThePropertyAndTheAllowedRange() throws Exception {
		Privileges.assumeWithoutSysResource();
		long hard = Long.parseLong(Privileges.hardLimit("Max open files"));
		assertFailure("supervisor.defaults.limits.open-files",
				containing("has a hard limit above this process's (" + hard + "), which it cannot raise without "
						+ "CAP_SYS_RESOURCE: allowed 0 to " + hard),
				Map.of("supervisor.children.greeter.command", "true", "supervisor.defaults.limits.open-files",
						"64:" + (hard + 1)));
	}

	private static String containing(String fragment) {
		return ".*" + Pattern.quote(fragment) + ".*";
	}

	/**
	 * Startup fails naming {@code property}, with a problem line that matches
	 * {@code problem} as a whole.
	 */
	private void assertFailure(String property, String problem, Map<String, Object> properties) {
		// Why a name of its own: the runner's properties (the test's own state directory
		// among them) are a source named "test", which a source of the same name would
		// replace.
		runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("invalid-settings", properties)))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).as(() -> String.valueOf(context.getStartupFailure())).isNotNull();
				assertThat(analysis.getDescription()).as(properties.toString())
					.contains("Property: " + property + "\n")
					.containsPattern("Problem: " + problem + "\n");
			});
	}

	private void assertFailureNames(String property, String... properties) {
		runner().withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis).as(() -> String.valueOf(context.getStartupFailure())).isNotNull();
			assertThat(analysis.getDescription()).contains("Property: " + property + "\n");
			assertThat(analysis.getAction()).contains(property);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		@Bean(destroyMethod = "")
		ChildRegistry userRegistry() {
			return FileChildRegistry.open(userBeansTemp.resolve("registry"));
		}

		@Bean(destroyMethod = "close")
		Supervisor userSupervisor(ChildRegistry registry) {
			return Supervisor.builder()
				.installationId("test-user")
				.launcherDirectory(userBeansTemp.resolve("launcher"))
				.registry(registry)
				.logDirectory(userBeansTemp.resolve("logs"))
				.build();
		}

	}

}
