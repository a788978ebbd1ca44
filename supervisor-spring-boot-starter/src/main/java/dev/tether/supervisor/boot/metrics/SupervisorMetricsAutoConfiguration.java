package dev.tether.supervisor.boot.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;

/**
 * The supervisor's Micrometer meters, when a {@link MeterRegistry} exists.
 */
@AutoConfiguration(after = SupervisorAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, Supervisor.class })
public final class SupervisorMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SupervisorMetrics supervisorMetrics(ObjectProvider<Supervisor> supervisor) {
		return new SupervisorMetrics(supervisor);
	}

}
