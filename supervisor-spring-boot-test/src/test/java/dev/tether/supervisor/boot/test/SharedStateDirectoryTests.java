package dev.tether.supervisor.boot.test;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.registry.RegistryLockedException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two contexts in one JVM told to share a state directory: the second is told that the
 * holder is this JVM.
 */
class SharedStateDirectoryTests {

	@TempDir
	Path state;

	@Test
	void secondContextOnTheSameStateDirectoryFailsSayingTheHolderIsThisJvm() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.state,
					"supervisor.installation-id=tether-shared-state-test");
		runner.run((first) -> {
			assertThat(first).hasNotFailed();
			runner.run((second) -> assertThat(second).getFailure()
				.rootCause()
				.isInstanceOf(RegistryLockedException.class)
				.hasMessageContaining(this.state.toString())
				.hasMessageContaining("another supervisor in this JVM (pid " + ProcessHandle.current().pid() + ")"));
		});
	}

}
