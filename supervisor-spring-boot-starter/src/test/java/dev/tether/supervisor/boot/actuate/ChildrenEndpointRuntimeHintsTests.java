package dev.tether.supervisor.boot.actuate;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.annotation.MergedAnnotations;

import dev.tether.supervisor.SpawnFeatures;

import static org.assertj.core.api.Assertions.assertThat;

class ChildrenEndpointRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	ChildrenEndpointRuntimeHintsTests() {
		new ChildrenEndpointRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void theAutoConfigurationImportsTheHints() {
		assertThat(MergedAnnotations.from(SupervisorEndpointAutoConfiguration.class)
			.get(ImportRuntimeHints.class)
			.getClassArray("value")).containsExactly(ChildrenEndpointRuntimeHints.class);
	}

	@Test
	void everyRecordOfTheAnswerCanBeWrittenFromItsComponents() {
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ChildrenDescriptor.class, "children"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ChildrenDescriptor.class, "nativeBackend"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ReconciliationDescriptor.class, "ours"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(SpawnFeatures.class, "closeDescriptors")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ChildDescriptor.class, "lastExit"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ExitCodesDescriptor.class, "restartPrevent"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ExitDescriptor.class, "code"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.SocketActivationDescriptor.class, "heldBy"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ProbeDescriptor.class, "passed"))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(ChildrenEndpoint.ResourcesDescriptor.class, "memoryBytes"))
			.accepts(this.hints);
	}

}
