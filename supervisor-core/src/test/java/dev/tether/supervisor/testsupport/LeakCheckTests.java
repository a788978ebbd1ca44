package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leak check sees this run's processes, including children without markers, and
 * nothing else.
 */
@EnabledOnOs(OS.LINUX)
class LeakCheckTests {

	@TempDir
	Path temp;

	private final LeakCheck check = LeakCheck.ofThisRun();

	@Test
	void childThatDroppedItsMarkersIsFoundAsADescendant() throws Exception {
		LeakCheck.Baseline baseline = this.check.baseline();
		ProcessBuilder builder = new ProcessBuilder("sh", "-c", "exec env -i sleep 600");
		builder.environment().putAll(markers(TestRun.installationId("leak")));
		Process child = builder.start();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(child.pid(), "sleep"));
			assertThat(LiveProcesses.environ(child.pid())).isEmpty();
			assertThat(this.check.leakedSince(baseline)).extracting(LeakCheck.ScopedProcess::pid)
				.containsExactly(child.pid());
		}
		finally {
			child.destroyForcibly();
			child.waitFor();
		}
		assertThat(this.check.leakedSince(baseline)).isEmpty();
	}

	@Test
	void orphanOfThisRunIsFoundByItsInstallation() throws Exception {
		LeakCheck.Baseline baseline = this.check.baseline();
		try (Canary orphan = Canary.orphan(this.temp, markers(TestRun.installationId("leak")))) {
			assertThat(this.check.leakedSince(baseline)).extracting(LeakCheck.ScopedProcess::pid)
				.containsExactly(orphan.pid());
		}
	}

	@Test
	void orphanOfAnotherRunIsNeitherFoundNorTouched() throws Exception {
		LeakCheck.Baseline baseline = this.check.baseline();
		try (Canary other = Canary.orphan(this.temp, markers("test-otherrun-leak"))) {
			assertThat(this.check.leakedSince(baseline)).isEmpty();
			other.assertUntouched();
		}
	}

	private static Map<String, String> markers(String installation) {
		return ChildMarkers.stamp(Map.of(), Map.of(), new Owner(installation, "leak-check"), ChildKind.AGENT, "worker");
	}

}
