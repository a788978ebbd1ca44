package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The descriptor budget with real processes: a reserve set just above what a few children
 * leave, so that further starts are refused, stay refused while nothing frees up, and go
 * ahead once a child stops or is removed.
 */
@EnabledOnOs(OS.LINUX)
class DescriptorBudgetTests {

	// Why generous: the machines that run this are loaded.
	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int CHILDREN = 8;

	private static final int COUNTED = 20;

	@TempDir
	Path temp;

	@Test
	void aStartThatWouldCutIntoTheReserveIsRefusedOnceAndRetriedWhenAChildStops() throws Exception {
		DescriptorUse unbudgeted;
		try (TestSupervisor probe = new TestSupervisor(this.temp.resolve("probe"), List.of())) {
			unbudgeted = probe.supervisor().descriptors();
		}
		assertThat(unbudgeted.limit()).as("this machine's RLIMIT_NOFILE").isPositive();
		// Why this reserve: it leaves room for about two children now.
		long reserve = unbudgeted.limit() - unbudgeted.used() - 2L * unbudgeted.perChild() - 1;
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), TestRun.installationId("budget"),
				OrphanPolicy.STOP, List.of(), (builder) -> builder.descriptorReserve(reserve))) {
			Supervisor supervisor = test.supervisor();
			for (int i = 0; i < CHILDREN; i++) {
				supervisor.add(ChildSpec.builder("agent-" + i, List.of("sleep", "600")).build());
			}
			// Why a window of ticks: a child retried in a loop would be refused again at
			// each of the hundred ticks it spans.
			AtomicLong seen = new AtomicLong(-1);
			await("refusals stay put").during(Duration.ofSeconds(2))
				.atMost(DEADLINE)
				.until(() -> supervisor.descriptors().refusals() == seen
					.getAndSet(supervisor.descriptors().refusals()));
			ChildSnapshot refused = supervisor.snapshots()
				.stream()
				.filter((child) -> child.state() == ChildState.FAILED)
				.findFirst()
				.orElseThrow();
			assertThat(refused.lastError()).matches("starting it would leave the application [0-9,]+ descriptors, "
					+ "under the reserve of [0-9,]+ \\(limit .*\\); raise the limit or the reserve");
			assertThat(refused.pid()).isNull();
			assertThat(test.events(refused.name(), ChildEvent.Type.STARTED)).isEmpty();
			// Why at most two: refused at its start, and at most once more when the first
			// count after the starts found room that the estimate had not.
			assertThat(test.events(refused.name(), ChildEvent.Type.FAILED)).hasSizeBetween(1, 2);
			long running = supervisor.snapshots()
				.stream()
				.filter((child) -> child.state() == ChildState.RUNNING)
				.count();
			assertThat(running).isBetween(1L, CHILDREN - 1L);

			String first = supervisor.snapshots()
				.stream()
				.filter((child) -> child.state() == ChildState.RUNNING)
				.findFirst()
				.orElseThrow()
				.name();
			String second = supervisor.snapshots()
				.stream()
				.filter((child) -> child.state() == ChildState.RUNNING && !child.name().equals(first))
				.findFirst()
				.map(ChildSnapshot::name)
				.orElse(null);
			supervisor.remove(first);
			if (second != null) {
				supervisor.stop(second);
			}
			await("a refused child starts once descriptors free up").atMost(DEADLINE)
				.until(() -> supervisor.snapshots()
					.stream()
					.filter((child) -> child.state() == ChildState.FAILED)
					.count() < CHILDREN - running);
		}
	}

	@Test
	void whatAChildCostsOnceItsTreeIsSampledIsWhatTheBudgetCounts() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of())) {
			Supervisor supervisor = test.supervisor();
			// Why one child first: what the first start and the first sample open once
			// (the reaper's epoll, the pump's threads, the log directory) is not a
			// child's.
			startAndSample(supervisor, "first");
			long before = openDescriptors();
			for (int i = 0; i < COUNTED; i++) {
				startAndSample(supervisor, "counted-" + i);
			}
			double perChild = (openDescriptors() - before) / (double) COUNTED;
			System.out.printf("descriptors per sampled child, over %d sleep children: %.2f (the budget counts %d)%n",
					COUNTED, perChild, supervisor.descriptors().perChild());
			// Why not equal: the budget counts a third descriptor per child for its log
			// file while a line is written, which a silent sleep never opens.
			assertThat(perChild).isBetween(supervisor.descriptors().perChild() - 1.5,
					(double) supervisor.descriptors().perChild());
			assertThat(supervisor.descriptors().sampled()).isGreaterThanOrEqualTo(6L * (COUNTED + 1));
		}
	}

	private static void startAndSample(Supervisor supervisor, String name) {
		supervisor.add(ChildSpec.builder(name, List.of("sleep", "600")).build());
		// Why a command that has descriptors: its tree is then sampled through its
		// shepherd down to it, every file the sampler keeps opened.
		await(name + " sampled down to its command").atMost(DEADLINE)
			.until(() -> supervisor.usage(name)
				.filter((usage) -> usage.processes() == 1 && usage.openDescriptors() != null)
				.isPresent());
	}

	private static long openDescriptors() throws IOException {
		try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
			return open.count() - 1;
		}
	}

	@Test
	void aNegativeReserveIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Supervisor.builder().descriptorReserve(-1))
			.withMessageContaining("descriptorReserve");
	}

}
