package dev.tether.supervisor.boot.testcontext;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Adds an {@link IsolatedSupervisorPropertySource} to a test context, below the
 * properties the test declares and above everything else, and removes its state directory
 * when the context is closed or fails to start.
 * <p>
 * Holds no state: every instance is equal, so it does not split Spring's context cache.
 */
class IsolatedSupervisorContextCustomizer implements ContextCustomizer {

	private static final String DISPOSER_NAME = IsolatedSupervisorPropertySource.NAME + ".disposer";

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		IsolatedSupervisorPropertySource isolation = new IsolatedSupervisorPropertySource(
				context.getEnvironment().getProperty("spring.application.name"));
		MutablePropertySources sources = context.getEnvironment().getPropertySources();
		// Why just above the system properties: the test's own settings (@SpringBootTest
		// properties,
		// @TestPropertySource, @DynamicPropertySource) sit above them and win, while the
		// application's configuration
		// files and the developer's environment, which name the real state directory and
		// installation, sit below.
		if (sources.contains(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			sources.addBefore(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, isolation);
		}
		else {
			sources.addLast(isolation);
		}
		// Why a disposable bean: it is destroyed after the supervisor (registered first,
		// destroyed last), also when the refresh fails, where no ContextClosedEvent is
		// published.
		if (context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry) {
			registry.registerDisposableBean(DISPOSER_NAME, isolation::deleteStateDirectory);
		}
		else {
			context.addApplicationListener((ContextClosedEvent event) -> isolation.deleteStateDirectory());
		}
	}

	@Override
	public boolean equals(Object other) {
		return other != null && other.getClass() == getClass();
	}

	@Override
	public int hashCode() {
		return getClass().hashCode();
	}

}
