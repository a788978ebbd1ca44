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
import dev.tether.supervisor.Supervisor;

/**
 * The {@code supervisor} health: one component per child, {@code DOWN} when the child is {@code FAILED}, and
 * {@value #REGISTRY}, whose details say why the registry cannot be saved while that lasts (a full disk: supervision
 * carries on, so it stays {@code UP}).
 */
public class SupervisorHealthContributor implements CompositeHealthContributor {

	/** The registry's component: a name no child can have (child names start with a letter or digit). */
	public static final String REGISTRY = "_registry";

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
		return this.supervisor.snapshot(name).map((child) -> indicator(name)).orElse(null);
	}

	@Override
	public Stream<HealthContributors.Entry> stream() {
		Map<String, HealthContributor> contributors = new LinkedHashMap<>();
		this.supervisor.snapshots().forEach((child) -> contributors.put(child.name(), indicator(child.name())));
		contributors.put(REGISTRY, registryIndicator());
		return contributors.entrySet().stream().map((entry) -> new HealthContributors.Entry(entry.getKey(), entry.getValue()));
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

	static Health health(ChildSnapshot child, Map<String, Object> details) {
		Health.Builder builder = (child.state() == ChildState.FAILED) ? Health.down() : Health.up();
		builder.withDetail("state", child.state().name()).withDetail("restarts", child.restarts());
		if (child.pid() != null) {
			builder.withDetail("pid", child.pid());
		}
		if (child.lastError() != null) {
			builder.withDetail("lastError", child.lastError());
		}
		if (child.lastExit() != null) {
			builder.withDetail("lastExit", child.lastExit().toString());
		}
		return builder.withDetails(details).build();
	}

}
