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

import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A state directory that another user could change fails startup, naming {@code supervisor.state-directory} and the
 * directory at fault.
 */
@EnabledOnOs(OS.LINUX)
class UnsafeStateDirectoryTests {

	@TempDir
	Path temp;

	@Test
	void stateDirectoryInsideAWorldWritableDirectoryFailsStartupNamingTheProperty() throws Exception {
		Path shared = Files.createDirectory(this.temp.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + shared.resolve("state"),
					"supervisor.installation-id=" + TestRun.installationId("unsafe"))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidSupervisorConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).as(() -> String.valueOf(context.getStartupFailure())).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: supervisor.state-directory\n")
					.contains(shared + " is writable by its group or by others (mode 0777)");
				assertThat(analysis.getAction()).contains("supervisor.state-directory");
			});
		assertThat(shared.resolve("state")).doesNotExist();
	}

}
