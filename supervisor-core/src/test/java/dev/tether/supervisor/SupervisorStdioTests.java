package dev.tether.supervisor;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A child whose stdin and stdout are the JVM's pipes (an MCP stdio server), with real
 * children: its stderr still goes to its sinks, every process has its own pipes, and
 * nothing is lost or reordered.
 */
@EnabledOnOs(OS.LINUX)
class SupervisorStdioTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final String ECHO = "while read line; do echo \"out $line\"; echo \"err $line\" >&2; done";

	@TempDir
	Path state;

	@Test
	void aStdioChildReadsItsStdinAndWritesItsStdoutInOrderWhileItsStderrGoesToItsLog() throws Exception {
		ChildSpec spec = ChildSpec.builder("echo", List.of("sh", "-c", ECHO)).stdio(true).build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			ChildStdio stdio = test.supervisor().stdio("echo").orElseThrow();
			BufferedReader replies = new BufferedReader(new InputStreamReader(stdio.stdout(), StandardCharsets.UTF_8));
			OutputStream requests = stdio.stdin();
			CompletableFuture<List<String>> read = CompletableFuture
				.supplyAsync(() -> replies.lines().limit(2000).toList());
			for (int i = 0; i < 2000; i++) {
				requests.write(("line-" + i + "\n").getBytes(StandardCharsets.UTF_8));
			}
			requests.flush();
			List<String> lines = read.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(lines).hasSize(2000);
			for (int i = 0; i < 2000; i++) {
				assertThat(lines.get(i)).isEqualTo("out line-" + i);
			}
			Path log = test.supervisor().output("echo").orElseThrow().file();
			await().atMost(DEADLINE).until(() -> Files.readAllLines(log).size() == 2000);
			assertThat(Files.readAllLines(log)).first().isEqualTo("err line-0");
		}
	}

	@Test
	void aRestartedStdioChildHasNewPipesAndTheOldOnesEnd() throws Exception {
		ChildSpec spec = ChildSpec.builder("echo", List.of("sh", "-c", ECHO))
			.stdio(true)
			.restart(RestartPolicy.ALWAYS)
			.backoffInitial(Duration.ofMillis(20))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			ChildStdio first = test.supervisor().stdio("echo").orElseThrow();
			// Why awaited: under a shepherd the pid shown is the command's, known once
			// the shepherd has forked it.
			long pid = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("echo").orElseThrow().pid(), Objects::nonNull);
			new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
			assertThat(first.stdout().read()).as("end of the first process's stdout").isEqualTo(-1);
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().stdio("echo").orElseThrow() != first
						&& test.supervisor().snapshot("echo").orElseThrow().state() == ChildState.RUNNING);
			ChildStdio second = test.supervisor().stdio("echo").orElseThrow();
			second.stdin().write("again\n".getBytes(StandardCharsets.UTF_8));
			second.stdin().flush();
			BufferedReader replies = new BufferedReader(new InputStreamReader(second.stdout(), StandardCharsets.UTF_8));
			assertThat(replies.readLine()).isEqualTo("out again");
		}
	}

	@Test
	void aStdioChildThatClosesItsStdoutAndRunsOnIsSeenAtOnce() throws Exception {
		ChildSpec spec = ChildSpec.builder("closer", List.of("sh", "-c", "echo hello; exec 1>&-; exec sleep 600"))
			.stdio(true)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			ChildStdio stdio = test.supervisor().stdio("closer").orElseThrow();
			BufferedReader replies = new BufferedReader(new InputStreamReader(stdio.stdout(), StandardCharsets.UTF_8));
			assertThat(replies.readLine()).isEqualTo("hello");
			// Why a bound: before, the shepherd held the pipe's write end, and this read
			// waited as long as the child ran.
			String end = CompletableFuture.supplyAsync(() -> {
				try {
					return replies.readLine();
				}
				catch (java.io.IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			}).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(end).as("end of stdout").isNull();
			assertThat(test.supervisor().snapshot("closer").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
		}
	}

	@Test
	void aRunningChildFoundBrokenIsRestartedThroughTheStopLadderWithTheReason() throws Exception {
		ChildSpec spec = ChildSpec.builder("broken", List.of("sleep", "600"))
			.restart(RestartPolicy.ALWAYS)
			.backoffInitial(Duration.ofMillis(20))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			ChildSnapshot before = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("broken").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING && child.pid() != null);
			assertThat(test.supervisor().restartFailed("broken", before.startedAt().minusSeconds(1), "older"))
				.as("another process than the one running")
				.isFalse();
			assertThat(test.supervisor().restartFailed("broken", before.startedAt(), "its session broke")).isTrue();
			ChildSnapshot after = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("broken").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING && child.startedAt() != null
								&& child.startedAt().isAfter(before.startedAt()));
			assertThat(after.lastError()).contains("its session broke");
		}
	}

	@Test
	void aChildWithoutStdioHasNoPipes() throws Exception {
		ChildSpec spec = ChildSpec.builder("plain", List.of("sleep", "600")).build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(spec))) {
			test.supervisor().startAutostart();
			assertThat(test.supervisor().stdio("plain")).isEmpty();
		}
	}

}
