package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code depends-on} with real processes: a chain starts from its end and stops from its
 * head; a cycle or an unknown name is refused naming it.
 */
@EnabledOnOs(OS.LINUX)
class StartOrderTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	@Test
	void aChainStartsFromWhatNothingDependsOnAndStopsTheOtherWay() throws Exception {
		// a depends on b, b on c; declared in the order that would start them wrongly.
		List<ChildSpec> chain = List.of(child("a", "b"), child("b", "c"), child("c"));
		try (TestSupervisor test = new TestSupervisor(this.temp, chain)) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshots().stream().allMatch((c) -> c.state() == ChildState.RUNNING));
			assertThat(names(test, ChildEvent.Type.STARTED)).containsExactly("c", "b", "a");
			assertThat(test.supervisor().stopAll()).containsOnlyKeys("a", "b", "c");
			assertThat(names(test, ChildEvent.Type.STOPPED)).containsExactly("a", "b", "c");
		}
	}

	@Test
	void aChildBeingRemovedIsNoDependencyOfAnAddedOne() throws Exception {
		ChildSpec leaving = ChildSpec
			.builder("leaving", List.of("sh", "-c", "trap '' TERM; while :; do sleep 0.1; done"))
			.stopTimeout(Duration.ofSeconds(2))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(leaving))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("leaving").orElseThrow().state() == ChildState.RUNNING);
			CompletableFuture<StopOutcome> removal = CompletableFuture
				.supplyAsync(() -> test.supervisor().remove("leaving"));
			await().atMost(DEADLINE)
				.until(() -> test.supervisor()
					.snapshot("leaving")
					.map((child) -> child.state() == ChildState.STOPPING)
					.orElse(false));
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> test.supervisor().add(child("late", "leaving")))
				.withMessageContaining("names 'leaving', which is not a child");
			assertThat(removal.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(StopOutcome.KILLED);
			assertThat(test.supervisor().snapshots()).isEmpty();
		}
	}

	@Test
	void aDependentWaitsInStartingWhileWhatItDependsOnIsStopped() throws Exception {
		List<ChildSpec> specs = List.of(child("app", "db"),
				ChildSpec.builder("db", List.of("sleep", "600")).autostart(false).build());
		try (TestSupervisor test = new TestSupervisor(this.temp, specs)) {
			test.supervisor().startAutostart();
			await("the dependent waits").during(Duration.ofMillis(300))
				.atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("app").orElseThrow().state() == ChildState.STARTING
						&& test.supervisor().snapshot("app").orElseThrow().pid() == null);
			test.supervisor().start("db");
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("app").orElseThrow().state() == ChildState.RUNNING);
			assertThat(names(test, ChildEvent.Type.STARTED)).containsExactly("db", "app");
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> test.supervisor().remove("db"))
				.withMessageContaining("'db'")
				.withMessageContaining("[app]");
		}
	}

	@Test
	void aCycleOrAnUnknownNameIsRefusedNamingIt() throws Exception {
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> new TestSupervisor(this.temp.resolve("cycle"),
					List.of(child("a", "b"), child("b", "c"), child("c", "a"))))
			.withMessageContaining("depends-on forms a cycle: a -> b -> c -> a");
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> new TestSupervisor(this.temp.resolve("unknown"), List.of(child("a", "nobody"))))
			.withMessageContaining("child 'a': depends-on names 'nobody', which is not a child");
		assertThatExceptionOfType(InvalidChildSpecException.class).isThrownBy(() -> child("self", "self"))
			.withMessageContaining("depends-on names the child itself");
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("runtime"), List.of())) {
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> test.supervisor().add(child("late", "missing")))
				.withMessageContaining("names 'missing'");
			assertThat(test.supervisor().snapshots()).isEmpty();
			test.supervisor().add(child("early"));
			test.supervisor().add(child("late", "early"));
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> test.supervisor().remove("early"))
				.withMessageContaining("[late]");
		}
	}

	@Test
	void aDependencysRestartRestartsOnlyTheDependentsThatAskForIt() throws Exception {
		List<ChildSpec> specs = List.of(
				ChildSpecs.restartedForever("db", List.of("sleep", "600"), Duration.ofMillis(100)),
				ChildSpec.builder("bound", List.of("sleep", "600"))
					.dependsOn(List.of("db"))
					.restartWithDependencies(true)
					.stopSignal(9)
					.build(),
				child("loose", "db"));
		try (TestSupervisor test = new TestSupervisor(this.temp, specs)) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor()
					.snapshots()
					.stream()
					.allMatch((c) -> c.state() == ChildState.RUNNING && c.pid() != null));
			long db = test.supervisor().snapshot("db").orElseThrow().pid();
			long bound = test.supervisor().snapshot("bound").orElseThrow().pid();
			long loose = test.supervisor().snapshot("loose").orElseThrow().pid();
			ProcessHandle.of(db).orElseThrow().destroyForcibly();
			await().atMost(DEADLINE).until(() -> {
				ChildSnapshot restarted = test.supervisor().snapshot("bound").orElseThrow();
				return restarted.state() == ChildState.RUNNING && restarted.pid() != null && restarted.pid() != bound
						&& test.supervisor().snapshot("db").orElseThrow().pid() != null
						&& test.supervisor().snapshot("db").orElseThrow().pid() != db;
			});
			assertThat(test.supervisor().snapshot("loose").orElseThrow().pid()).as("not asked for: left alone")
				.isEqualTo(loose);
			// Why await: a state is visible before its events are dispatched.
			await().atMost(DEADLINE).untilAsserted(() -> {
				List<String> started = names(test, ChildEvent.Type.STARTED);
				assertThat(started.subList(3, started.size())).as("bound starts again after db is back")
					.containsExactly("db", "bound");
			});
		}
	}

	private static ChildSpec child(String name, String... dependsOn) {
		return ChildSpec.builder(name, List.of("sleep", "600")).dependsOn(List.of(dependsOn)).build();
	}

	private static List<String> names(TestSupervisor test, ChildEvent.Type type) {
		return test.events().stream().filter((event) -> event.type() == type).map((e) -> e.child().name()).toList();
	}

}
