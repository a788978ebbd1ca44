package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sampler reads its tree through files it keeps open: what it reads is the processes'
 * state as of each sample (new children, growing CPU time), a process that ended is
 * dropped with its files, and a list of children longer than its buffer and than a page
 * is read whole. Real processes, started by {@link ProcessBuilder} (no shepherd).
 */
@EnabledOnOs(OS.LINUX)
class TreeSamplerTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private Process root;

	@AfterEach
	void killTree() {
		if (this.root != null) {
			this.root.descendants().forEach(ProcessHandle::destroyForcibly);
			this.root.destroyForcibly();
		}
	}

	@Test
	void keptFilesReadNewChildrenAndGrowingCpuTimeThenCloseWhenTheRootEnds() throws Exception {
		// A busy loop that forks two sleeps once it has run a while, then waits for them
		// (reaping each as it ends).
		this.root = start("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 600 & sleep 600 & wait");
		try (TreeSampler sampler = new TreeSampler()) {
			TreeSampler.TreeUsage first = sampler.sample(this.root.pid(), false, this.root.pid()).orElseThrow();
			assertThat(openInto(this.root.pid())).as("stat, statm, children and fd of the root").isEqualTo(4);
			assertThat(sampler.keepsFiles()).isTrue();
			TreeSampler.TreeUsage later = await().atMost(DEADLINE)
				.until(() -> sampler.sample(this.root.pid(), false, -1).orElseThrow(),
						(usage) -> usage.processes() == 3 && usage.cpuNanos() > first.cpuNanos());
			assertThat(later.residentBytes()).isPositive();
			long sleep = this.root.children().findFirst().orElseThrow().pid();
			assertThat(openInto(this.root.pid())).isPositive();
			assertThat(openInto(sleep)).isPositive();
			ProcessHandle.of(sleep).orElseThrow().destroyForcibly();
			await().atMost(DEADLINE)
				.until(() -> sampler.sample(this.root.pid(), false, -1).orElseThrow().processes() == 2);
			assertThat(openInto(sleep)).as("files of an ended process").isZero();
			this.root.descendants().forEach(ProcessHandle::destroyForcibly);
			this.root.destroyForcibly();
			this.root.waitFor();
			assertThat(sampler.sample(this.root.pid(), false, -1)).isEmpty();
			assertThat(openInto(this.root.pid())).as("files of the ended root").isZero();
			assertThat(sampler.keepsFiles()).isFalse();
		}
	}

	@Test
	void aListOfChildrenLongerThanAPageIsReadWhole() throws Exception {
		int children = 1200;
		this.root = start("i=0; while [ $i -lt " + children + " ]; do sleep 600 & i=$((i+1)); done; wait");
		try (TreeSampler sampler = new TreeSampler()) {
			await().atMost(DEADLINE).until(() -> this.root.children().count() == children);
			assertThat(Files.readString(Path.of("/proc/" + this.root.pid() + "/task/" + this.root.pid() + "/children")))
				.hasSizeGreaterThan(4096);
			TreeSampler.TreeUsage usage = sampler.sample(this.root.pid(), false, this.root.pid()).orElseThrow();
			assertThat(usage.processes()).isEqualTo(children + 1);
		}
		assertThat(openInto(this.root.pid())).isZero();
	}

	@Test
	void zombiesAreCountedApartFromLiveProcesses() throws Exception {
		// A parent that never waits: its 50 children end at once and stay zombies.
		this.root = new ProcessBuilder("python3", "-c",
				"import os, time\nfor _ in range(50):\n    if os.fork() == 0:\n        os._exit(0)\ntime.sleep(600)")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		try (TreeSampler sampler = new TreeSampler()) {
			TreeSampler.TreeUsage usage = await().atMost(DEADLINE)
				.until(() -> sampler.sample(this.root.pid(), false, -1).orElseThrow(), (u) -> u.zombies() == 50);
			assertThat(usage.processes()).isEqualTo(1);
		}
	}

	@Test
	void aShepherdsOwnProcessAndMemoryAreNotCounted() throws Exception {
		this.root = start("sleep 600 & wait");
		try (TreeSampler sampler = new TreeSampler()) {
			TreeSampler.TreeUsage usage = await().atMost(DEADLINE)
				.until(() -> sampler.sample(this.root.pid(), true, -1).orElseThrow(), (u) -> u.processes() == 1);
			assertThat(usage.descriptors()).isEqualTo(-1);
			TreeSampler.TreeUsage counted = sampler.sample(this.root.pid(), false, -1).orElseThrow();
			assertThat(counted.processes()).isEqualTo(2);
			assertThat(counted.residentBytes()).isGreaterThan(usage.residentBytes());
		}
	}

	private static Process start(String script) throws IOException {
		return new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
	}

	/** How many of this JVM's descriptors point into {@code /proc/<pid>/}. */
	private static int openInto(long pid) throws IOException {
		int count = 0;
		try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
			for (Path fd : fds) {
				try {
					if (Files.readSymbolicLink(fd).toString().startsWith("/proc/" + pid + "/")) {
						count++;
					}
				}
				catch (IOException ex) {
					// Closed meanwhile: not open.
				}
			}
		}
		return count;
	}

}
