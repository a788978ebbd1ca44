package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A state directory that another user could change, or that another supervisor uses,
 * fails startup naming {@code supervisor.state-directory}.
 */
@EnabledOnOs(OS.LINUX)
class UnsafeStateDirectoryTests {

	@TempDir
	Path temp;

	@Test
	void stateDirectoryInsideAWorldWritableDirectoryFailsStartupNamingTheProperty() throws Exception {
		Path shared = Files.createDirectory(this.temp.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		assertStartupFailsNamingTheStateDirectory(shared.resolve("state"),
				shared + " is writable by its group or by others (mode 0777)");
		assertThat(shared.resolve("state")).doesNotExist();
	}

	@Test
	void stateDirectoryInUseByAnotherSupervisorFailsStartupNamingTheProperty() {
		try (FileChildRegistry holder = FileChildRegistry.open(this.temp.resolve("state"))) {
			assertStartupFailsNamingTheStateDirectory(this.temp.resolve("state"),
					"already used by another supervisor in this JVM");
		}
	}

	private void assertStartupFailsNamingTheStateDirectory(Path stateDirectory, String problem) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + stateDirectory,
					"supervisor.installation-id=" + TestRun.installationId("unsafe"))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).as(() -> String.valueOf(context.getStartupFailure())).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: supervisor.state-directory\n")
					.contains(problem);
				assertThat(analysis.getAction()).contains("supervisor.state-directory");
			});
	}

}
