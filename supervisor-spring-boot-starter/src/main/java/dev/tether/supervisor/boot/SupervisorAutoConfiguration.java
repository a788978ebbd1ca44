package dev.tether.supervisor.boot;

import java.nio.file.Path;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorListener;
import dev.tether.supervisor.boot.event.ChildLifecycleEvent;
import dev.tether.supervisor.identity.IdentityProbe;
import dev.tether.supervisor.identity.ProcessSignaller;
import dev.tether.supervisor.os.Posix;
import dev.tether.supervisor.reaper.Reaper;
import dev.tether.supervisor.reconcile.Reconciler;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.spawn.Spawner;

/**
 * Supervises the children listed under {@code supervisor.children}.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "supervisor.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SupervisorProperties.class)
public class SupervisorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SupervisorSettings supervisorSettings(SupervisorProperties properties, Environment environment) {
		return SupervisorSettings.resolve(properties, environment);
	}

	@Bean
	@ConditionalOnMissingBean
	IdentityProbe identityProbe() {
		return IdentityProbe.forPlatform();
	}

	@Bean
	@ConditionalOnMissingBean
	Reaper supervisorReaper() {
		return Reaper.shared();
	}

	// Why close on destroy: Spring destroys the supervisor (which stops every child) before the beans it uses, and a
	// context that failed to start must not keep the spawner thread or the registry lock.
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	Spawner supervisorSpawner(SupervisorSettings settings) {
		return new Spawner(settings.parentDeathSignal(), settings.stateDirectory().resolve("bin"));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ChildRegistry childRegistry(SupervisorSettings settings) {
		return FileChildRegistry.open(settings.stateDirectory());
	}

	@Bean
	@ConditionalOnMissingBean
	Reconciler supervisorReconciler(IdentityProbe probe) {
		return new Reconciler(new ProcessSignaller(probe));
	}

	@Bean
	SupervisorListener applicationEventPublishingSupervisorListener(ApplicationEventPublisher publisher) {
		return (event) -> publisher.publishEvent(ChildLifecycleEvent.of(event));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	Supervisor supervisor(SupervisorProperties properties, SupervisorSettings settings, Spawner spawner,
			IdentityProbe probe, Reaper reaper, ChildRegistry registry, Reconciler reconciler,
			ObjectProvider<SupervisorListener> listeners) {
		Supervisor.Builder builder = Supervisor.builder()
			.installationId(settings.installationId())
			.spawner(spawner)
			.probe(probe)
			.reaper(reaper)
			.registry(registry)
			.reconciler(reconciler)
			.orphanPolicy(properties.getReconcile().getOrphans())
			.logDirectory(settings.stateDirectory().resolve("logs"));
		listeners.orderedStream().forEach(builder::listener);
		ChildSpecs.from(properties).forEach(builder::child);
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean
	SupervisorLifecycle supervisorLifecycle(Supervisor supervisor, SupervisorProperties properties,
			ObjectProvider<SupervisorTickObserver> observers) {
		return new SupervisorLifecycle(supervisor, properties.getReapInterval(), observers.orderedStream().toList());
	}

	/**
	 * The settings derived from the properties and the environment.
	 *
	 * @param installationId the installation id
	 * @param stateDirectory the state directory
	 * @param parentDeathSignal the parent-death signal number, 0 for none
	 */
	public record SupervisorSettings(String installationId, Path stateDirectory, int parentDeathSignal) {

		static SupervisorSettings resolve(SupervisorProperties properties, Environment environment) {
			String installationId = properties.getInstallationId();
			if (installationId == null || installationId.isBlank()) {
				installationId = environment.getProperty("spring.application.name", "default");
			}
			if (!installationId.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
				throw new InvalidSupervisorConfigurationException("supervisor.installation-id",
						"'" + installationId + "' must be letters, digits, '.', '_' or '-', starting with a letter or digit",
						null);
			}
			if (properties.getReapInterval() == null || properties.getReapInterval().isNegative()
					|| properties.getReapInterval().isZero()) {
				throw new InvalidSupervisorConfigurationException("supervisor.reap-interval",
						"must be a positive duration (was " + properties.getReapInterval() + ")", null);
			}
			Path stateDirectory = properties.getStateDirectory();
			if (stateDirectory == null) {
				String xdg = System.getenv("XDG_STATE_HOME");
				Path base = (xdg != null && !xdg.isBlank()) ? Path.of(xdg)
						: Path.of(System.getProperty("user.home"), ".local", "state");
				stateDirectory = base.resolve("tether").resolve(installationId);
			}
			return new SupervisorSettings(installationId, stateDirectory.toAbsolutePath(),
					parentDeathSignal(properties.getParentDeathSignal()));
		}

		private static int parentDeathSignal(String value) {
			if (value == null || value.equalsIgnoreCase("NONE")) {
				return 0;
			}
			try {
				return Posix.signalNumber(value);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSupervisorConfigurationException("supervisor.parent-death-signal", ex.getMessage(), ex);
			}
		}

	}

}
