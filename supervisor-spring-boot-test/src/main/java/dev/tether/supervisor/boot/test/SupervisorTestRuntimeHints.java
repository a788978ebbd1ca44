package dev.tether.supervisor.boot.test;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What reflection reaches of the test support in tests processed ahead of time
 * ({@code spring-boot:process-test-aot}, then run in a native image): JUnit creates
 * {@link NoChildLeftRunningExtension} from {@link NoChildLeftRunning}'s
 * {@code @ExtendWith}, and Spring Boot's property mapping reads the attributes of
 * {@link AutoConfigureSupervisor}, both by reflection. Registered in
 * {@code META-INF/spring/aot.factories}: the test support has no configuration of its own
 * to import it.
 */
class SupervisorTestRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection()
			.registerType(NoChildLeftRunningExtension.class, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS)
			.registerType(AutoConfigureSupervisor.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

}
