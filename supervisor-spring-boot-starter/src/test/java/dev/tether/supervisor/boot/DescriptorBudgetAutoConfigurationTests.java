package dev.tether.supervisor.boot;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.actuate.ChildrenEndpoint;
import dev.tether.supervisor.boot.actuate.SupervisorEndpointAutoConfiguration;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code supervisor.descriptor-reserve} and {@code supervisor.descriptor-budget}: the
 * default reserve, a configured one, a negative one, and autostarted children that do not
 * fit.
 */
@EnabledOnOs(OS.LINUX)
class DescriptorBudgetAutoConfigurationTests {

	@TempDir
	Path temp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SupervisorAutoConfiguration.class, SupervisorEndpointAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"management.endpoints.web.exposure.include=children",
					"supervisor.installation-id=" + TestRun.installationId("starter"));
	}

	@Test
	void theReserveDefaultsToATenthOfTheLimitAndAtLeast1024AndTheEndpointShowsIt() {
		runner().run((context) -> {
			DescriptorUse use = context.getBean(Supervisor.class).descriptors();
			assertThat(use.limit()).isPositive();
			assertThat(use.reserve()).isEqualTo(Math.max(1024, use.limit() / 10));
			ChildrenEndpoint.DescriptorsDescriptor shown = context.getBean(ChildrenEndpoint.class)
				.children()
				.descriptors();
			assertThat(shown.limit()).isEqualTo(use.limit());
			assertThat(shown.reserve()).isEqualTo(use.reserve());
			assertThat(shown.perChild()).isEqualTo(use.perChild());
		});
	}

	@Test
	void aConfiguredReserveIsUsed() {
		runner().withPropertyValues("supervisor.descriptor-reserve=1500")
			.run((context) -> assertThat(context.getBean(Supervisor.class).descriptors().reserve()).isEqualTo(1500));
	}

	@Test
	void aNegativeReserveFailsStartupNamingTheProperty() {
		runner().withPropertyValues("supervisor.descriptor-reserve=-1").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("Property: supervisor.descriptor-reserve\n")
				.contains("must not be negative (was -1)");
		});
	}

	@Test
	void autostartedChildrenThatDoNotFitFailStartupWithTheNumbers() {
		runner()
			.withPropertyValues("supervisor.descriptor-reserve=100000000", "supervisor.children.a.command=sleep,600",
					"supervisor.children.b.command=sleep,600", "supervisor.children.c.command=sleep,600",
					"supervisor.children.c.autostart=false")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: supervisor.children\n")
					.containsPattern("2 children to start, but the limit of [0-9,]+ "
							+ "less the [0-9,]+ in use and the reserve of 100,000,000 leaves room for 0 \\(at up to 9 ")
					.contains("supervisor.descriptor-budget=start-what-fits");
			});
	}

	@Test
	void startWhatFitsLetsStartupGoOn() {
		runner()
			.withPropertyValues("supervisor.descriptor-reserve=100000000",
					"supervisor.descriptor-budget=start-what-fits", "supervisor.children.a.command=sleep,600")
			.run((context) -> assertThat(context).hasNotFailed());
	}

}
