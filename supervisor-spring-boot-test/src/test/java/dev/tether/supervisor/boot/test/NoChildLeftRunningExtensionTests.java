package dev.tether.supervisor.boot.test;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/**
 * Runs test classes as a user would write them, through JUnit's engine, and checks what
 * the extension reports.
 */
class NoChildLeftRunningExtensionTests {

	@Test
	void testThatLeavesAChildRunningFailsNamingItAndTheChildIsStopped() {
		Events events = execute(LeavesAChildRunning.class);
		events.assertStatistics((stats) -> stats.started(1).failed(1));
		events.assertThatEvents()
			.haveExactly(1, event(test("startsAndForgets"), finishedWithFailure(instanceOf(AssertionError.class),
					message((text) -> text.contains("'leaky' (RUNNING, pid " + LeavesAChildRunning.pid + ")")))));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> ProcessHandle.of(LeavesAChildRunning.pid).isEmpty()
					|| !ProcessHandle.of(LeavesAChildRunning.pid).get().isAlive());
	}

	@Test
	void testThatStopsWhatItStartsPassesAndItsStateDirectoryIsRemovedWithTheContext() {
		Events events = execute(StopsWhatItStarts.class);
		events.assertStatistics((stats) -> stats.started(1).succeeded(1));
		assertThat(StopsWhatItStarts.stateDirectory.getParent())
			.isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
		assertThat(StopsWhatItStarts.stateDirectory).doesNotExist();
		assertThat(StopsWhatItStarts.installationId).matches("tether-extension-test-test-[0-9a-f]{8}");
	}

	@Test
	void childrenTheContextStartedItselfAreNotTheTestsToStop() {
		Events events = execute(UsesAnAutostartChild.class);
		events.assertStatistics((stats) -> stats.started(1).succeeded(1));
	}

	private static Events execute(Class<?> testClass) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
	}

	@SpringBootTest(classes = TestApplication.class,
			properties = { "spring.application.name=tether-extension-test",
					"supervisor.children.leaky.command=sleep,300", "supervisor.children.leaky.autostart=false" })
	@NoChildLeftRunning
	@DirtiesContext
	static class LeavesAChildRunning {

		static long pid;

		@Test
		void startsAndForgets(SupervisedChildren children) {
			children.supervisor().start("leaky");
			pid = children.awaitState("leaky", ChildState.RUNNING).pid();
		}

	}

	@SpringBootTest(classes = TestApplication.class,
			properties = { "spring.application.name=tether-extension-test",
					"supervisor.children.tidy.command=sleep,300", "supervisor.children.tidy.autostart=false" })
	@NoChildLeftRunning
	@DirtiesContext
	static class StopsWhatItStarts {

		static Path stateDirectory;

		static String installationId;

		@Autowired
		Supervisor supervisor;

		@Test
		void startsAndStops(@Value("${supervisor.state-directory}") Path stateDirectory, SupervisedChildren children) {
			StopsWhatItStarts.stateDirectory = stateDirectory;
			StopsWhatItStarts.installationId = this.supervisor.installationId();
			this.supervisor.start("tidy");
			children.awaitState("tidy", ChildState.RUNNING);
			this.supervisor.stop("tidy");
			children.awaitState("tidy", ChildState.STOPPED);
		}

	}

	@SpringBootTest(classes = TestApplication.class, properties = "supervisor.children.resident.command=sleep,300")
	@NoChildLeftRunning
	@DirtiesContext
	static class UsesAnAutostartChild {

		@Test
		void readsIt(SupervisedChildren children) {
			assertThat(children.awaitState("resident", ChildState.RUNNING).pid()).isNotNull();
		}

	}

}
