package dev.tether.supervisor.springai;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

class TetherMcpRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

	TetherMcpRuntimeHintsTests() {
		new TetherMcpRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void theHintsAreRegisteredForAheadOfTimeProcessing() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(TetherMcpRuntimeHints.class);
	}

	@Test
	void theMcpSettingsCanBeBoundThroughTheirAccessors() throws Exception {
		assertThat(this.reflection.onConstructorInvocation(McpProperties.class.getDeclaredConstructor()))
			.accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(McpProperties.class, "setTransport")).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(McpProperties.class, "getPath")).accepts(this.hints);
		assertThat(this.reflection.onType(McpTransportType.class)).accepts(this.hints);
		assertThat(this.reflection.onMethodInvocation(McpServersProperties.class, "setServersConfiguration"))
			.accepts(this.hints);
		assertThat(this.reflection.onConstructorInvocation(McpServersFile.class.getDeclaredConstructor()))
			.accepts(this.hints);
	}

	@Test
	void nothingElseOfTheModuleIsOpenedToReflection() {
		assertThat(this.reflection.onType(TetherMcpAutoConfiguration.class)).rejects(this.hints);
	}

}
