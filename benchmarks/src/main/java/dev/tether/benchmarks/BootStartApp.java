package dev.tether.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.metrics.StartupStep;

import dev.tether.supervisor.boot.SupervisorProperties;

/**
 * A web application with the starter and the actuator, run in a JVM of its own with
 * {@code <children>} children configured, none autostarted (so the figure is what
 * configuring a child costs, not spawning it; the autostart row measures that). Prints,
 * in milliseconds, {@code READY} (from the start of {@code SpringApplication.run} to its
 * return), {@code BIND} (Spring's {@code Binder} creating {@code supervisor.*}),
 * {@code YAML} (preparing the environment: loading {@code application.yml}) and
 * {@code CONDITIONS} (parsing the configuration classes and evaluating their conditions
 * against the larger environment). Arguments: {@code <children> <work-directory>}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class BootStartApp {

	private static final String PROPERTIES_BEAN = "supervisor-" + SupervisorProperties.class.getName();

	public static void main(String[] args) throws Exception {
		int children = Integer.parseInt(args[0]);
		Path directory = Files.createTempDirectory(Path.of(args[1]), "boot-" + children + "-");
		StringBuilder yaml = new StringBuilder("""
				server.port: 0
				spring.main.banner-mode: "off"
				logging.level.root: warn
				supervisor:
				  state-directory: %s
				  installation-id: bench-boot-%d
				  children:
				""".formatted(directory.resolve("state"), ProcessHandle.current().pid()));
		for (int i = 0; i < children; i++) {
			int port = 20000 + i;
			yaml.append("    child-" + i + ":\n")
				.append("      command: [\"/bin/sleep\", \"600\"]\n")
				.append("      working-directory: " + directory + "\n")
				.append("      port: " + port + "\n")
				.append("      autostart: false\n")
				.append("      stop-timeout: 5s\n")
				.append("      environment: { GREETING: \"hello " + i + "\" }\n");
		}
		SpringApplication application = new SpringApplication(BootStartApp.class);
		BufferingApplicationStartup startup = new BufferingApplicationStartup(100_000);
		application.setApplicationStartup(startup);
		String location = "--spring.config.location="
				+ Files.writeString(directory.resolve("application.yml"), yaml).toUri();
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = application.run(location)) {
			long ready = System.nanoTime() - started;
			List<TimelineEvent> events = startup.getBufferedTimeline().getEvents();
			System.out.println("READY " + ready / 1_000_000);
			// Why the bean's own step: the properties bean has no dependencies, so its
			// instantiation is the binding.
			System.out.println("BIND " + millis(events, "spring.beans.instantiate", PROPERTIES_BEAN));
			System.out.println("YAML " + millis(events, "spring.boot.application.environment-prepared", null));
			System.out.println("CONDITIONS " + millis(events, "spring.context.config-classes.parse", null));
		}
	}

	/** The time of the steps of that name (and, when given, that bean). */
	private static long millis(List<TimelineEvent> events, String step, @Nullable String beanName) {
		long nanos = 0;
		for (TimelineEvent event : events) {
			StartupStep startupStep = event.getStartupStep();
			if (startupStep.getName().equals(step) && (beanName == null || hasTag(startupStep, beanName))) {
				nanos += event.getDuration().toNanos();
			}
		}
		return nanos / 1_000_000;
	}

	private static boolean hasTag(StartupStep step, String value) {
		for (StartupStep.Tag tag : step.getTags()) {
			if (tag.getValue().equals(value)) {
				return true;
			}
		}
		return false;
	}

}
