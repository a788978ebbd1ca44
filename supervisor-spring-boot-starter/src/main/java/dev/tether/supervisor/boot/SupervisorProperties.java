package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import dev.tether.supervisor.OrphanPolicy;

/**
 * Configuration of Tether's supervisor and of the children it runs.
 */
@ConfigurationProperties("supervisor")
public class SupervisorProperties {

	/**
	 * Whether to supervise the configured children.
	 */
	private boolean enabled = true;

	/**
	 * Id written into every child's environment; it tells this application's children
	 * from any other's. Defaults to spring.application.name, else 'default'.
	 */
	private @Nullable String installationId;

	/**
	 * Directory of the registry, its lock and the child logs. Defaults to
	 * $XDG_STATE_HOME/tether/<installation-id> (~/.local/state/tether/<installation-id>).
	 */
	private @Nullable Path stateDirectory;

	/**
	 * Period of the supervision tick (due restarts, readiness, deadlines, and a backstop
	 * for exits). Between 10ms and 1h.
	 */
	private @Nullable Duration tickInterval;

	/**
	 * The former name of 'tick-interval'.
	 */
	private @Nullable Duration reapInterval;

	/**
	 * Signal a child receives when the JVM dies (TERM, KILL, ... or a number); NONE
	 * disables it.
	 */
	private @Nullable String parentDeathSignal = "TERM";

	private final Reconcile reconcile = new Reconcile();

	/**
	 * Descriptors a child's start must leave to the application (the JDK, the web server,
	 * pools, logging). Defaults to the larger of 1024 and a tenth of the soft
	 * RLIMIT_NOFILE (raised to the hard limit at start).
	 */
	private @Nullable Long descriptorReserve;

	/**
	 * What startup does when the autostarted children do not fit in the descriptor
	 * budget: fail with the numbers, or start those that fit and refuse the others.
	 */
	private DescriptorBudgetPolicy descriptorBudget = DescriptorBudgetPolicy.FAIL_FAST;

	/**
	 * Settings every child inherits unless it sets its own (all but 'command').
	 */
	@NestedConfigurationProperty
	private final ChildProperties defaults = new ChildProperties();

	/**
	 * The children to supervise, by name.
	 */
	private final Map<String, ChildProperties> children = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getInstallationId() {
		return this.installationId;
	}

	public void setInstallationId(@Nullable String installationId) {
		this.installationId = installationId;
	}

	public @Nullable Path getStateDirectory() {
		return this.stateDirectory;
	}

	public void setStateDirectory(@Nullable Path stateDirectory) {
		this.stateDirectory = stateDirectory;
	}

	public @Nullable Duration getTickInterval() {
		return this.tickInterval;
	}

	public void setTickInterval(@Nullable Duration tickInterval) {
		this.tickInterval = tickInterval;
	}

	// Why kept: renamed in 0.4.0, the old name works for one release, with a warning.
	@Deprecated(since = "0.4.0")
	@DeprecatedConfigurationProperty(replacement = "supervisor.tick-interval", since = "0.4.0")
	public @Nullable Duration getReapInterval() {
		return this.reapInterval;
	}

	@Deprecated(since = "0.4.0")
	public void setReapInterval(@Nullable Duration reapInterval) {
		this.reapInterval = reapInterval;
	}

	public @Nullable String getParentDeathSignal() {
		return this.parentDeathSignal;
	}

	public void setParentDeathSignal(@Nullable String parentDeathSignal) {
		this.parentDeathSignal = parentDeathSignal;
	}

	public @Nullable Long getDescriptorReserve() {
		return this.descriptorReserve;
	}

	public void setDescriptorReserve(@Nullable Long descriptorReserve) {
		this.descriptorReserve = descriptorReserve;
	}

	public DescriptorBudgetPolicy getDescriptorBudget() {
		return this.descriptorBudget;
	}

	public void setDescriptorBudget(DescriptorBudgetPolicy descriptorBudget) {
		this.descriptorBudget = descriptorBudget;
	}

	public Reconcile getReconcile() {
		return this.reconcile;
	}

	public ChildProperties getDefaults() {
		return this.defaults;
	}

	public Map<String, ChildProperties> getChildren() {
		return this.children;
	}

	/**
	 * What happens at start to what a previous run left behind.
	 */
	public static class Reconcile {

		/**
		 * What to do with a verified child of a previous run: stop it, or adopt it.
		 */
		private OrphanPolicy orphans = OrphanPolicy.STOP;

		public OrphanPolicy getOrphans() {
			return this.orphans;
		}

		public void setOrphans(OrphanPolicy orphans) {
			this.orphans = orphans;
		}

	}

}
