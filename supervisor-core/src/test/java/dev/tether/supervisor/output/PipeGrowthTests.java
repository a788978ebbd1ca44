package dev.tether.supervisor.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.os.Posix;
import dev.tether.supervisor.spawn.Spawner;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pipe of a child that keeps it full is grown to 1 MB, so that it can run ahead of the pump; a quiet child's
 * pipe keeps the kernel's default size; no more than 16 pipes are grown at once.
 */
class PipeGrowthTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int GROWN = 1024 * 1024;

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
	void aPipeKeptFullGrowsAndAQuietOneDoesNot() throws Exception {
		// Why a small file without history: the writer runs as fast as the disk takes it until the test ends.
		ChildOutput fast = new ChildOutput("fast",
				new LogSettings(null, true, 1024 * 1024, 0, false, org.slf4j.event.Level.WARN, 1024),
				this.temp.resolve("fast.log"));
		ChildOutput quiet = new ChildOutput("quiet",
				new LogSettings(null, true, 1024 * 1024, 0, false, org.slf4j.event.Level.WARN, 1024),
				this.temp.resolve("quiet.log"));
		// Why dd: writes of 1 MB fill the pipe at once, so the writer stays ahead of the pump.
		long writer = this.spawns.spawnCaptured(fast, "sh", "-c",
				"yes 'a line of a child that never pauses' | dd bs=1M iflag=fullblock status=none").pid();
		long sleeper = this.spawns.spawnCaptured(quiet, "sh", "-c", "echo once; exec sleep 600").pid();
		int quietCapacity = await().atMost(DEADLINE).until(() -> capacityOfStdout(sleeper), (capacity) -> capacity > 0);

		await().atMost(DEADLINE).until(() -> capacityOfStdout(writer), (capacity) -> capacity == GROWN);
		await().atMost(DEADLINE).until(() -> quiet.lines() == 1);
		assertThat(capacityOfStdout(sleeper)).isEqualTo(quietCapacity).isLessThan(GROWN);
		assertThat(fast.lines()).isPositive();
	}

	@Test
	void atMostSixteenPipesAreGrownAtOnce() throws Exception {
		List<Long> writers = new ArrayList<>();
		for (int i = 0; i < 17; i++) {
			ChildOutput output = new ChildOutput("fast-" + i,
					new LogSettings(null, true, 256 * 1024, 0, false, org.slf4j.event.Level.WARN, 1024),
					this.temp.resolve("fast-" + i + ".log"));
			writers.add(this.spawns.spawnCaptured(output, "sh", "-c",
					"yes 'a line of a child that never pauses' | dd bs=1M iflag=fullblock status=none").pid());
		}
		await().atMost(DEADLINE).until(() -> grown(writers) == 16);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> grown(writers) == 16);
	}

	private static long grown(List<Long> writers) throws IOException {
		long grown = 0;
		for (long writer : writers) {
			if (capacityOfStdout(writer) == GROWN) {
				grown++;
			}
		}
		return grown;
	}

	/** The capacity of the pipe a child writes its stdout to, read on the pump's end of it in this JVM. */
	private static int capacityOfStdout(long pid) throws IOException {
		Path pipe = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "fd", "1"));
		try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
			int readEnd = descriptors.filter((descriptor) -> pipe.equals(target(descriptor)))
				.mapToInt((descriptor) -> Integer.parseInt(descriptor.getFileName().toString()))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no end of " + pipe + " in this JVM"));
			return Posix.get().pipeCapacity(readEnd);
		}
	}

	private static Path target(Path descriptor) {
		try {
			return Files.readSymbolicLink(descriptor);
		}
		catch (IOException ex) {
			// Why: descriptors of this JVM come and go while the list is read.
			return Path.of("");
		}
	}

}
