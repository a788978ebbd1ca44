package dev.tether.supervisor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.output.CapturedOutput;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A supervised child's output, over restarts and under a shepherd, with real children.
 */
class SupervisorOutputTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path state;

	@Test
	void everyRunOfAChildAppendsToItsOneFileAndIsCounted() throws Exception {
		ChildSpec spec = ChildSpec.builder("counter", List.of("sh", "-c", "echo run; exit 3"))
			.restart(RestartPolicy.ALWAYS)
			.backoffInitial(Duration.ofMillis(20))
			.maxRestarts(3)
			.restartWindow(Duration.ofSeconds(30))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("counter").orElseThrow().state() == ChildState.FAILED);
			CapturedOutput output = test.supervisor().output("counter").orElseThrow();
			await().atMost(DEADLINE).until(() -> output.lines() == 4);
			assertThat(output.file()).isEqualTo(this.state.resolve("logs").resolve("counter.log"));
			assertThat(Files.readAllLines(output.file())).containsExactly("run", "run", "run", "run");
			assertThat(output.bytes()).isEqualTo(16);
		}
	}

	@Test
	void aShepherdedChildsDescendantsWriteIntoTheSamePipes() throws Exception {
		ChildSpec spec = ChildSpec
			.builder("family", List.of("sh", "-c", "echo parent; (echo grandchild &); exec sleep 600"))
			.containDescendants(true)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			CapturedOutput output = test.supervisor().output("family").orElseThrow();
			await().atMost(DEADLINE).until(() -> output.lines() == 2);
			assertThat(Files.readAllLines(output.file())).containsExactlyInAnyOrder("parent", "grandchild");
		}
	}

	@Test
	void whatAnEndedProcessLeftInItsPipeIsAwaitedBeforeItsLastLinesAreRead() throws Exception {
		Path go = this.state.resolve("go");
		// Why a descendant in a session of its own that writes once told to: it holds the
		// pipe after the exit (the end of the child's group does not reach it), as a pump
		// still reading a process's last lines does, for as long as the test says. Why
		// the command waits for its ".ready": until then, the end of its group would end
		// the descendant too.
		ChildSpec spec = ChildSpec
			.builder("leaver",
					List.of("sh", "-c",
							"echo first; setsid sh -c 'touch \"$0.ready\"; "
									+ "while [ ! -e \"$0\" ]; do sleep 0.05; done; echo last' \"$0\" & "
									+ "while [ ! -e \"$0.ready\" ]; do sleep 0.01; done; exit 0",
							go.toString()))
			.containDescendants(false)
			.restart(RestartPolicy.NEVER)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("leaver").orElseThrow().state() == ChildState.EXITED);
			CapturedOutput output = test.supervisor().output("leaver").orElseThrow();
			assertThat(output.awaitDrained(Duration.ofMillis(100))).isFalse();
			Files.createFile(go);
			assertThat(output.awaitDrained(DEADLINE)).isTrue();
			assertThat(new String(output.lastLines(10, 4096), StandardCharsets.UTF_8)).isEqualTo("first\nlast\n");
		}
		finally {
			// Why: the descendant is in a session of its own, out of the supervisor's
			// reach, and ends only once told to; an assertion that failed before telling
			// it must not leave it running.
			if (!Files.exists(go)) {
				Files.createFile(go);
			}
		}
	}

	@Test
	void anUnknownChildHasNoOutput() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.state, List.of())) {
			assertThat(test.supervisor().output("nobody")).isEmpty();
		}
	}

}
