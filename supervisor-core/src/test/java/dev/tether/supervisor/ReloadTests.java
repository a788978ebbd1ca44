package dev.tether.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link Supervisor#reload}: a real child that traps its reload signal writes what it
 * received, and keeps its pid and its state.
 */
@EnabledOnOs(OS.LINUX)
class ReloadTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	@TempDir
	Path temp;

	@Test
	void aRunningChildGetsItsReloadSignalAndStaysRunningWithItsPid() throws Exception {
		for (boolean shepherd : new boolean[] { true, false }) {
			Path received = this.temp.resolve("received-" + shepherd);
			ChildSpec spec = reloading("reloads", received).containDescendants(shepherd).build();
			try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state-" + shepherd), List.of(spec))) {
				test.supervisor().start("reloads");
				long pid = awaitRunningWithTrap(test, "reloads", received);
				ChildSnapshot reloaded = test.supervisor().reload("reloads");
				assertThat(reloaded.state()).isEqualTo(ChildState.RUNNING);
				await().atMost(DEADLINE).until(() -> Files.readString(received).contains("HUP"));
				assertThat(test.supervisor().snapshot("reloads").orElseThrow().pid()).isEqualTo(pid);
				assertThat(test.supervisor().snapshot("reloads").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
			}
		}
	}

	@Test
	void theReloadSignalIsTheChildsOwn() throws Exception {
		Path received = this.temp.resolve("received");
		ChildSpec spec = reloading("usr1", received).reloadSignal(Signals.number("USR1")).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("usr1");
			awaitRunningWithTrap(test, "usr1", received);
			test.supervisor().reload("usr1");
			await().atMost(DEADLINE).until(() -> Files.readString(received).contains("USR1"));
			assertThat(Files.readString(received)).doesNotContain("HUP");
		}
	}

	@Test
	void aChildThatIsNotRunningIsNotReloadedAndTheErrorSaysWhy() throws Exception {
		ChildSpec spec = ChildSpec.builder("idle", List.of("sleep", "600")).autostart(false).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			assertThatIllegalStateException().isThrownBy(() -> test.supervisor().reload("idle"))
				.withMessageContaining("child 'idle' is STOPPED");
		}
	}

	/**
	 * A shell that writes the name of each signal it traps to {@code received}, and says
	 * it is ready by creating it.
	 */
	private static ChildSpecBuilder reloading(String name, Path received) {
		String script = "trap 'echo HUP >> \"$1\"' HUP; trap 'echo USR1 >> \"$1\"' USR1; : > \"$1\"; "
				+ "while :; do sleep 0.1; done";
		return ChildSpec.builder(name, List.of("sh", "-c", script, "reloading", received.toString()));
	}

	private static long awaitRunningWithTrap(TestSupervisor test, String name, Path received) {
		await().atMost(DEADLINE).until(() -> Files.exists(received));
		return await().atMost(DEADLINE)
			.until(() -> test.supervisor().snapshot(name).orElseThrow(),
					(child) -> child.state() == ChildState.RUNNING && child.pid() != null)
			.pid();
	}

}
