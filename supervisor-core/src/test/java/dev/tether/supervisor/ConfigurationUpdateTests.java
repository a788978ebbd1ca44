package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static dev.tether.supervisor.testsupport.ChildSpecs.awaitPids;
import static dev.tether.supervisor.testsupport.ChildSpecs.sleeper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link Supervisor#update} with real processes: exactly the difference is applied,
 * unchanged children keep their pid, children added at runtime are left alone, and an
 * unusable configuration changes nothing.
 */
@EnabledOnOs(OS.LINUX)
class ConfigurationUpdateTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	@Test
	void oneChangedOneAddedOneRemovedMakeOneRestartOneStartAndOneStop() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(sleeper("changed", "1"), sleeper("kept", "1"), sleeper("dropped", "1")))) {
			Supervisor supervisor = test.supervisor();
			supervisor.startAutostart();
			supervisor.add(sleeper("runtime", "1"));
			Map<String, Long> before = awaitPids(supervisor, DEADLINE, "changed", "kept", "dropped", "runtime");
			int events = test.events().size();
			UpdateReport report = supervisor
				.update(List.of(sleeper("changed", "2"), sleeper("kept", "1"), sleeper("new", "1")));
			assertThat(report)
				.isEqualTo(new UpdateReport(List.of("new"), List.of("dropped"), List.of("changed"), List.of("kept")));
			Map<String, Long> after = awaitPids(supervisor, DEADLINE, "changed", "kept", "new", "runtime");
			assertThat(after.get("kept")).isEqualTo(before.get("kept"));
			assertThat(after.get("runtime")).isEqualTo(before.get("runtime"));
			assertThat(after.get("changed")).isNotEqualTo(before.get("changed"));
			// Why wait: the shepherd has forked the command, which may not have run its
			// exec yet.
			await().atMost(DEADLINE).until(() -> LiveProcesses.environ(after.get("changed")).contains("GENERATION=2"));
			assertThat(supervisor.snapshot("dropped")).isEmpty();
			await().atMost(DEADLINE)
				.until(() -> !LiveProcesses.isAlive(before.get("dropped"))
						&& !LiveProcesses.isAlive(before.get("changed")));
			assertThat(test.events().subList(events, test.events().size()))
				.extracting((event) -> event.type() + " " + event.child().name())
				.containsExactlyInAnyOrder("STOPPED changed", "STOPPED dropped", "REMOVED dropped", "STARTED changed",
						"STARTED new");
			assertThat(supervisor.snapshots()).extracting(ChildSnapshot::name)
				.containsExactly("changed", "kept", "runtime", "new");
		}
	}

	@Test
	void anUnusableConfigurationChangesNothingAndSaysWhy() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(sleeper("app", "1"), sleeper("db", "1")))) {
			Supervisor supervisor = test.supervisor();
			supervisor.startAutostart();
			supervisor.add(sleeper("runtime", "1"));
			Map<String, Long> before = awaitPids(supervisor, DEADLINE, "app", "db", "runtime");
			int events = test.events().size();
			ChildSpec dependsOnDropped = ChildSpec.builder("app", List.of("sleep", "600"))
				.dependsOn(List.of("db"))
				.build();
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> supervisor.update(List.of(dependsOnDropped)))
				.withMessage("child 'app': depends-on names 'db', which is not a child");
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> supervisor.update(List.of(sleeper("app", "2"), sleeper("runtime", "1"))))
				.withMessage("child 'runtime': name is taken by a child added at runtime");
			assertThat(awaitPids(supervisor, DEADLINE, "app", "db", "runtime")).isEqualTo(before);
			assertThat(test.events()).hasSize(events);
		}
	}

}
