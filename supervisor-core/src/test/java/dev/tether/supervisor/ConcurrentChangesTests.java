package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static dev.tether.supervisor.testsupport.ChildSpecs.awaitPids;
import static dev.tether.supervisor.testsupport.ChildSpecs.sleeper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Changes that race each other, with real children: every call ends with a result or an
 * exception its documentation names, and an update either applies whole or changes
 * nothing.
 */
@EnabledOnOs(OS.LINUX)
class ConcurrentChangesTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void addsAndRemovesOfOneNameEndOnlyInDocumentedOutcomes() throws Exception {
		ConcurrentLinkedQueue<Throwable> undocumented = new ConcurrentLinkedQueue<>();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of())) {
			Supervisor supervisor = test.supervisor();
			ChildSpec same = ChildSpec.builder("same", List.of("sleep", "600"))
				.stopTimeout(Duration.ofSeconds(5))
				.build();
			runTogether(8, 40, (thread) -> () -> {
				try {
					if (thread % 2 == 0) {
						supervisor.add(same);
					}
					else {
						supervisor.remove("same");
					}
				}
				catch (InvalidChildSpecException ex) {
					expect(ex, "name is already registered", undocumented);
				}
				catch (IllegalStateException ex) {
					expect(ex, "was removed while it was being added", undocumented);
				}
				catch (IllegalArgumentException ex) {
					expect(ex, "no child named 'same'", undocumented);
				}
				catch (RuntimeException ex) {
					undocumented.add(ex);
				}
				return null;
			});
			assertThat(undocumented).as("outcomes no documentation names").isEmpty();
			if (supervisor.snapshot("same").isPresent()) {
				supervisor.remove("same");
			}
			assertThat(supervisor.snapshots()).isEmpty();
		}
	}

	@Test
	void anUpdateRacingARuntimeAddOfOneOfItsNewNamesAppliesWholeOrChangesNothing() throws Exception {
		for (int round = 0; round < 5; round++) {
			List<ChildSpec> configured = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				configured.add(sleeper("u" + i, "1"));
			}
			try (TestSupervisor test = new TestSupervisor(this.temp.resolve("round-" + round), configured)) {
				Supervisor supervisor = test.supervisor();
				supervisor.startAutostart();
				Map<String, Long> before = awaitPids(supervisor, DEADLINE, "u0", "u1", "u2", "u3", "u4");
				List<ChildSpec> next = new ArrayList<>();
				for (int i = 0; i < 5; i++) {
					next.add(sleeper("u" + i, "2"));
				}
				next.add(sleeper("zz", "2"));
				CountDownLatch go = new CountDownLatch(1);
				ExecutorService threads = Executors.newFixedThreadPool(2);
				try {
					Future<UpdateReport> update = threads.submit(() -> {
						go.await();
						return supervisor.update(next);
					});
					Future<ChildSnapshot> add = threads.submit(() -> {
						go.await();
						return supervisor.add(sleeper("zz", "runtime"));
					});
					go.countDown();
					boolean updated = succeeded(update, InvalidChildSpecException.class);
					boolean added = succeeded(add, InvalidChildSpecException.class);
					assertThat(updated ^ added).as("exactly one of the update and the add wins").isTrue();
					Map<String, Long> after = awaitPids(supervisor, DEADLINE, "u0", "u1", "u2", "u3", "u4");
					if (updated) {
						assertThat(after.values()).doesNotContainAnyElementsOf(before.values());
					}
					else {
						assertThat(after).as("a refused update changed nothing").isEqualTo(before);
					}
				}
				finally {
					threads.shutdownNow();
					assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
				}
			}
		}
	}

	@Test
	void concurrentUpdatesRunOneAfterTheOtherAndBothApply() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(sleeper("a", "1"), sleeper("b", "1")))) {
			Supervisor supervisor = test.supervisor();
			supervisor.startAutostart();
			awaitPids(supervisor, DEADLINE, "a", "b");
			ConcurrentLinkedQueue<UpdateReport> reports = new ConcurrentLinkedQueue<>();
			runTogether(2, 1, (thread) -> () -> {
				reports.add(supervisor.update(List.of(sleeper("a", "g" + thread), sleeper("b", "1"))));
				return null;
			});
			assertThat(reports).hasSize(2);
			long a = awaitPids(supervisor, DEADLINE, "a").get("a");
			await().atMost(DEADLINE)
				.until(() -> LiveProcesses.environ(a).contains("GENERATION=g0")
						|| LiveProcesses.environ(a).contains("GENERATION=g1"));
		}
	}

	private static void expect(RuntimeException ex, String message, ConcurrentLinkedQueue<Throwable> undocumented) {
		if (ex.getMessage() == null || !ex.getMessage().contains(message)) {
			undocumented.add(ex);
		}
	}

	private static <T> boolean succeeded(Future<T> call, Class<? extends Exception> documented) throws Exception {
		try {
			call.get(60, TimeUnit.SECONDS);
			return true;
		}
		catch (ExecutionException ex) {
			assertThat(ex.getCause()).isInstanceOf(documented);
			return false;
		}
	}

	/** Runs {@code calls} of each of {@code threads} threads, all released at once. */
	private static void runTogether(int threads, int calls, IntFunction<Callable<Void>> body) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch go = new CountDownLatch(1);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Callable<Void> call = body.apply(t);
				running.add(pool.submit(() -> {
					go.await();
					for (int i = 0; i < calls; i++) {
						call.call();
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> future : running) {
				future.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
	}

}
