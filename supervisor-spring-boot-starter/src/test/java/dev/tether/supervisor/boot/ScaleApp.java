package dev.tether.supervisor.boot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.metrics.StartupStep;

/**
 * Run in a JVM of its own: starts a web application with {@code <children>} children
 * configured (as the sample configures its own, none autostarted) and prints, in
 * milliseconds, how long the start took ({@code READY}), how long binding
 * {@code supervisor.*} took ({@code BIND}) and how long checking the children and
 * building the supervisor took ({@code SPECS}); the last two are the steps' own time,
 * without nested beans. {@code SPECS_CPU} is the CPU time the main thread spent on that
 * step, which a busy machine moves far less than the elapsed time.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ScaleApp {

	static final String PROPERTIES_BEAN = "supervisor-" + SupervisorProperties.class.getName();

	public static void main(String[] args) throws Exception {
		int children = Integer.parseInt(args[0]);
		Path directory = Path.of(args[1]);
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		StringBuilder yaml = new StringBuilder("supervisor:\n  children:\n");
		for (int i = 0; i < children; i++) {
			yaml.append("    child-%d:\n".formatted(i))
				.append("      command: [\"%s\", \"Agent.java\", \"--port\", \"%d\"]\n".formatted(java, 20000 + i))
				.append("      working-directory: %s\n".formatted(directory))
				.append("      port: %d\n      autostart: false\n      stop-timeout: 5s\n".formatted(20000 + i))
				.append("      environment:\n        GREETING: \"hello %d\"\n".formatted(i));
		}
		Path config = Files.writeString(directory.resolve("children-" + children + ".yml"), yaml);
		SpringApplication application = new SpringApplication(ScaleApp.class);
		BufferingApplicationStartup startup = new BufferingApplicationStartup(100_000);
		application.setApplicationStartup(startup);
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = application.run("--spring.config.location=" + config.toUri(),
				"--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=warn",
				"--supervisor.state-directory=" + directory.resolve("state-" + children),
				"--supervisor.installation-id=test-scale-" + children)) {
			long ready = System.nanoTime() - started;
			Map<String, Long> own = ownBeanTimes(startup.getBufferedTimeline().getEvents());
			System.out.println("READY " + ready / 1_000_000);
			System.out.println("BIND " + own.getOrDefault(PROPERTIES_BEAN, 0L) / 1_000_000);
			System.out.println("SPECS " + own.getOrDefault("supervisor", 0L) / 1_000_000);
			System.out.println("SPECS_CPU " + context.getBean(OwnCpuTime.class).of("supervisor") / 1_000_000);
		}
	}

	@Bean
	static OwnCpuTime ownCpuTime() {
		return new OwnCpuTime();
	}

	/**
	 * The CPU time of the main thread spent instantiating each bean, without the beans
	 * instantiated within it.
	 */
	static final class OwnCpuTime implements InstantiationAwareBeanPostProcessor {

		private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

		private final Deque<Frame> open = new ArrayDeque<>();

		private final Map<String, Long> own = new HashMap<>();

		@Override
		public @Nullable Object postProcessBeforeInstantiation(Class<?> beanClass, String beanName) {
			this.open.push(new Frame(beanName, this.threads.getCurrentThreadCpuTime()));
			return null;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			// Why by name: a factory bean's product is post-processed without having been
			// instantiated here, and must not close its creator's frame.
			Frame frame = this.open.peek();
			if (frame != null && frame.name.equals(beanName)) {
				this.open.pop();
				long total = this.threads.getCurrentThreadCpuTime() - frame.started;
				this.own.put(beanName, total - frame.nested);
				Frame parent = this.open.peek();
				if (parent != null) {
					parent.nested += total;
				}
			}
			return bean;
		}

		long of(String beanName) {
			return this.own.getOrDefault(beanName, 0L);
		}

		/**
		 * A bean being created: its name, the CPU time at its start, and its nested
		 * beans' time.
		 */
		private static final class Frame {

			private final String name;

			private final long started;

			private long nested;

			Frame(String name, long started) {
				this.name = name;
				this.started = started;
			}

		}

	}

	/**
	 * Each bean's instantiation time minus that of the beans instantiated within it, by
	 * bean name.
	 */
	private static Map<String, Long> ownBeanTimes(List<TimelineEvent> events) {
		Map<Long, Long> nested = new HashMap<>();
		for (TimelineEvent event : events) {
			Long parent = event.getStartupStep().getParentId();
			if (parent != null) {
				nested.merge(parent, event.getDuration().toNanos(), Long::sum);
			}
		}
		Map<String, Long> own = new HashMap<>();
		for (TimelineEvent event : events) {
			StartupStep step = event.getStartupStep();
			if (step.getName().equals("spring.beans.instantiate")) {
				List<String> beanNames = new ArrayList<>();
				step.getTags().forEach((tag) -> {
					if (tag.getKey().equals("beanName")) {
						beanNames.add(tag.getValue());
					}
				});
				long self = event.getDuration().toNanos() - nested.getOrDefault(step.getId(), 0L);
				beanNames.forEach((name) -> own.put(name, self));
			}
		}
		return own;
	}

}
