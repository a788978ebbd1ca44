package dev.tether.supervisor.boot;

import java.util.Locale;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

import dev.tether.supervisor.InvalidChildSpecException;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.UpdateReport;

/**
 * Applies a changed configuration to the running children when Spring Cloud says the
 * environment changed ({@code /actuator/refresh}, a configuration server's push) and a
 * {@code supervisor.children.*} or {@code supervisor.defaults.*} property is among the
 * changes: new children start, removed ones stop, changed ones restart, unchanged ones
 * keep their process (see {@link Supervisor#update}). An unusable configuration is
 * refused whole, logged naming the property, and the running children are left as they
 * were.
 */
final class ConfigurationRefresher implements ApplicationListener<EnvironmentChangeEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ConfigurationRefresher.class);

	private final Supervisor supervisor;

	private final Environment environment;

	private final SupervisorPropertiesBinder binder;

	private final ObjectProvider<ChildSpecCustomizer> customizers;

	ConfigurationRefresher(Supervisor supervisor, Environment environment, SupervisorPropertiesBinder binder,
			ObjectProvider<ChildSpecCustomizer> customizers) {
		this.supervisor = supervisor;
		this.environment = environment;
		this.binder = binder;
		this.customizers = customizers;
	}

	@Override
	public void onApplicationEvent(EnvironmentChangeEvent event) {
		if (!concernsChildren(event.getKeys())) {
			return;
		}
		try {
			// Why bind afresh: the properties bean is rebound by Spring Cloud in an order
			// this listener cannot rely on.
			UpdateReport report = this.supervisor.update(ChildSpecFactory.from(this.binder.bind(this.environment),
					this.customizers.orderedStream().toList()));
			logger.info("Children refreshed: added {}, removed {}, changed {}, unchanged {}", report.added(),
					report.removed(), report.changed(), report.unchanged().size());
		}
		catch (InvalidSupervisorConfigurationException ex) {
			refused(ex.getProperty(), ex.getReason());
		}
		catch (InvalidChildSpecException ex) {
			refused("supervisor.children." + ex.childName() + "." + ex.setting(), ex.reason());
		}
	}

	private static void refused(String property, String reason) {
		logger.error("Children not refreshed: {} {}; every child is left as it was", property, reason);
	}

	/**
	 * Whether a changed key, in any of its relaxed forms
	 * ({@code SUPERVISOR_CHILDREN_X_COMMAND}), is a child's.
	 */
	private static boolean concernsChildren(Set<String> keys) {
		return keys.stream()
			.map((key) -> key.toLowerCase(Locale.ROOT).replace('_', '.'))
			.anyMatch((key) -> key.startsWith("supervisor.children.") || key.startsWith("supervisor.defaults."));
	}

}
