package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Signals;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.SupervisorListener;
import dev.tether.supervisor.boot.event.ChildLifecycleEvent;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * Supervises the children listed under {@code supervisor.children}.
 * <p>
 * Two beans may be replaced by defining one of the same type: the {@link ChildRegistry}
 * (the registry SPI, e.g. a JDBC store) and the {@link Supervisor} itself (which then
 * owns its spawner, registry and children). The spawner, identity probe, reaper and
 * reconciler are not beans: they guard the promise to signal only our own processes, the
 * reaper must be the JVM's single one, and the spawner belongs to the supervisor that
 * closes it.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "supervisor.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SupervisorProperties.class)
@ImportRuntimeHints(SupervisorRuntimeHints.class)
public final class SupervisorAutoConfiguration {

	// Why static: Boot asks for the advisors at its first binding of any
	// @ConfigurationProperties bean, which may come before this configuration exists.
	@Bean
	static SupervisorChildrenBinding supervisorChildrenBinding(Environment environment,
			SupervisorPropertiesBinder binder) {
		return new SupervisorChildrenBinding(environment, binder);
	}

	// Why static: the advisor above needs it.
	@Bean
	static SupervisorPropertiesBinder supervisorPropertiesBinder(ApplicationContext context) {
		return new SupervisorPropertiesBinder(context.getClassLoader());
	}

	// Why the properties bean as a parameter: Boot binds it first, through the advisor,
	// whose pass this bean takes; a value that does not convert is then reported by
	// Boot's own analysis. Why before the registry: an unknown key stops startup before
	// any file is locked.
	@Bean
	ConfiguredChildren configuredChildren(SupervisorProperties properties, SupervisorChildrenBinding binding) {
		return binding.configuredChildren();
	}

	@Bean
	SupervisorSettings supervisorSettings(SupervisorProperties properties, Environment environment) {
		return SupervisorSettings.resolve(properties, environment);
	}

	// Why close on destroy: a context that fails to start after the registry was opened
	// must not keep its lock (the supervisor closes it too, once it exists).
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ChildRegistry childRegistry(SupervisorSettings settings) {
		return FileChildRegistry.open(settings.stateDirectory());
	}

