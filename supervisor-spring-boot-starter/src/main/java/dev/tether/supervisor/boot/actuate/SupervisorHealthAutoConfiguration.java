package dev.tether.supervisor.boot.actuate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;

/**
 * The {@code supervisor} health contributor.
 */
@AutoConfiguration(after = SupervisorAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthContributor")
@ConditionalOnBean(Supervisor.class)
public final class SupervisorHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "supervisorHealthContributor")
	@ConditionalOnEnabledHealthIndicator("supervisor")
	SupervisorHealthContributor supervisorHealthContributor(Supervisor supervisor,
			ObjectProvider<ChildDetailsContributor> contributors) {
		return new SupervisorHealthContributor(supervisor, contributors.orderedStream().toList());
	}

}
