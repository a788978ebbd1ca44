package dev.tether.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorTickObserver;

/**
 * One application supervising {@code <children>} {@code sleep}s as users configure them
 * (only a command: autostart, output captured to files, the shepherd, resources), in a
 * JVM of its own. Prints {@code SETTLED}, the milliseconds from
 * {@code SpringApplication.run} until each is {@code RUNNING} with its command's pid or
 * {@code FAILED} (a start the descriptor budget refused, where the JVM's descriptors
 * cannot hold them all), with {@code RUNNING_CHILDREN}, {@code FAILED_CHILDREN} and the
 * first error; {@code QUIET}, the milliseconds until no child has become {@code RUNNING}
 * for 5 s (the refused ones the budget's counts then find room for start meanwhile); then
 * the time of a first request, to {@code /actuator} ({@code FIRST_REQUEST}); then, over
 * {@code <observe-seconds>}, reads {@code /actuator/children} and
 * {@code /actuator/health} over HTTP each second and prints the slowest answers
 * ({@code CHILDREN_MAX}, {@code HEALTH_MAX}, ms), the first and the median answer of
 * {@code /actuator/children} ({@code CHILDREN_FIRST}, {@code CHILDREN_MEDIAN}) and the
 * median, the p99 and the longest of the ticks over those seconds ({@code TICK_P50},
 * {@code TICK_P99}, {@code TICK_MAX}, ms, each as {@code supervisor.reap.tick} records
 * it; {@code TICKS} of them), and the descriptors open ({@code DESCRIPTORS}); then
 * {@code HOLDING}, and it waits to be killed. Arguments:
 * {@code <children> <work-directory> <observe-seconds>}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ScaleBootApp {

	private static final Duration DEADLINE = Duration.ofSeconds(180);

	private static final Duration QUIET = Duration.ofSeconds(5);

	public static void main(String[] args) throws Exception {
		int children = Integer.parseInt(args[0]);
		Path directory = Files.createTempDirectory(Path.of(args[1]), "scale-" + children + "-");
		Duration observe = Duration.ofSeconds(Long.parseLong(args[2]));
		StringBuilder yaml = new StringBuilder("""
				server.port: 0
				server.address: 127.0.0.1
				spring.main.banner-mode: "off"
				logging.level.root: warn
				management:
				  endpoints.web.exposure.include: health,children
				  endpoint.health.show-details: always
				supervisor:
				  state-directory: %s
				  installation-id: bench-scale-%d
				  # Why: where the machine's descriptors cannot hold them all, the rest are refused, not the start.
				  descriptor-budget: start-what-fits
				  children:
				""".formatted(directory.resolve("state"), ProcessHandle.current().pid()));
		for (int i = 0; i < children; i++) {
			yaml.append("    child-" + i + ":\n").append("      command: [\"/bin/sleep\", \"600\"]\n");
		}
		SpringApplication application = new SpringApplication(ScaleBootApp.class);
		String location = "--spring.config.location="
				+ Files.writeString(directory.resolve("application.yml"), yaml).toUri();
		long started = System.nanoTime();
		ConfigurableApplicationContext context = application.run(location);
		Supervisor supervisor = context.getBean(Supervisor.class);
		if (awaitSettled(supervisor, started + DEADLINE.toNanos())) {
			System.out.println("SETTLED " + (System.nanoTime() - started) / 1_000_000);
		}
		if (awaitQuiet(supervisor, started + DEADLINE.toNanos())) {
			System.out.println("QUIET " + (System.nanoTime() - started) / 1_000_000);
		}
		Map<ChildState, Integer> states = new TreeMap<>();
		supervisor.snapshots().forEach((child) -> states.merge(child.state(), 1, Integer::sum));
		System.out.println("RUNNING_CHILDREN " + states.getOrDefault(ChildState.RUNNING, 0));
		System.out.println("FAILED_CHILDREN " + states.getOrDefault(ChildState.FAILED, 0));
		System.out.println("states: " + states + "; first error: "
				+ supervisor.snapshots()
					.stream()
					.map(ChildSnapshot::lastError)
					.filter((error) -> error != null)
					.findFirst()
					.orElse("none"));
		System.out.flush();
		String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port") + "/actuator/";
		HttpClient http = HttpClient.newHttpClient();
		List<Double> childrenAnswers = new ArrayList<>();
		List<Double> healthAnswers = new ArrayList<>();
		// Why a first request apart, to /actuator (the list of endpoints): it starts this
		// JVM's HTTP client and Spring MVC's servlet, which a first request of any kind
		// pays, so that the first /actuator/children answer is the endpoint's.
		System.out.println("FIRST_REQUEST " + answerMillis(http, base.substring(0, base.length() - 1)));
		ObservedTicks ticks = context.getBean(ObservedTicks.class);
		ticks.start();
		long end = System.nanoTime() + observe.toNanos();
		while (System.nanoTime() < end) {
			childrenAnswers.add(answerMillis(http, base + "children"));
			healthAnswers.add(answerMillis(http, base + "health"));
			LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
		}
		System.out
			.println("CHILDREN_MAX " + childrenAnswers.stream().mapToDouble(Double::doubleValue).max().orElse(-1));
		// Why the first and the median apart: the first answer opens every tree's /proc
		// files and runs the endpoint's code before the JIT has compiled it.
		System.out.println("CHILDREN_FIRST " + (childrenAnswers.isEmpty() ? -1 : childrenAnswers.get(0)));
		System.out.println("CHILDREN_MEDIAN "
				+ childrenAnswers.stream().sorted().skip(childrenAnswers.size() / 2).findFirst().orElse(-1.0));
		System.out.println("HEALTH_MAX " + healthAnswers.stream().mapToDouble(Double::doubleValue).max().orElse(-1));
		ticks.stop();
		System.out.println("TICKS " + ticks.count());
		System.out.println("TICK_P50 " + ticks.percentileMillis(0.5));
		System.out.println("TICK_P99 " + ticks.percentileMillis(0.99));
		System.out.println("TICK_MAX " + ticks.percentileMillis(1));
		try (var descriptors = Files.list(Path.of("/proc/self/fd"))) {
			System.out.println("DESCRIPTORS " + descriptors.count());
		}
		System.out.println("HOLDING");
		System.out.flush();
		// Why no close: the row kills this JVM with SIGKILL, and times its children's
		// end.
		LockSupport.park();
	}

	@Bean
	ObservedTicks observedTicks() {
		return new ObservedTicks();
	}

	/**
	 * Each tick's duration, as the starter's {@code supervisor.reap.tick} timer records
	 * it, while the endpoints are read. Why not the timer's own percentile: its window is
	 * a time span, which took in the ticks of the start (up to seconds each, while 10,000
	 * children start) or not, by when the start ended.
	 */
	static final class ObservedTicks implements SupervisorTickObserver {

		private final List<Duration> ticks = new ArrayList<>();

		private volatile boolean observing;

		@Override
		public void ticked(Duration duration) {
			if (this.observing) {
				synchronized (this.ticks) {
					this.ticks.add(duration);
				}
			}
		}

		void start() {
			this.observing = true;
		}

		void stop() {
			this.observing = false;
		}

		int count() {
			synchronized (this.ticks) {
				return this.ticks.size();
			}
		}

		/** The tick at {@code percentile} (1: the longest), in ms; -1 with none. */
		double percentileMillis(double percentile) {
			List<Duration> sorted;
			synchronized (this.ticks) {
				sorted = this.ticks.stream().sorted().toList();
			}
			if (sorted.isEmpty()) {
				return -1;
			}
			int index = (int) Math.ceil(percentile * sorted.size()) - 1;
			return sorted.get(Math.max(0, index)).toNanos() / 1e6;
		}

	}

	/** Until each child is RUNNING with its command's pid, or FAILED. */
	private static boolean awaitSettled(Supervisor supervisor, long deadline) {
		while (!supervisor.snapshots()
			.stream()
			.allMatch((child) -> (child.state() == ChildState.RUNNING && child.pid() != null)
					|| child.state() == ChildState.FAILED)) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			// Why a poll: this is how a user sees it (the endpoint reads the same
			// snapshots); 100 ms is within the figure's noise at this scale.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
		}
		return true;
	}

	/**
	 * Until no child has become RUNNING for {@link #QUIET}: where the descriptor budget
	 * refused some, its counts (once a second) find room the estimate at admission did
	 * not leave, and refused children start at the next ticks, for some seconds after
	 * each child was first RUNNING or refused.
	 */
	private static boolean awaitQuiet(Supervisor supervisor, long deadline) {
		long running = -1;
		long since = System.nanoTime();
		while (System.nanoTime() - since < QUIET.toNanos()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			long now = supervisor.snapshots().stream().filter((child) -> child.state() == ChildState.RUNNING).count();
			if (now != running) {
				running = now;
				since = System.nanoTime();
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
		}
		return true;
	}

	private static double answerMillis(HttpClient http, String uri) throws Exception {
		long sent = System.nanoTime();
		HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(uri)).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		double millis = (System.nanoTime() - sent) / 1e6;
		if (response.statusCode() != 200 && response.statusCode() != 503) {
			throw new IllegalStateException(uri + " answered " + response.statusCode());
		}
		return millis;
	}

}
