package dev.tether.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.testsupport.LiveProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 1–3: the app killed with SIGKILL, children that escape their group, and a
 * SIGTERM shutdown.
 */
class KillAndStopIT extends FaultScenarioSupport {

	// Why generous: the parent-death signal is immediate, but a loaded machine may take a
	// while to run the exits.
	private static final Duration CHILDREN_GONE = Duration.ofSeconds(10);

	private static final String WITHOUT_SHEPHERDS = "defaults:\n  contain-descendants: false";

	@Test
	void killMinus9EndsEveryDirectChildAndTheNextStartEndsTheGrandchildren() throws Exception {
		StringBuilder children = new StringBuilder();
		for (int i = 0; i < 20; i++) {
			String command = (i % 4 == 0) ? "[\"sh\", \"-c\", \"sleep 600 & exec sleep 600\"]" : "[\"sleep\", \"600\"]";
			children.append("c").append(i).append(":\n  command: ").append(command).append('\n');
		}
		// Why without shepherds: this is the containment by process group alone, as with
		// contain-descendants false.
		Path config = config("kill9", children.toString(), WITHOUT_SHEPHERDS);
		List<Long> direct;
		try (SampleAppProcess app = SampleAppProcess.started(config, log("kill9-first"))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> app.childPids().size() == 20);
			direct = app.childPids();
			await().atMost(Duration.ofSeconds(30)).until(() -> ours().size() == 25);
			app.kill9();
			await("direct children gone").atMost(CHILDREN_GONE)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> direct.stream().noneMatch(LiveProcesses::isAlive));
		}
		List<Long> grandchildren = ours();
		assertThat(grandchildren).hasSize(5);
		try (SampleAppProcess app = SampleAppProcess.started(config, log("kill9-second"))) {
			JsonNode report = app.json("/actuator/children").get("reconciliation");
			assertThat(report.get("ours").asInt()).isEqualTo(5);
			assertThat(report.get("stopped").asInt()).isEqualTo(5);
			await().atMost(CHILDREN_GONE).until(() -> grandchildren.stream().noneMatch(LiveProcesses::isAlive));
			await().atMost(Duration.ofSeconds(30)).until(() -> app.childPids().size() == 20);
		}
	}

	@Test
	void killMinus9EndsEveryProcessOfEveryTreeUnderShepherdsWithoutANextStart() throws Exception {
		StringBuilder children = new StringBuilder();
		for (int i = 0; i < 10; i++) {
			children.append("c")
				.append(i)
				.append(":\n  command: [\"sh\", \"-c\", \"sleep 600 & setsid sleep 600 & wait\"]\n");
		}
		try (SampleAppProcess app = SampleAppProcess.started(config("kill9-shepherds", children.toString()),
				log("kill9-shepherds"))) {
			// Per child: its shepherd, the shell, the background sleep and the daemon.
			await().atMost(Duration.ofSeconds(30)).until(() -> ours().size() == 40);
			app.kill9();
			await("every process of every tree gone").atMost(CHILDREN_GONE)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> ours().isEmpty());
		}
	}

	@Test
	void daemonsThatLeaveTheirGroupAreEndedAtStopAndAtTheNextStart() throws Exception {
		// Why the forker waits for the daemon's word: members left in the group
		// of a child that exited are ended, and a daemon that had not yet left
		// the group when its parent exited would be ended with them.
		Path left = this.temp.resolve("left");
		Path config = config("daemons", """
				forker:
				  command: ["sh", "-c", "setsid sh -c 'touch %1$s; exec sleep 600' </dev/null >/dev/null 2>&1 & \\
				    while [ ! -e %1$s ]; do sleep 0.05; done; exit 0"]
				  restart: never
				""".formatted(left), WITHOUT_SHEPHERDS);
		try (SampleAppProcess app = SampleAppProcess.started(config, log("daemons-stop"))) {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ours().size() == 1 && app.state("forker").equals("EXITED"));
			long daemon = ours().get(0);
			app.terminate();
			assertThat(app.awaitExit(Duration.ofSeconds(30))).isTrue();
			await().atMost(CHILDREN_GONE).until(() -> !LiveProcesses.isAlive(daemon));
		}
		Files.delete(left);
		try (SampleAppProcess app = SampleAppProcess.started(config, log("daemons-kill"))) {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ours().size() == 1 && app.state("forker").equals("EXITED"));
			long daemon = ours().get(0);
			app.kill9();
			assertThat(LiveProcesses.isAlive(daemon)).as("a daemon that left its session outlives a SIGKILL").isTrue();
			try (SampleAppProcess again = SampleAppProcess.started(config, log("daemons-next"))) {
				assertThat(again.json("/actuator/children").get("reconciliation").get("stopped").asInt()).isEqualTo(1);
				await().atMost(CHILDREN_GONE).until(() -> !LiveProcesses.isAlive(daemon));
			}
		}
	}

	@Test
	void sigtermStopsEveryChildWithItsStopSignalAndTheAppExitsInTime() throws Exception {
		Path witness = this.temp.resolve("witness");
		Files.createDirectories(witness);
		Path config = config("sigterm", """
				polite:
				  command: ["sh", "-c", "trap 'touch %1$s/polite; exit 0' TERM; sleep 600 & wait"]
				  stop-timeout: 5s
				stubborn:
				  command: ["sh", "-c", "trap 'touch %1$s/stubborn' TERM; while true; do sleep 1; done"]
				  stop-timeout: 2s
				""".formatted(witness));
		try (SampleAppProcess app = SampleAppProcess.started(config, log("sigterm"))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> app.childPids().size() == 2);
			List<Long> pids = app.childPids();
			long started = System.nanoTime();
			app.terminate();
			assertThat(app.awaitExit(Duration.ofSeconds(30))).as(app::output).isTrue();
			// Within the largest stop timeout (5 s), plus a margin for the JVM's own
			// shutdown on a loaded machine.
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5 + 10));
			assertThat(witness.resolve("polite")).exists();
			assertThat(witness.resolve("stubborn")).exists();
			await().atMost(CHILDREN_GONE).until(() -> pids.stream().noneMatch(LiveProcesses::isAlive));
			assertThat(registryRows()).isEmpty();
		}
	}

}
