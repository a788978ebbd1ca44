package dev.tether.supervisor.boot.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.Supervisor;

/**
 * The {@code supervisor} health: one component per child, {@code DOWN} when the child is
 * {@code FAILED} (or {@value #DOWN_NON_CRITICAL} for a child that is not
 * {@code critical}, a status Boot's aggregation leaves out, so that it does not turn the
 * composite {@code DOWN}), and {@value #REGISTRY}, whose details say why the registry
 * cannot be saved while that lasts (a full disk: supervision carries on, so it stays
 * {@code UP}).
 */
public class SupervisorHealthContributor implements CompositeHealthContributor {

	/**
	 * The status of a {@code FAILED} child that is not critical. Why not {@code DOWN}:
	 * Boot's status aggregation turns a composite {@code DOWN} when any member is, and
	 * ignores a status code it does not order.
	 */
	public static final String DOWN_NON_CRITICAL = "DOWN_NON_CRITICAL";

	/**
	 * The registry's component: a name no child can have (child names start with a letter
	 * or digit).
	 */
	public static final String REGISTRY = "_registry";

	/**
	 * The component that says why children outlive a JVM killed with SIGKILL, present
	 * only while that is so ({@link Supervisor#parentDeathWarning()}): {@code UP}, since
	 * the children are supervised, with the reason in its {@code warning} detail.
	 */
	public static final String PARENT_DEATH = "_parentDeath";

	private final Supervisor supervisor;

	private final List<ChildDetailsContributor> contributors;

	public SupervisorHealthContributor(Supervisor supervisor) {
		this(supervisor, List.of());
	}

	public SupervisorHealthContributor(Supervisor supervisor, List<ChildDetailsContributor> contributors) {
		this.supervisor = supervisor;
		this.contributors = List.copyOf(contributors);
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		if (REGISTRY.equals(name)) {
			return registryIndicator();
		}
		if (PARENT_DEATH.equals(name)) {
			return this.supervisor.parentDeathWarning()
				.map(SupervisorHealthContributor::parentDeathIndicator)
				.orElse(null);
		}
		return this.supervisor.snapshot(name).map((child) -> indicator(name)).orElse(null);
	}

	@Override
	public Stream<HealthContributors.Entry> stream() {
		Map<String, HealthContributor> contributors = new LinkedHashMap<>();
		this.supervisor.snapshots().forEach((child) -> contributors.put(child.name(), indicator(child.name())));
		contributors.put(REGISTRY, registryIndicator());
		this.supervisor.parentDeathWarning()
			.ifPresent((warning) -> contributors.put(PARENT_DEATH, parentDeathIndicator(warning)));
		return contributors.entrySet()
			.stream()
			.map((entry) -> new HealthContributors.Entry(entry.getKey(), entry.getValue()));
	}

	private HealthIndicator indicator(String name) {
		return () -> this.supervisor.snapshot(name)
			.map((child) -> health(child, ChildDetailsContributor.merged(this.contributors, child)))
			.orElseGet(() -> Health.unknown().build());
	}

	private HealthIndicator registryIndicator() {
		return () -> this.supervisor.registryProblem()
			.map((problem) -> Health.up().withDetail("problem", problem).build())
			.orElseGet(() -> Health.up().build());
	}

	private static HealthIndicator parentDeathIndicator(String warning) {
		return () -> Health.up()
			.withDetail("mechanism", ParentDeathMechanism.NONE.id())
			.withDetail("warning", warning)
			.build();
	}

	static Health health(ChildSnapshot child, Map<String, Object> details) {
		Health.Builder builder = Health.up();
		if (child.state() == ChildState.FAILED) {
			builder = child.critical() ? Health.down() : Health.status(DOWN_NON_CRITICAL);
		}
		builder.withDetail("state", child.state().name()).withDetail("restarts", child.restarts());
		probe(builder, "readiness", child.readiness());
		probe(builder, "liveness", child.liveness());
		if (child.pid() != null) {
			builder.withDetail("pid", child.pid());
		}
		if (child.lastError() != null) {
			builder.withDetail("lastError", child.lastError());
		}
		if (child.lastExit() != null) {
			builder.withDetail("lastExit", child.lastExit().toString());
		}
		if (child.notifyStatus() != null) {
			builder.withDetail("notify", ChildrenEndpoint.NotifyDescriptor.of(child.notifyStatus()));
			if (child.statusText() != null) {
				builder.withDetail("statusText", child.statusText());
			}
		}
		return builder.withDetails(details).build();
	}

	private static void probe(Health.Builder builder, String name, @Nullable ProbeResult result) {
		if (result != null) {
			builder.withDetail(name, Map.of("passed", result.passed(), "detail", result.detail(), "at",
					result.at().toString(), "failures", result.failures()));
		}
	}

}
