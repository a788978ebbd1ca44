package dev.tether.sample;

import de.codecentric.boot.admin.server.config.EnableAdminServer;
import de.codecentric.boot.admin.server.domain.values.Registration;
import de.codecentric.boot.admin.server.services.InstanceRegistry;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Spring Boot Admin inside the sample, at {@code /admin} ({@code application.yml}), with
 * Tether's console (supervisor-spring-boot-admin) and the sample registered in it: its
 * children are on the console as soon as the application is ready.
 */
@Configuration(proxyBeanMethods = false)
@EnableAdminServer
class AdminConsole {

	// Why the server's registry rather than Spring Boot Admin's client: the server is in
	// this application, and its port is known only once its web server started (tests
	// give it a random one). A fleet registers with the client or through discovery.
	@Bean
	ApplicationListener<ApplicationReadyEvent> registerInAdminConsole(InstanceRegistry registry) {
		return (event) -> {
			Environment environment = event.getApplicationContext().getEnvironment();
			String port = environment.getProperty("local.server.port");
			if (port == null) {
				return;
			}
			String base = "http://" + environment.getProperty("server.address", "127.0.0.1") + ":" + port;
			registry
				.register(Registration
					.create(environment.getProperty("spring.application.name", "sample"), base + "/actuator/health")
					.managementUrl(base + "/actuator")
					.serviceUrl(base + "/")
					.source("sample")
					.build())
				.block();
		};
	}

}
