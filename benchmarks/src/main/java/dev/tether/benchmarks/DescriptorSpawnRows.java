package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import dev.tether.supervisor.internal.resources.ThisProcess;

/**
 * What a spawn costs beside the descriptors the JVM holds open: a spawned child starts
 * with a copy of the JVM's descriptor table and closes every inherited descriptor before
 * its {@code exec} ({@code posix_spawn_file_actions_addclosefrom_np}), so each one the
 * JVM holds is copied and closed once per spawn. A supervisor's own children raise that
 * count: each running child holds its exit's pidfd and its output pipe, and the resource
 * sampler keeps files of up to a quarter of the limit.
 */
final class DescriptorSpawnRows {

	private static final List<String> SLEEPER = List.of("/bin/sleep", "600");

	private static final int[] HELD = { 0, 4_000, 8_000, 16_000 };

	/** The descriptors left to the JVM and the spawns beside the most held. */
	private static final int ROOM = 2_000;

	private final Results results;

	private final Subject spawner;

	DescriptorSpawnRows(Results results, Subject spawner) {
		this.results = results;
		this.spawner = spawner;
	}

	/**
	 * {@code n} long-lived spawns with {@link #HELD} extra descriptors open (of
	 * {@code /dev/null}), each count measured twice, ascending then descending, so that a
	 * drift of the machine's speed over the round weighs on every count alike; the time
	 * per spawn, and its ratio to the time beside none.
	 */
	void spawnCost(int n) throws Exception {
		long soft = ThisProcess.softLimits().getOrDefault("Max open files", -1L);
		if (soft < HELD[HELD.length - 1] + ROOM) {
			System.err.println("  spawn beside held descriptors skipped: the soft limit of open files is " + soft
					+ ", and the row holds " + HELD[HELD.length - 1] + " with " + ROOM + " to spare");
			return;
		}
		double[] micros = new double[HELD.length];
		List<FileChannel> held = new ArrayList<>();
		// Why one pass first, not counted: the JIT's first compilations of the spawn path
		// would weigh on the count measured first.
		microsPerSpawn(n);
		try {
			for (int pass = 0; pass < 2 * HELD.length; pass++) {
				int index = (pass < HELD.length) ? pass : 2 * HELD.length - 1 - pass;
				hold(held, HELD[index]);
				micros[index] += microsPerSpawn(n) / 2;
			}
		}
		finally {
			hold(held, 0);
		}
		String metric = "Long-lived spawn (Tether, no shepherd) beside descriptors the JVM holds open, N=" + n;
		for (int i = 0; i < HELD.length; i++) {
			this.results.add(metric, "µs per spawn, lower is better", HELD[i] + " held", micros[i]);
		}
		String ratio = "Long-lived spawn time beside descriptors held ÷ beside none, N=" + n;
		for (int i = 1; i < HELD.length; i++) {
			this.results.add(ratio, "ratio", HELD[i] + " held", micros[i] / micros[0]);
		}
	}

	private double microsPerSpawn(int n) throws Exception {
		return this.spawner.timeStarts(SLEEPER, n) / 1e3 / n;
	}

	private static void hold(List<FileChannel> held, int count) throws IOException {
		while (held.size() > count) {
			held.remove(held.size() - 1).close();
		}
		while (held.size() < count) {
			held.add(FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ));
		}
	}

}
