package dev.tether.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.metrics.StartupStep;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorProperties;

/**
 * A web application with the starter and the actuator, run in a JVM of its own with
 * {@code <children>} children configured, none autostarted (so the figure is what
 * configuring a child costs, not spawning it; the autostart row measures that). Prints,
 * in milliseconds, {@code READY} (from the start of {@code SpringApplication.run} to its
 * return, which holds the autostart), {@code STARTED} (to
 * {@code ApplicationStartedEvent}, before it), {@code BIND} (Spring's {@code Binder}
 * creating {@code supervisor.*}), {@code YAML} (preparing the environment: loading
 * {@code application.yml}) and {@code CONDITIONS} (parsing the configuration classes and
 * evaluating their conditions against the larger environment). Arguments:
 * {@code <children> <work-directory>
 * [autostart]}.
 * <p>
 * With {@code autostart}, the children are {@code sleep}s as a user configures them (only
 * a command: autostart, output captured to files, the shepherd, resources by default),
 * and the application then prints {@code RUNNING} once all of them are {@code RUNNING}
 * with their command's pid known, and {@code SPAWNING}, the milliseconds from the first
 * child's process start ({@code startedAt}) to then: the autostart's spawns, without the
 * configuration's binding and Spring's start before them.
 * <p>
 * With {@code spawner}, the application has one such child, and once it is
 * {@code RUNNING}, {@code <children>} {@code sleep}s are spawned by Tether's spawner
 * alone, as the warm baseline spawns them, and it prints {@code SPAWNER}, the
 * milliseconds the spawns took: the rate a JVM that has just started this application
 * reaches without the supervisor, with the same compiler work still queued.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class BootStartApp {

	private static final String PROPERTIES_BEAN = "supervisor-" + SupervisorProperties.class.getName();

	private static final String CONFIGURED_CHILDREN_BEAN = "configuredChildren";

	public static void main(String[] args) throws Exception {
		int children = Integer.parseInt(args[0]);
		String mode = (args.length > 2) ? args[2] : "configured";
		boolean spawner = mode.equals("spawner");
		boolean autostart = spawner || mode.equals("autostart");
		int configured = spawner ? 1 : children;
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
		for (int i = 0; i < configured && autostart; i++) {
			yaml.append("    child-" + i + ":\n").append("      command: [\"/bin/sleep\", \"600\"]\n");
		}
		for (int i = 0; i < children && !autostart; i++) {
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
		long[] startedEvent = new long[1];
		application.addListeners(
				(ApplicationListener<ApplicationStartedEvent>) (event) -> startedEvent[0] = System.nanoTime());
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = application.run(location)) {
			long ready = System.nanoTime() - started;
			List<TimelineEvent> events = startup.getBufferedTimeline().getEvents();
			System.out.println("READY " + ready / 1_000_000);
			System.out.println("STARTED " + (startedEvent[0] - started) / 1_000_000);
			// Why the union of the two beans' steps: the properties bean has no
			// dependencies, so its instantiation is Boot's binding; the configured
			// children are the starter's own pass (with the unknown-key check), which
			// needs the properties bean, so the one step may hold the other.
			System.out.println("BIND " + unionMillis(events, PROPERTIES_BEAN, CONFIGURED_CHILDREN_BEAN));
			System.out.println("YAML " + millis(events, "spring.boot.application.environment-prepared", null));
			System.out.println("CONDITIONS " + millis(events, "spring.context.config-classes.parse", null));
			if (autostart) {
				Supervisor supervisor = context.getBean(Supervisor.class);
				awaitRunning(supervisor, configured);
				Instant running = Instant.now();
				System.out.println("RUNNING " + (System.nanoTime() - started) / 1_000_000);
				System.out.println("SPAWNING " + Duration.between(firstStart(supervisor), running).toMillis());
			}
			if (spawner) {
				System.out.println("SPAWNER " + spawnAlone(children, directory));
			}
			System.out.flush();
		}
	}

	/**
	 * Spawns {@code n} sleepers with Tether's spawner alone, then kills them; the
	 * milliseconds the spawns took.
	 */
	private static long spawnAlone(int n, Path directory) throws Exception {
		try (Subjects.Tether spawner = new Subjects.Tether(directory, false)) {
			return spawner.timeStarts(List.of("/bin/sleep", "600"), n) / 1_000_000;
		}
	}

	/**
	 * Until every child is RUNNING with its command's pid (a shepherd reports it later).
	 */
	private static void awaitRunning(Supervisor supervisor, int children) throws InterruptedException {
		while (supervisor.snapshots()
			.stream()
			.filter((child) -> child.state() == ChildState.RUNNING && child.pid() != null)
			.count() < children) {
			// Why a poll: this is how a user sees it (the endpoint reads the same
			// snapshots); 10 ms is within the figure's noise.
			Thread.sleep(10);
		}
	}

	/**
	 * When the first of the children's processes was started: the earliest
	 * {@code startedAt}, which the supervisor takes as it records each spawn.
	 */
	private static Instant firstStart(Supervisor supervisor) {
		return supervisor.snapshots()
			.stream()
			.map(ChildSnapshot::startedAt)
			.filter(Objects::nonNull)
			.min(Comparator.naturalOrder())
			.orElseThrow();
	}

	/**
	 * The time the instantiations of those beans took together, overlaps counted once.
	 */
	private static long unionMillis(List<TimelineEvent> events, String... beanNames) {
		List<TimelineEvent> steps = events.stream()
			.filter((event) -> event.getStartupStep().getName().equals("spring.beans.instantiate"))
			.filter((event) -> Arrays.stream(beanNames).anyMatch((name) -> hasTag(event.getStartupStep(), name)))
			.sorted(Comparator.comparing(TimelineEvent::getStartTime))
			.toList();
		Duration total = Duration.ZERO;
		Instant covered = Instant.MIN;
		for (TimelineEvent step : steps) {
			Instant from = step.getStartTime().isAfter(covered) ? step.getStartTime() : covered;
			if (step.getEndTime().isAfter(from)) {
				total = total.plus(Duration.between(from, step.getEndTime()));
				covered = step.getEndTime();
			}
		}
		return total.toMillis();
	}

	/** The time of the steps of that name (and, when given, that bean). */
	static long millis(List<TimelineEvent> events, String step, @Nullable String beanName) {
		long nanos = 0;
		for (TimelineEvent event : events) {
			StartupStep startupStep = event.getStartupStep();
			if (startupStep.getName().equals(step) && (beanName == null || hasTag(startupStep, beanName))) {
				nanos += event.getDuration().toNanos();
			}
		}
		return nanos / 1_000_000;
	}

	static boolean hasTag(StartupStep step, String value) {
		for (StartupStep.Tag tag : step.getTags()) {
			if (tag.getValue().equals(value)) {
				return true;
			}
		}
		return false;
	}

}
