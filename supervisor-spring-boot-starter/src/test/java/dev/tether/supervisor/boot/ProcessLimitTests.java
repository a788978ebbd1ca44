package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.OtherUser;
import dev.tether.supervisor.testsupport.SecondJvm;

import static dev.tether.supervisor.boot.Actuator.names;
import static dev.tether.supervisor.boot.Actuator.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application in a JVM of its own whose children run into a limit that counts
 * processes, lowered once the application is ready: its user's {@code RLIMIT_NPROC}
 * ({@code prlimit --pid}; the JVM runs as another uid, since root is exempt), or
 * {@code pid_max} (written inside the private pid namespace the JVM runs in, which on
 * Linux 6.14 and later has one of its own). Every child is started through the endpoint:
 * those the kernel makes no process for are {@code FAILED} with the limit and its
 * numbers, started once each and not again while nothing ends, the application keeps
 * answering HTTP, and a refused child starts once another stops.
 * <p>
 * Why children without a shepherd: a shepherd is a second process, whose own fork of the
 * command may be the one refused; that start ends as a crash of the command (exit 125,
 * {@code fork failed} in its log) and is restarted with backoff, while the spawn refused
 * here is the one that fails the same way every time.
 */
@EnabledOnOs(OS.LINUX)
class ProcessLimitTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final int STOPPED = 5;

	private static final String PID_MAX = "/proc/sys/kernel/pid_max";

	private static final Pattern FAILED_START = Pattern.compile("Child 'child-[0-9]+' could not be started");

	@TempDir
	Path temp;

	@Test
	void childrenPastTheUsersProcessLimitAreRefusedOnceWhileTheApplicationAnswers() throws Exception {
		OtherUser.assumeAvailable();
		int uid = OtherUser.unsharedUid();
		Path directory = Files.createDirectories(this.temp.resolve("app"));
		Files.setAttribute(directory, "unix:uid", uid);
		Files.setAttribute(directory, "unix:gid", uid);
		// Why CAP_DAC_READ_SEARCH, kept as an ambient capability: the JVM reads its class
		// path from root's Maven repository. It does not exempt from RLIMIT_NPROC (only
		// CAP_SYS_RESOURCE and CAP_SYS_ADMIN do).
		List<String> command = setpriv(uid, "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", "--");
		command.addAll(app(60, directory));
		Path log = this.temp.resolve("jvm.log");
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()))) {
			Actuator actuator = ready(jvm, log);
			// Why 20 more than now: the JVM's threads count too, and it may add a few.
			long limit = OtherUser.tasks(uid) + 20;
			// Why prlimit as that uid: another user's limits are changed only with
			// CAP_SYS_RESOURCE, which root may lack (a container's bounding set).
			String pid = Long.toString(jvm.pid());
			String hard = run(setpriv(uid, "prlimit", "--pid", pid, "--nproc", "--raw", "--noheadings", "--output=HARD")
				.toArray(String[]::new));
			run(setpriv(uid, "prlimit", "--pid", pid, "--nproc=" + limit + ":" + hard).toArray(String[]::new));
			exhaust(log, actuator, 60,
					"cannot spawn /usr/bin/sleep: the process limit of uid " + uid + " is reached: it runs [0-9,]+ "
							+ "processes and threads, and RLIMIT_NPROC allows it " + limit
							+ "; raise the limit \\(ulimit -u, LimitNPROC=\\) or end processes of that user; it is "
							+ "started again when a process of this supervisor's children ends");
			// Why raised first: at the limit the JVM cannot start the thread that runs
			// its
			// shutdown hooks, and SIGTERM would leave it hanging (seen: no exit in 60 s).
			run(setpriv(uid, "prlimit", "--pid", pid, "--nproc=" + hard + ":" + hard).toArray(String[]::new));
			jvm.terminate();
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
		}
	}

	@Test
	void childrenPastPidMaxOfTheirNamespaceAreRefusedOnceWhileTheApplicationAnswers() throws Exception {
		assumePidMaxPerNamespace();
		Path directory = Files.createDirectories(this.temp.resolve("app"));
		List<String> command = new ArrayList<>(List.of("unshare", "-p", "-f", "--mount-proc", "--kill-child"));
		command.addAll(app(150, directory));
		Path log = this.temp.resolve("jvm.log");
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()))) {
			Actuator actuator = ready(jvm, log);
			// The JVM, PID 1 of its namespace, is the child of unshare.
			ProcessHandle namespaced = jvm.process().children().findFirst().orElseThrow();
			// Why 400 and the next pid from 301: pids 301 to 399 are free, fewer than the
			// 150 children. Why not from 1: once the kernel's counter passes 300 it hands
			// out pids from 300 up only, so that a pid below that an end frees is never
			// given again, and nothing would start after a stop.
			run("nsenter", "-t", Long.toString(namespaced.pid()), "-p", "-m", "sh", "-c",
					"echo 400 > " + PID_MAX + " && echo 300 > /proc/sys/kernel/ns_last_pid");
			exhaust(log, actuator, 150, "cannot spawn /usr/bin/sleep: no pid is free: pid_max of this pid namespace is "
					+ "400 and [0-9,]+ pids are in use; raise kernel.pid_max or end processes; it is started again "
					+ "when a process of this supervisor's children ends");
			// Why SIGKILL to the JVM itself: its end ends the namespace and every child
			// in
			// it, and unshare with it; at pid_max the JVM cannot start the thread that
			// runs
			// its shutdown hooks, so SIGTERM would leave it hanging.
			namespaced.destroyForcibly();
			assertThat(jvm.awaitExit(DEADLINE)).isTrue();
		}
	}

	/**
	 * Waits for the application's port in its output, then starts its first child, so
	 * that the threads a first start adds (the spawner's, the reaper's) are there before
	 * a limit is lowered.
	 */
	private static Actuator ready(SecondJvm jvm, Path log) throws Exception {
		Pattern ready = Pattern.compile("^PORT ([0-9]+)$", Pattern.MULTILINE);
		String port = await("the application is ready").atMost(DEADLINE).until(() -> {
			Matcher matcher = ready.matcher(read(log));
			assertThat(jvm.process().isAlive()).as(() -> read(log)).isTrue();
			return matcher.find() ? matcher.group(1) : null;
		}, (found) -> found != null);
		Actuator actuator = new Actuator(port);
		assertThat(actuator.control("child-0", "start")).isEqualTo(200);
		await("child-0 runs").atMost(DEADLINE)
			.until(() -> names(actuator.get("health/supervisor"), "RUNNING").contains("child-0"));
		return actuator;
	}

	/**
	 * Starts the children one by one, then checks the refusals, that they stay put, and
	 * that stopping a running child lets one refused start.
	 */
	private static void exhaust(Path log, Actuator actuator, int children, String refusal) throws Exception {
		for (int i = 1; i < children; i++) {
			assertThat(actuator.control("child-" + i, "start")).isEqualTo(200);
		}
		JsonNode settled = await("every child runs or is refused").atMost(DEADLINE)
			.until(() -> actuator.get("health/supervisor"),
					(health) -> names(health, "RUNNING").size() + names(health, "FAILED").size() == children);
		List<String> refused = names(settled, "FAILED");
		List<String> running = names(settled, "RUNNING");
		assertThat(refused).as(settled::toString).isNotEmpty();
		assertThat(running).as(settled::toString).hasSizeGreaterThan(STOPPED);
		assertThat(settled.path("components").path(refused.get(0)).path("details").path("lastError").asString())
			.matches(refusal);
		// Why a window: a refused child retried in a loop would be refused again at each
		// of the ten ticks a second; none of ours ends meanwhile, so none is retried.
		AtomicLong seen = new AtomicLong(-1);
		await("no retry storm").during(Duration.ofSeconds(2))
			.atMost(DEADLINE)
			.until(() -> failedStarts(log) == seen.getAndSet(failedStarts(log)));
		assertThat(seen.get()).isEqualTo(refused.size());
		// Why awaited: the meters hear of a refusal through the listeners' events, after
		// it.
		await("refusals counted as failed spawns").atMost(DEADLINE)
			.until(() -> actuator.measurement("supervisor.spawn?tag=outcome:failure") == refused.size());

		// Why five: the JVM's own threads compete for what an end frees (it keeps trying
		// to start some while at the limit).
		for (String name : running.subList(running.size() - STOPPED, running.size())) {
			assertThat(actuator.control(name, "stop")).isEqualTo(200);
		}
		await("a refused child starts once others stopped").atMost(DEADLINE)
			.until(() -> names(actuator.get("health/supervisor"), "FAILED").size() < refused.size());
		assertThat(failedStarts(log)).as("at most one retry for each end")
			.isLessThanOrEqualTo(refused.size() + STOPPED);
	}

	/** {@code setpriv} as {@code uid}, then {@code arguments}. */
	private static List<String> setpriv(int uid, String... arguments) {
		List<String> command = new ArrayList<>(
				List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
		command.addAll(List.of(arguments));
		return command;
	}

	private static List<String> app(int children, Path directory) {
		return JavaCommand.main(DescriptorLimitApp.class, Integer.toString(children), directory.toString(),
				"--limit-test.autostart=false", "--limit-test.contain-descendants=false");
	}

	/** The lines of the JVM's output that say a child's start failed. */
	private static long failedStarts(Path log) {
		Matcher matcher = FAILED_START.matcher(read(log));
		long count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

	/**
	 * Skips, saying why, unless this kernel gives a new pid namespace a {@code pid_max}
	 * of its own (Linux 6.14 and later): writing the host's would take pids from every
	 * process of the machine. Checked by writing one in a namespace and reading the
	 * host's back.
	 */
	private static void assumePidMaxPerNamespace() throws Exception {
		// Why cat: a sysctl file read from an offset past 0 reads empty, and
		// Files.readString reads the first byte of a file of size 0 alone first.
		String host = run("cat", PID_MAX);
		String why;
		try {
			// Why one below the host's, read back in the namespace and outside: were the
			// file the host's after all, the host would lose a single pid, never more.
			String lower = Long.toString(Long.parseLong(host) - 1);
			String inside = run("unshare", "-p", "-f", "--mount-proc", "sh", "-c",
					"echo " + lower + " > " + PID_MAX + " && cat " + PID_MAX);
			String after = run("cat", PID_MAX);
			if (inside.equals(lower) && after.equals(host)) {
				return;
			}
			if (!after.equals(host)) {
				run("sh", "-c", "echo " + host + " > " + PID_MAX);
			}
			why = "written inside a pid namespace, it read " + inside + " there and " + after + " on the host";
		}
		catch (AssertionError ex) {
			why = ex.getMessage();
		}
		System.out.println("Skipped: pid_max is host-wide on this kernel (" + System.getProperty("os.version")
				+ ") or no pid namespace could be made here (" + why + "); lowering the host's would starve "
				+ "every process of the machine, so the pid_max refusal is not tested");
		Assumptions.abort("pid_max is not per pid namespace here");
	}

	/** Runs a command to its end; its output, or an assertion error naming it. */
	private static String run(String... command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
		return output.trim();
	}

}
