package dev.tether.supervisor.boot;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.annotation.MergedAnnotations;

import dev.tether.supervisor.registry.RegistryRow;

import static org.assertj.core.api.Assertions.assertThat;

class SupervisorRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	SupervisorRuntimeHintsTests() {
		new SupervisorRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void theAutoConfigurationImportsTheHints() {
		assertThat(MergedAnnotations.from(SupervisorAutoConfiguration.class)
			.get(ImportRuntimeHints.class)
			.getClassArray("value")).containsExactly(SupervisorRuntimeHints.class);
	}

	@Test
	void everyPropertiesClassCanBeBoundThroughItsAccessors() {
		assertThat(this.reflection.onMethodInvocation(SupervisorProperties.class, "setInstallationId"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(SupervisorProperties.class, "getChildren")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(SupervisorProperties.Reconcile.class, "getOrphans"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildProperties.class, "setCommand")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildBackoffProperties.class, "getInitial")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildLimitsProperties.class, "getOpenFiles")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildLogProperties.class, "getFile")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildSocketActivationProperties.class, "setFd"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(LivenessProperties.class, "getFailureThreshold"))
			.accepts(this.hints);
	}

	@Test
	void theRegistryFileCanBeWrittenFromItsRecords() throws Exception {
		assertThat(this.reflection.onType(TypeReference.of(SupervisorRuntimeHints.REGISTRY_FILE))).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(SupervisorRuntimeHints.REGISTRY_FILE, "rows"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(RegistryRow.class, "startTime")).accepts(this.hints);
	}

	@Test
	void theLauncherOfEachArchitectureCanBeExtracted() {
		assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/tether/native/linux-amd64/tether-launcher"))
			.accepts(this.hints);
		assertThat(
				RuntimeHintsPredicates.resource().forResource("META-INF/tether/native/linux-aarch64/tether-launcher"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/tether/native/linux-amd64/other"))
			.rejects(this.hints);
	}

	@Test
	void nothingElseOfTheStarterIsOpenedToReflection() {
		assertThat(this.reflection.onType(SupervisorAutoConfiguration.class)).rejects(this.hints);
	}

}
