package dev.tether.supervisor.boot.actuate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;

/**
 * The {@code children} and {@code childlog} actuator endpoints.
 */
@AutoConfiguration(after = SupervisorAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(Supervisor.class)
@ImportRuntimeHints(ChildrenEndpointRuntimeHints.class)
public final class SupervisorEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(ChildrenEndpoint.class)
	ChildrenEndpoint childrenEndpoint(Supervisor supervisor, ObjectProvider<ChildDetailsContributor> contributors) {
		return new ChildrenEndpoint(supervisor, contributors.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(ChildLogEndpoint.class)
	ChildLogEndpoint childLogEndpoint(Supervisor supervisor) {
		return new ChildLogEndpoint(supervisor);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(ChildrenEndpoint.class)
	ChildrenWebEndpointExtension childrenWebEndpointExtension(ChildrenEndpoint endpoint) {
		return new ChildrenWebEndpointExtension(endpoint);
	}

}
