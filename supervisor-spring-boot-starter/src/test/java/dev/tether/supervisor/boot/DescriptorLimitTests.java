package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.SecondJvm;

import static dev.tether.supervisor.boot.Actuator.names;
import static dev.tether.supervisor.boot.Actuator.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application in a JVM of its own under {@code prlimit --nofile=1100:1400}, with more
 * children than its descriptors allow: the soft limit is raised, the children beyond the
 * budget are refused with the numbers and not retried in a loop, the application keeps
 * answering HTTP, and a refused child starts once others stop; without
 * {@code start-what-fits} startup fails with the numbers.
 */
@EnabledOnOs(OS.LINUX)
class DescriptorLimitTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	// Why 60: with the default reserve of 1,024 under a hard limit of 1,400, the budget
	// (9 descriptors per child) leaves a web application's JVM (30 to 250 descriptors of
	// its own when its children start) room for 14 to 38 children.
	private static final int CHILDREN = 60;

	private static final String REFUSALS = "supervisor.descriptors.refusals";

	@TempDir
	Path temp;

	@Test
	void childrenBeyondTheBudgetAreRefusedOnceWhileTheApplicationAnswers() throws Exception {
		Path log = this.temp.resolve("jvm.log");
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(limited("--supervisor.descriptor-budget=start-what-fits"))
				.redirectError(log.toFile()))) {
			String port = jvm.readUntilCount("PORT", 1);
			assertThat(port).as(() -> read(log)).isNotNull();
			Actuator actuator = new Actuator(port);
			// Why the health and metrics endpoints until the end: the children endpoint
			// samples each child's tree, and the /proc files a sample keeps open (up to a
			// quarter of the limit, for two minutes) are the application's descriptors
			// too.
			JsonNode settled = settled(actuator);
			List<String> refused = names(settled, "FAILED");
			assertThat(refused).as(settled::toString).isNotEmpty();
			List<String> running = names(settled, "RUNNING");
			assertThat(running).hasSizeGreaterThanOrEqualTo(5);
			assertThat(settled.path("components").path(refused.get(0)).path("details").path("lastError").asString())
				.matches("starting it would leave the application [0-9,]+ descriptors, under the reserve of 1,024 "
						+ "\\(limit 1,400, [0-9,]+ in use, 9 for this child\\); raise the limit or the reserve");

			// Why a window: a refused child retried in a loop would be refused again at
			// each of the ten ticks a second.
			AtomicLong seen = new AtomicLong(-1);
			await("no retry storm").during(Duration.ofSeconds(2))
				.atMost(DEADLINE)
				.until(() -> actuator.measurement(REFUSALS) == seen.getAndSet(actuator.measurement(REFUSALS)));
			assertThat(seen.get()).isBetween((long) refused.size(), 2L * refused.size());

			for (String name : running.subList(0, 5)) {
				assertThat(actuator.control(name, "stop")).isEqualTo(200);
			}
			await("a refused child starts once five others stopped").atMost(DEADLINE)
				.until(() -> names(actuator.get("health/supervisor"), "FAILED").size() < refused.size());
			JsonNode descriptors = actuator.get("children").path("descriptors");
			assertThat(descriptors.path("limit").asLong()).as("the soft limit raised to the hard one").isEqualTo(1400);
			assertThat(descriptors.path("reserve").asLong()).isEqualTo(1024);
			assertThat(descriptors.path("perChild").asInt()).isEqualTo(9);
			jvm.terminate();
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
		}
	}

	@Test
	void pastWhatTheSamplersMayKeepAChildCostsOnlyItsOwnDescriptorsAndTheApplicationStillAnswers() throws Exception {
		Path log = this.temp.resolve("jvm.log");
		// Why these numbers: a quarter of the limit of 1,200 lets the samplers keep 300
		// files, the 6 of 50 children; with a reserve of 100, counting 9 for every child
		// would let about 110 run, and counting 3 past the fiftieth lets about 200. Why
		// 400 children: the count of each second finds about 2 open per running child,
		// so a start slowed by a busy machine fits nearly 400 minus what the JVM holds,
		// and 300 were all started in one such run.
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(limited("1200:1200", 400, "--supervisor.descriptor-budget=start-what-fits",
					"--supervisor.descriptor-reserve=100"))
				.redirectError(log.toFile()))) {
			String port = jvm.readUntilCount("PORT", 1);
			assertThat(port).as(() -> read(log)).isNotNull();
			Actuator actuator = new Actuator(port);
			JsonNode settled = settled(actuator);
			List<String> running = names(settled, "RUNNING");
			assertThat(running).as(settled::toString).hasSizeGreaterThan((1200 - 100) / 9);
			// Why the counter, not FAILED children: a tick's count finds the
			// estimate high and may have started the refused ones already.
			assertThat(actuator.measurement(REFUSALS)).isPositive();
			// Why the children endpoint, twice: it samples every tree, so the samplers
			// then keep all they may and read the rest by path (the second answer counts
			// what the first made them keep); nothing may run short.
			JsonNode children = actuator.get("children");
			assertThat(children.toString()).doesNotContain("Too many open files");
			children = actuator.get("children");
			assertThat(children.toString()).doesNotContain("Too many open files");
			assertThat(children.path("descriptors").path("sampled").asLong()).isBetween(1L, 300L);
			// Why at least as many: a tick's count finds the estimate high and starts
			// refused children that fit.
			JsonNode health = actuator.get("health/supervisor");
			assertThat(names(health, "RUNNING")).hasSizeGreaterThanOrEqualTo(running.size());
			assertThat(health.toString()).doesNotContain("Too many open files");
			jvm.terminate();
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
		}
	}

	@Test
	void withoutStartWhatFitsStartupFailsWithTheNumbers() throws Exception {
		Path log = this.temp.resolve("jvm.log");
		try (SecondJvm jvm = SecondJvm.start(new ProcessBuilder(limited()).redirectError(log.toFile())
			.redirectOutput(this.temp.resolve("out.log").toFile()))) {
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
			assertThat(jvm.process().exitValue()).isNotZero();
			assertThat(read(this.temp.resolve("out.log")) + read(log)).contains("Property: supervisor.children")
				.containsPattern(CHILDREN + " children to start, but the limit of 1,400 "
						+ "less the [0-9,]+ in use and the reserve of 1,024 leaves room for [0-9]+ \\(at up to 9 ");
		}
	}

	/** The supervisor's health once no child is {@code STARTING}. */
	private static JsonNode settled(Actuator actuator) {
		return await("starts and refusals settle").atMost(DEADLINE)
			.until(() -> actuator.get("health/supervisor"),
					(health) -> health.path("components")
						.valueStream()
						.noneMatch((child) -> child.path("details").path("state").asString().equals("STARTING")));
	}

	private List<String> limited(String... arguments) {
		return limited("1100:1400", CHILDREN, arguments);
	}

	private List<String> limited(String nofile, int children, String... arguments) {
		List<String> command = new ArrayList<>(List.of("prlimit", "--nofile=" + nofile, "--"));
		List<String> app = new ArrayList<>(List.of(Integer.toString(children), this.temp.toString()));
		app.addAll(List.of(arguments));
		command.addAll(JavaCommand.main(DescriptorLimitApp.class, app.toArray(String[]::new)));
		return command;
	}

}
