package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.ManualClock;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code /proc} files a sampled tree keeps open in this JVM are all closed when its
 * child restarts, when it is removed, when nobody samples it for a while, and when the
 * supervisor closes; counted as this JVM's descriptors that point into
 * {@code /proc/<pid>/} of the tree's processes.
 */
@EnabledOnOs(OS.LINUX)
class ResourceFilesTests {

	// Why generous: the machine is shared; the sweep runs once a second on a tick every
	// 20 ms.
	private static final Duration DEADLINE = Duration.ofSeconds(30);

	/** A tree of two processes under its shepherd: the shell and its sleep. */
	private static final List<String> PAIR = List.of("/bin/sh", "-c", "sleep 600 & wait");

	@TempDir
	Path temp;

	@Test
	void aRestartedChildLeavesNoFileOfItsEarlierTreeOpen() throws Exception {
		ChildSpec spec = ChildSpec.builder("pair", PAIR).build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			List<Long> tree = sampledTree(supervisor.supervisor(), "pair");
			assertThat(openInto(tree)).as("files kept open for the tree %s", tree).isPositive();
			supervisor.supervisor().restart("pair");
			await().atMost(DEADLINE).until(() -> openInto(tree) == 0);
		}
	}

	@Test
	void aRemovedChildLeavesNoFileOpen() throws Exception {
		ChildSpec spec = ChildSpec.builder("pair", PAIR).build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			List<Long> tree = sampledTree(supervisor.supervisor(), "pair");
			assertThat(openInto(tree)).isPositive();
			supervisor.supervisor().remove("pair");
			await().atMost(DEADLINE).until(() -> openInto(tree) == 0);
		}
	}

	@Test
	void aTreeNobodySamplesGivesItsFilesBackAndASampleOpensThemAgain() throws Exception {
		ManualClock clock = new ManualClock();
		ChildSpec spec = ChildSpec.builder("pair", PAIR).build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), TestRun.installationId("idle"),
				OrphanPolicy.STOP, List.of(spec), (builder) -> builder.clock(clock))) {
			supervisor.supervisor().startAutostart();
			List<Long> tree = sampledTree(supervisor.supervisor(), "pair");
			int kept = openInto(tree);
			assertThat(kept).isPositive();
			clock.advance(ResourceWatch.IDLE.minus(ResourceWatch.SWEEP_PERIOD.multipliedBy(2)));
			// Why a tick of our own: it returns once its sweep has run, the clock being
			// past the sweep's period.
			supervisor.supervisor().tick();
			assertThat(openInto(tree)).as("kept before the idle bound").isEqualTo(kept);
			clock.advance(ResourceWatch.SWEEP_PERIOD.multipliedBy(3));
			// Why awaited: the ticker's own tick may hold this sweep, and return after
			// ours.
			supervisor.supervisor().tick();
			await().atMost(DEADLINE).until(() -> openInto(tree) == 0);
			assertThat(supervisor.supervisor().usage("pair").orElseThrow().processes()).isEqualTo(2);
			assertThat(openInto(tree)).isEqualTo(kept);
		}
	}

	@Test
	void aClosedSupervisorLeavesNoFileOpen() throws Exception {
		ChildSpec spec = ChildSpec.builder("pair", PAIR).build();
		List<Long> tree;
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			tree = sampledTree(supervisor.supervisor(), "pair");
			assertThat(openInto(tree)).isPositive();
		}
		assertThat(openInto(tree)).isZero();
	}

	/**
	 * Samples the child until its tree shows both processes; its pids, shepherd first.
	 */
	private static List<Long> sampledTree(Supervisor supervisor, String name) {
		ChildSnapshot child = await().atMost(DEADLINE)
			.until(() -> supervisor.snapshot(name).orElseThrow(),
					(snapshot) -> snapshot.state() == ChildState.RUNNING && snapshot.shepherdPid() != null
							&& !snapshot.pid().equals(snapshot.shepherdPid()) && !children(snapshot.pid()).isEmpty()
							&& supervisor.usage(name).orElseThrow().processes() == 2);
		List<Long> tree = new ArrayList<>();
		tree.add(child.shepherdPid());
		tree.add(child.pid());
		tree.addAll(children(child.pid()));
		return tree;
	}

	/**
	 * How many of this JVM's descriptors point into {@code /proc/<pid>/} of one of
	 * {@code pids}.
	 */
	private static int openInto(List<Long> pids) throws IOException {
		int count = 0;
		try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
			for (Path fd : fds) {
				String target;
				try {
					target = Files.readSymbolicLink(fd).toString();
				}
				catch (IOException ex) {
					continue;
				}
				for (long pid : pids) {
					if (target.startsWith("/proc/" + pid + "/")) {
						count++;
					}
				}
			}
		}
		return count;
	}

	private static List<Long> children(long pid) {
		List<Long> children = new ArrayList<>();
		try {
			for (String child : Files.readString(Path.of("/proc/" + pid + "/task/" + pid + "/children"))
				.trim()
				.split(" ")) {
				if (!child.isEmpty()) {
					children.add(Long.parseLong(child));
				}
			}
		}
		catch (IOException ex) {
			// Gone: no children.
		}
		return children;
	}

}
