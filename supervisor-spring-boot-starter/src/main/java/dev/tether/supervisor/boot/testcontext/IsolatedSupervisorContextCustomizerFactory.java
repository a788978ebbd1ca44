package dev.tether.supervisor.boot.testcontext;

import java.util.List;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Gives every test context an isolated supervisor; registered in
 * {@code META-INF/spring.factories}.
 */
class IsolatedSupervisorContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new IsolatedSupervisorContextCustomizer();
	}

}
