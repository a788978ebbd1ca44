package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Run in a JVM of its own, under a lowered limit: a web application with
 * {@code <children>} {@code sleep} children, the children endpoint writable. Prints
 * {@code PORT <port>} once ready, then runs until it is stopped; further arguments are
 * passed to Spring ({@code --supervisor.descriptor-budget=start-what-fits};
 * {@code --limit-test.autostart=false} and {@code --limit-test.contain-descendants=false}
 * set those of every child).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DescriptorLimitApp {

	public static void main(String[] args) throws Exception {
		int children = Integer.parseInt(args[0]);
		Path directory = Path.of(args[1]);
		StringBuilder yaml = new StringBuilder("supervisor:\n  children:\n");
		for (int i = 0; i < children; i++) {
			yaml.append("    child-%d:\n      command: [\"sleep\", \"600\"]\n      stop-timeout: 5s\n".formatted(i));
			yaml.append("      autostart: ${limit-test.autostart:true}\n");
			yaml.append("      contain-descendants: ${limit-test.contain-descendants:true}\n");
		}
		Path config = Files.writeString(directory.resolve("children.yml"), yaml);
		String[] arguments = new String[args.length - 2 + 8];
		arguments[0] = "--spring.config.location=" + config.toUri();
		arguments[1] = "--server.port=0";
		arguments[2] = "--spring.main.banner-mode=off";
		arguments[3] = "--supervisor.state-directory=" + directory.resolve("state");
		arguments[4] = "--supervisor.installation-id=test-descriptors-" + ProcessHandle.current().pid();
		arguments[5] = "--management.endpoints.web.exposure.include=children,health,metrics";
		arguments[6] = "--management.endpoint.children.access=unrestricted";
		arguments[7] = "--management.endpoint.health.show-details=always";
		System.arraycopy(args, 2, arguments, 8, args.length - 2);
		ConfigurableApplicationContext context = SpringApplication.run(DescriptorLimitApp.class, arguments);
		System.out.println("PORT " + context.getEnvironment().getProperty("local.server.port"));
	}

}
