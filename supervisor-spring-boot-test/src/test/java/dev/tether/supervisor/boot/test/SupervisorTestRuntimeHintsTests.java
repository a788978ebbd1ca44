package dev.tether.supervisor.boot.test;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

class SupervisorTestRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	SupervisorTestRuntimeHintsTests() {
		new SupervisorTestRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void theHintsAreRegisteredForAheadOfTimeProcessing() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(SupervisorTestRuntimeHints.class);
	}

	@Test
	void junitCanCreateTheExtension() throws Exception {
		assertThat(this.reflection.onConstructorInvocation(NoChildLeftRunningExtension.class.getConstructor()))
			.accepts(this.hints);
	}

	@Test
	void theAttributesOfAutoConfigureSupervisorCanBeRead() {
		assertThat(this.reflection.onMethodInvocation(AutoConfigureSupervisor.class, "enabled")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(AutoConfigureSupervisor.class, "autostart")).accepts(this.hints);
	}

	@Test
	void nothingElseIsOpenedToReflection() {
		assertThat(this.reflection.onType(SupervisedChildren.class)).rejects(this.hints);
	}

}
