package dev.tether.supervisor.boot.test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.Supervisor;

/**
 * The extension behind {@link NoChildLeftRunning}; register it directly with
 * {@code @ExtendWith} or {@code @RegisterExtension} where the annotation does not fit.
 */
public class NoChildLeftRunningExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(NoChildLeftRunningExtension.class);

	// Why this long: a child stopped by the test gets its whole stop ladder before it
	// could count as left running.
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

	@Override
	public void beforeEach(ExtensionContext context) {
		ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
		Supervisor supervisor = applicationContext.getBeanProvider(Supervisor.class).getIfAvailable();
		if (supervisor != null) {
			Set<String> active = Set.copyOf(SupervisedChildren.of(supervisor).active());
			context.getStore(NAMESPACE).put(Before.class, new Before(applicationContext, supervisor, active));
		}
	}

	@Override
	public void afterEach(ExtensionContext context) {
		Before before = context.getStore(NAMESPACE).remove(Before.class, Before.class);
		// Why the check: a context closed right after the test (@DirtiesContext) has
		// stopped every child already.
		if (before == null || (before.context() instanceof ConfigurableApplicationContext configurable
				&& !configurable.isActive())) {
			return;
		}
		SupervisedChildren children = SupervisedChildren.of(before.supervisor());
		List<String> startedByTest = before.supervisor()
			.snapshots()
			.stream()
			.map(ChildSnapshot::name)
			.filter((name) -> !before.active().contains(name))
			.toList();
		children.awaitNoneStopping(startedByTest, STOP_TIMEOUT);
		List<ChildSnapshot> left = startedByTest.stream()
			.map(children::snapshot)
			.filter(SupervisedChildren::isActive)
			.toList();
		if (left.isEmpty()) {
			return;
		}
		String described = left.stream().map(NoChildLeftRunningExtension::describe).collect(Collectors.joining(", "));
		// Why stop them: the context is cached, and the next test must not inherit them.
		String outcomes = left.stream()
			.map((child) -> child.name() + ": " + before.supervisor().stop(child.name()))
			.collect(Collectors.joining(", "));
		children.awaitNoneStopping(startedByTest, STOP_TIMEOUT);
		throw new AssertionError("the test left " + left.size() + " child(ren) of its application context running: "
				+ described + "; stop the children a test starts before it ends (stopped now: " + outcomes + ")");
	}

	private static String describe(ChildSnapshot child) {
		return "'" + child.name() + "' (" + child.state() + ((child.pid() != null) ? ", pid " + child.pid() : "") + ")";
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == SupervisedChildren.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Supervisor supervisor = SpringExtension.getApplicationContext(extensionContext)
			.getBeanProvider(Supervisor.class)
			.getIfAvailable();
		if (supervisor == null) {
			throw new IllegalStateException("the application context of " + extensionContext.getDisplayName()
					+ " has no Supervisor (supervisor.enabled=false?): there are no children to inject");
		}
		return SupervisedChildren.of(supervisor);
	}

	private record Before(ApplicationContext context, Supervisor supervisor, Set<String> active) {
	}

}
