package dev.tether.supervisor.boot.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration.SupervisorSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test that declares the state directory and installation itself keeps them: they win
 * over the isolation, which wins over the application's configuration.
 */
@SpringBootTest(classes = TestApplication.class, properties = "supervisor.installation-id=declared-by-test")
@DirtiesContext
class StateDirectoryDeclaredByTheTestTests {

	private static Path declared;

	@Autowired
	Supervisor supervisor;

	@Autowired
	SupervisorSettings settings;

	@DynamicPropertySource
	static void stateDirectory(DynamicPropertyRegistry registry) throws IOException {
		// Why in the build directory: the context still holds it after the class; the
		// build's clean removes it.
		declared = Files.createTempDirectory(Path.of("target"), "declared-state-");
		registry.add("supervisor.state-directory", declared::toString);
	}

	@Test
	void declaredValuesAreUsed() {
		assertThat(this.supervisor.installationId()).isEqualTo("declared-by-test");
		assertThat(this.settings.stateDirectory()).isEqualTo(declared.toAbsolutePath());
		assertThat(declared.resolve("registry.lock")).exists();
	}

}
