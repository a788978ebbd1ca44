package dev.tether.supervisor.admin;

import de.codecentric.boot.admin.server.config.AdminServerMarkerConfiguration;
import de.codecentric.boot.admin.server.config.AdminServerProperties;
import de.codecentric.boot.admin.server.domain.entities.EventsourcingInstanceRepository;
import de.codecentric.boot.admin.server.domain.entities.InstanceRepository;
import de.codecentric.boot.admin.server.eventstore.InMemoryEventStore;
import de.codecentric.boot.admin.server.services.EndpointDetector;
import de.codecentric.boot.admin.server.web.client.InstanceWebClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the console's detector applies: only in a Spring Boot Admin server that is on.
 * {@link ConsoleServedTests} shows what it does in one.
 */
class TetherAdminAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TetherAdminAutoConfiguration.class));

	@Test
	void anApplicationThatIsNoAdminServerGetsNothing() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(EndpointDetector.class)
			.doesNotHaveBean(TetherAdminAutoConfiguration.class));
	}

	@Test
	void aServerSwitchedOffGetsNothing() {
		this.runner.withUserConfiguration(AdminServerMarkerConfiguration.class)
			.withPropertyValues("spring.boot.admin.server.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(EndpointDetector.class)
				.doesNotHaveBean(TetherAdminAutoConfiguration.class));
	}

	@Test
	void anAdminServerGetsTheDetector() {
		this.runner.withUserConfiguration(AdminServerMarkerConfiguration.class)
			.withBean(InstanceRepository.class, () -> new EventsourcingInstanceRepository(new InMemoryEventStore()))
			.withBean(InstanceWebClient.Builder.class, InstanceWebClient::builder)
			.withBean(AdminServerProperties.class)
			.run((context) -> assertThat(context).hasSingleBean(EndpointDetector.class)
				.hasSingleBean(TetherAdminAutoConfiguration.class));
	}

}
