package dev.tether.supervisor.admin;

import de.codecentric.boot.admin.server.config.AdminServerAutoConfiguration;
import de.codecentric.boot.admin.server.config.AdminServerMarkerConfiguration;
import de.codecentric.boot.admin.server.config.AdminServerProperties;
import de.codecentric.boot.admin.server.domain.entities.InstanceRepository;
import de.codecentric.boot.admin.server.services.EndpointDetector;
import de.codecentric.boot.admin.server.services.endpoints.ChainingStrategy;
import de.codecentric.boot.admin.server.services.endpoints.ProbeEndpointsStrategy;
import de.codecentric.boot.admin.server.web.client.InstanceWebClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Lets a Spring Boot Admin server reach Tether's {@code childlog} endpoint, for the
 * console's log view. The console itself (its views) is the UI extension in this jar.
 */
@AutoConfiguration(before = AdminServerAutoConfiguration.class)
@ConditionalOnBean(AdminServerMarkerConfiguration.Marker.class)
@ConditionalOnProperty(prefix = "spring.boot.admin.server", name = "enabled", matchIfMissing = true)
public final class TetherAdminAutoConfiguration {

	// Why the server's own chain with one strategy replaced: an instance whose index
	// cannot be read is still probed as the server would, so adding this jar changes
	// nothing but the childlog link.
	@Bean
	EndpointDetector endpointDetector(InstanceRepository instanceRepository,
			InstanceWebClient.Builder instanceWebClientBuilder, AdminServerProperties properties) {
		InstanceWebClient client = instanceWebClientBuilder.build();
		return new EndpointDetector(instanceRepository, new ChainingStrategy(new ChildLogIndexStrategy(client),
				new ProbeEndpointsStrategy(client, properties.getProbedEndpoints())));
	}

}
