package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * What a child's tree uses, sampled from {@code /proc} for real processes, and
 * {@code max-memory} restarting a tree that keeps more.
 */
@EnabledOnOs(OS.LINUX)
class ResourceLimitsTests {

	// Why generous: the machine is shared; a memory restart takes two samples a second
	// apart, then a stop.
	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final String BUSY = "while :; do :; done";

	@TempDir
	Path temp;

	@Test
	void aTreeOfThreeCountsEveryProcessItsCpuAndItsMemory() throws Exception {
		ChildSpec spec = ChildSpec
			.builder("busy", List.of("/bin/sh", "-c", "sh -c '" + BUSY + "' & sh -c '" + BUSY + "' & wait"))
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			long command = await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("busy").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING && child.shepherdPid() != null
								&& !child.pid().equals(child.shepherdPid()) && children(child.pid()).size() == 2)
				.pid();
			List<Long> tree = new ArrayList<>(children(command));
			tree.add(command);
			ChildUsage first = usage(supervisor);
			long procFirst = cpuTicks(tree);
			long start = System.nanoTime();
			// Why a window of seconds, measured against /proc: a loaded machine may not
			// give the two busy loops two cores, so the rate is compared with what the
			// kernel counted for those processes over the same window.
			await("a window of 3 s").atMost(DEADLINE).until(() -> System.nanoTime() - start >= 3_000_000_000L);
			ChildUsage second = usage(supervisor);
			long procSecond = cpuTicks(tree);
			double seconds = (System.nanoTime() - start) / 1e9;
			double counted = (second.cpuTime().toNanos() - first.cpuTime().toNanos()) / 1e9;
			double kernel = (procSecond - procFirst) / 100.0;
			System.out.printf("busy tree: %.2f CPU-s/s counted, %.2f CPU-s/s by /proc of its pids%n", counted / seconds,
					kernel / seconds);
			assertThat(counted).isCloseTo(kernel, within(kernel * 0.2 + 0.1));
			assertThat(kernel / seconds).as("CPU-seconds per second of two busy loops").isGreaterThan(0.2);
			assertThat(second.processes()).isEqualTo(3);
			assertThat(second.openDescriptors()).isNotNull().isPositive();
			long rss = 0;
			for (long pid : tree) {
				rss += vmRss(pid);
			}
			assertThat((double) usage(supervisor).residentMemory()).isCloseTo(rss, within(rss * 0.1));
		}
	}

	@Test
	void aTreeAboveMaxMemoryIsRestartedSayingWhyAndOneBelowIsLeftAlone() throws Exception {
		// Writes 64 MB (so that every page is resident), then waits.
		ChildSpec grows = ChildSpecs.restartedForever("grows",
				List.of("python3", "-c", "import time\nb = b'x' * (64 * 1024 * 1024)\ntime.sleep(600)\n"),
				Duration.ofMillis(200));
		grows = ChildSpec.builder(grows.name(), grows.command())
			.restart(grows.restart())
			.backoff(grows.backoff())
			.maxRestarts(grows.maxRestarts())
			.restartWindow(grows.restartWindow())
			.resources(ResourceLimits.builder().maxMemory(32L * 1024 * 1024).build())
			.build();
		ChildSpec small = ChildSpec.builder("small", List.of("sleep", "600"))
			.resources(ResourceLimits.builder().maxMemory(32L * 1024 * 1024).build())
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(grows, small))) {
			supervisor.supervisor().startAutostart();
			ChildSnapshot restarted = await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("grows").orElseThrow(), (child) -> child.restarts() >= 1);
			assertThat(supervisor.events("grows", ChildEvent.Type.EXITED)).first()
				.satisfies((exited) -> assertThat(exited.error())
					.matches("max-memory exceeded: resident memory [0-9.]+MB above 32MB \\(2 samples in a row\\)"));
			assertThat(restarted.restarts()).isPositive();
			assertThat(supervisor.supervisor().usage("grows").orElseThrow().maxMemoryRestarts()).isPositive();
			ChildSnapshot left = supervisor.supervisor().snapshot("small").orElseThrow();
			assertThat(left.state()).isEqualTo(ChildState.RUNNING);
			assertThat(left.restarts()).isZero();
			assertThat(supervisor.supervisor().usage("small").orElseThrow().maxMemoryRestarts()).isZero();
		}
	}

	@Test
	void aSigkillTetherDidNotSendIsNamedInLastExitAndOneOfItsOwnStopsIsNot() throws Exception {
		ChildSpec killed = ChildSpec.builder("killed", List.of("sleep", "600")).restart(RestartPolicy.NEVER).build();
		// Why a trap: TERM is ignored, so the stop ladder ends it with its own SIGKILL.
		ChildSpec stubborn = ChildSpec
			.builder("stubborn", List.of("/bin/sh", "-c", "trap '' TERM; sleep 600 & wait; wait"))
			.restart(RestartPolicy.NEVER)
			.stopTimeout(Duration.ofMillis(500))
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(killed, stubborn))) {
			supervisor.supervisor().startAutostart();
			long oomKillsBefore = oomKills();
			long pid = await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("killed").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING && !child.pid().equals(child.shepherdPid()))
				.pid();
			ProcessHandle.of(pid).orElseThrow().destroyForcibly();
			ExitStatus exit = await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("killed").orElseThrow().lastExit(), (e) -> e != null);
			assertThat(exit.signal()).isEqualTo(9);
			// Why compared with the host's count: an OOM kill anywhere on this machine
			// meanwhile reads the same. With none in the test's window (which holds the
			// process's life) it must be "other"; with one (another build's OomKillTests,
			// say), either, depending on whether it came before the exit.
			if (oomKills() == oomKillsBefore) {
				assertThat(exit.killer()).isEqualTo(ExitStatus.OTHER);
			}
			else {
				assertThat(exit.killer()).isIn(ExitStatus.OTHER, ExitStatus.OOM_KILLER);
			}
			assertThat(exit.toString()).startsWith("killed by signal 9 (");
			await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("stubborn").orElseThrow().state() == ChildState.RUNNING);
			supervisor.supervisor().stop("stubborn");
			ExitStatus stopped = supervisor.supervisor().snapshot("stubborn").orElseThrow().lastExit();
			assertThat(stopped).isNotNull();
			assertThat(stopped.killer()).isNull();
		}
	}

	private static long oomKills() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/vmstat"))) {
			if (line.startsWith("oom_kill ")) {
				return Long.parseLong(line.substring(9).trim());
			}
		}
		return -1;
	}

	private static ChildUsage usage(TestSupervisor supervisor) {
		return supervisor.supervisor().usage("busy").orElseThrow();
	}

	private static List<Long> children(long pid) {
		List<Long> children = new ArrayList<>();
		String list;
		try {
			list = Files.readString(Path.of("/proc/" + pid + "/task/" + pid + "/children"));
		}
		catch (IOException ex) {
			return children;
		}
		for (String child : list.trim().split(" ")) {
			if (!child.isEmpty()) {
				children.add(Long.parseLong(child));
			}
		}
		return children;
	}

	private static long cpuTicks(List<Long> pids) throws IOException {
		long ticks = 0;
		for (long pid : pids) {
			String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		return ticks;
	}

	private static long vmRss(long pid) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
			if (line.startsWith("VmRSS:")) {
				return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
			}
		}
		throw new AssertionError("no VmRSS for pid " + pid);
	}

}
