package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.LogSettings;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many children that each write a line now and then, with real children: the pump's
 * readers rest after a turn that found little, so the lines gather in the pipes and are
 * read many at a time, and none is lost.
 */
class ChattyChildrenTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final int CHILDREN = 20;

	private static final int LINES = 1000;

	/**
	 * A line, then a wait of a millisecond on a pipe nobody writes to: bash's
	 * {@code read -t} paces the child without starting a process per line.
	 */
	private static final String[] CHATTY = { "bash", "-c", "exec 3<> <(:); for ((i = 0; i < " + LINES
			+ "; i++)); do echo \"line $i of a chatty child\"; read -t 0.001 -u 3; done" };

	@TempDir
	Path temp;

	private TestSpawns spawns;

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
	}

	@Test
	void linesOfManyChattyChildrenAreReadManyAtATimeAndAllArrive() throws Exception {
		List<ChildOutput> outputs = new ArrayList<>();
		for (int child = 0; child < CHILDREN; child++) {
			outputs.add(new ChildOutput("chatty-" + child, fileOnly(), this.temp.resolve("chatty-" + child + ".log")));
		}
		Map<String, Long> before = readsByThread();
		long started = System.nanoTime();
		for (ChildOutput output : outputs) {
			this.spawns.spawnCaptured(output, CHATTY);
		}
		await().atMost(DEADLINE).until(() -> outputs.stream().allMatch((output) -> output.lines() == LINES));
		long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
		Map<String, Long> after = readsByThread();
		// Why a thread not there before counts whole: the pump starts its readers at its
		// first pipe, which may be this test's.
		long reads = after.entrySet()
			.stream()
			.mapToLong((thread) -> thread.getValue() - before.getOrDefault(thread.getKey(), 0L))
			.sum();
		// Why this bound: a reader makes at most one small read a millisecond (the
		// deleter, counted among the pump's threads, makes none), and the lines' bytes
		// (30 KB a child) fill few large ones; without the rests, each line costs a read
		// of its own as long as the readers keep up: 20,000 over about a second.
		long allowed = after.size() * (elapsedMillis + 2) + 4L * CHILDREN;
		assertThat(reads).as("reads of %d lines in %d ms", CHILDREN * LINES, elapsedMillis).isLessThan(allowed);
		for (ChildOutput output : outputs) {
			List<String> lines = Files.readAllLines(output.file());
			assertThat(lines).hasSize(LINES)
				.startsWith("line 0 of a chatty child")
				.endsWith("line " + (LINES - 1) + " of a chatty child");
		}
	}

	/** Each pump thread's read system calls so far, by thread id. */
	private static Map<String, Long> readsByThread() throws IOException {
		return PumpThreads.readEach((task) -> Map.entry(task.getFileName().toString(), readCalls(task)))
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
	}

	private static long readCalls(Path task) throws IOException {
		return Files.readAllLines(task.resolve("io"))
			.stream()
			.filter((line) -> line.startsWith("syscr:"))
			.mapToLong((line) -> Long.parseLong(line.substring("syscr:".length()).trim()))
			.findFirst()
			.orElseThrow(() -> new IOException("no syscr line in " + task.resolve("io")));
	}

	private static LogSettings fileOnly() {
		return new LogSettings(null, true, 10L * 1024 * 1024, 1, false, org.slf4j.event.Level.WARN, 1024);
	}

}