	@Bean
	SupervisorListener applicationEventPublishingSupervisorListener(ApplicationEventPublisher publisher) {
		return (event) -> publisher.publishEvent(ChildLifecycleEvent.of(event));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	Supervisor supervisor(ConfiguredChildren configured, SupervisorProperties properties, SupervisorSettings settings,
			ChildRegistry registry, ObjectProvider<SupervisorListener> listeners,
			ObjectProvider<ChildSpecCustomizer> customizers) {
		List<ChildSpec> children = ChildSpecFactory.from(configured, customizers.orderedStream().toList());
		// Why no spawner bean: the spawner is internal and the supervisor's own (it
		// closes it), and its thread starts with the first spawn, so nothing is left
		// behind when a later check fails.
		SupervisorBuilder builder = Supervisor.builder()
			.installationId(settings.installationId())
			.parentDeathSignal(settings.parentDeathSignal())
			.launcherDirectory(settings.stateDirectory().resolve("bin"))
			.registry(registry)
			.orphanPolicy(properties.getReconcile().getOrphans())
			.logDirectory(settings.stateDirectory().resolve("logs"));
		DescriptorBudgetCheck.reserve(properties).ifPresent(builder::descriptorReserve);
		listeners.orderedStream().forEach(builder::listener);
		children.forEach(builder::child);
		return DescriptorBudgetCheck.fits(builder.build(), children, properties.getDescriptorBudget());
	}

	@Bean
	SupervisorLifecycle supervisorLifecycle(Supervisor supervisor, SupervisorSettings settings,
			ObjectProvider<SupervisorTickObserver> observers) {
		return new SupervisorLifecycle(supervisor, settings.tickInterval(), observers.orderedStream().toList());
	}

	@Bean
	SupervisorStartup supervisorStartup(Supervisor supervisor, SupervisorLifecycle lifecycle) {
		return new SupervisorStartup(supervisor, lifecycle);
	}

	/**
	 * Where Spring Cloud Context is present, a refreshed configuration is applied to the
	 * running children.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.cloud.context.environment.EnvironmentChangeEvent")
	static class RefreshConfiguration {

		@Bean
		ConfigurationRefresher supervisorConfigurationRefresher(Supervisor supervisor, Environment environment,
				SupervisorPropertiesBinder binder, ObjectProvider<ChildSpecCustomizer> customizers) {
			return new ConfigurationRefresher(supervisor, environment, binder, customizers);
		}

	}

	/**
	 * The settings derived from the properties and the environment.
	 *
	 * @param installationId the installation id
	 * @param stateDirectory the state directory
	 * @param parentDeathSignal the parent-death signal number, 0 for none
	 * @param tickInterval the period of the supervision tick, within
	 * {@link #MIN_TICK_INTERVAL} and {@link #MAX_TICK_INTERVAL}
	 */
	public record SupervisorSettings(String installationId, Path stateDirectory, int parentDeathSignal,
			Duration tickInterval) {

		private static final Logger logger = LoggerFactory.getLogger(SupervisorSettings.class);

		private static final String REAP_INTERVAL = "supervisor.reap-interval";

		/**
		 * The tick period when none is set.
		 */
		public static final Duration DEFAULT_TICK_INTERVAL = Duration.ofMillis(200);

		/**
		 * The shortest tick period: shorter ones spend the CPU on /proc reads rather than
		 * on the application.
		 */
		public static final Duration MIN_TICK_INTERVAL = Duration.ofMillis(10);

		/**
		 * The longest tick period: restarts, readiness and deadlines are only as punctual
		 * as the tick.
		 */
		public static final Duration MAX_TICK_INTERVAL = Duration.ofHours(1);

		static SupervisorSettings resolve(SupervisorProperties properties, Environment environment) {
			String installationId = properties.getInstallationId();
			if (installationId == null || installationId.isBlank()) {
				installationId = environment.getProperty("spring.application.name", "default");
			}
			if (!installationId.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
				throw new InvalidSupervisorConfigurationException("supervisor.installation-id", "'" + installationId
						+ "' must be letters, digits, '.', '_' or '-', starting with a letter or digit", null);
			}
			Duration tickInterval = tickInterval(properties);
			if (tickInterval.compareTo(MIN_TICK_INTERVAL) < 0 || tickInterval.compareTo(MAX_TICK_INTERVAL) > 0) {
				throw new InvalidSupervisorConfigurationException(tickIntervalProperty(properties),
						"must be between 10ms and 1h (was " + tickInterval + ")", null);
			}
			Path stateDirectory = properties.getStateDirectory();
			if (stateDirectory == null) {
				String xdg = System.getenv("XDG_STATE_HOME");
				Path base = (xdg != null && !xdg.isBlank()) ? Path.of(xdg)
						: Path.of(System.getProperty("user.home"), ".local", "state");
				stateDirectory = base.resolve("tether").resolve(installationId);
			}
			return new SupervisorSettings(installationId, stateDirectory.toAbsolutePath(),
					parentDeathSignal(properties.getParentDeathSignal()), tickInterval);
		}

		@SuppressWarnings("deprecation")
		private static Duration tickInterval(SupervisorProperties properties) {
			Duration renamed = properties.getReapInterval();
			if (renamed == null) {
				Duration tickInterval = properties.getTickInterval();
				return (tickInterval != null) ? tickInterval : DEFAULT_TICK_INTERVAL;
			}
			if (properties.getTickInterval() != null) {
				throw new InvalidSupervisorConfigurationException(REAP_INTERVAL,
						"and supervisor.tick-interval are both set: remove supervisor.reap-interval, the former name of supervisor.tick-interval",
						null);
			}
			logger.warn("{} is deprecated since 0.4.0 and will be removed: set supervisor.tick-interval instead",
					REAP_INTERVAL);
			return renamed;
		}

		@SuppressWarnings("deprecation")
		private static String tickIntervalProperty(SupervisorProperties properties) {
			return (properties.getReapInterval() != null) ? REAP_INTERVAL : "supervisor.tick-interval";
		}

		private static int parentDeathSignal(@Nullable String value) {
			if (value == null || value.equalsIgnoreCase("NONE")) {
				return 0;
			}
			try {
				return Signals.number(value);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSupervisorConfigurationException("supervisor.parent-death-signal", ex.getMessage(),
						ex);
			}
		}

	}

}
