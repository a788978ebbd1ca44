package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;
import dev.tether.supervisor.testsupport.TreeSupervisorJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Children under shepherds, supervised for real: no descendant outlives its child or a
 * supervisor killed with SIGKILL, and {@code contain-descendants: false} keeps a child
 * without one.
 */
@EnabledOnOs(OS.LINUX)
class ShepherdSupervisionTests {

	// Why generous: the machines that run this are loaded; a shepherd's own grace is 2 s.
	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	@Test
	void killNineOfTheSupervisorEndsEveryProcessOfEveryTree() throws Exception {
		String installation = TestRun.installationId("shepherd-kill9");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		int children = 3;
		try (SecondJvm jvm = SecondJvm.start(TreeSupervisorJvm.class, this.temp.resolve("jvm.log"), installation,
				this.temp.resolve("state").toString(), Integer.toString(children))) {
			jvm.readUntil("STARTED");
			// Per child: the shepherd, the shell, its background sleep and its daemon.
			await("every tree complete").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.filter((pid) -> LiveProcesses.isRunning(pid, "sleep"))
					.count() == 2 * children);
			assertThat(LiveProcesses.withEnvironmentEntry(marker)).hasSize(4 * children);
			jvm.kill9();
			await("every process of every tree gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
			await("nothing started later").during(Duration.ofSeconds(1))
				.atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
	}

	@Test
	void killNineOfTheSupervisorEndsTheTreeOfAShepherdItsCommandStopped() throws Exception {
		String installation = TestRun.installationId("shepherd-stopped-kill9");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		// Why no tick: the supervisor would notice the stopped shepherd and end its tree
		// before the kill.
		try (SecondJvm jvm = SecondJvm.start(TreeSupervisorJvm.class, this.temp.resolve("jvm.log"), installation,
				this.temp.resolve("state").toString(), "1", "true", "sleep 600 & kill -STOP $PPID; wait", "false")) {
			jvm.readUntil("STARTED");
			// The shepherd, stopped; the shell and its background sleep.
			await("the tree complete, its shepherd stopped").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker)
					.stream()
					.map(LiveProcesses::stat)
					.flatMap(Optional::stream)
					.map((stat) -> stat.command() + ":" + stat.state())
					.sorted()
					.toList(),
						(tree) -> tree.size() == 3 && tree.contains("sleep:S")
								&& tree.stream().anyMatch((process) -> process.endsWith(":T")));
			jvm.kill9();
			await("every process of the tree gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
	}

	@ParameterizedTest
	@CsvSource({ "true, 0", "false, 5" })
	@EnabledIf("canUnsharePidNamespace")
	void supervisorAsPidOneGetsNoZombiesFromTheOrphansOfAShepherdedChild(boolean containDescendants, int zombies)
			throws Exception {
		Path state = this.temp.resolve("state");
		// Five short background jobs, orphaned at once: each tells when it ends.
		String script = "for i in 1 2 3 4 5; do (sh -c \"sleep 0.1; touch orphan-$i\" &); done; exec sleep 600";
		List<String> command = new ArrayList<>(List.of("unshare", "-p", "-f", "--mount-proc"));
		command.addAll(JavaCommand.main(TreeSupervisorJvm.class, TestRun.installationId("pid-one"), state.toString(),
				"1", Boolean.toString(containDescendants), script));
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(command).redirectError(this.temp.resolve("jvm.log").toFile()))) {
			jvm.readUntil("STARTED");
			// The supervisor, PID 1 of its namespace, is the child of unshare; its
			// SIGKILL ends the namespace.
			long supervisor = await().atMost(DEADLINE).until(() -> firstChild(jvm.pid()), (pid) -> pid > 0);
			try {
				await("every orphan ended").atMost(DEADLINE)
					.until(() -> IntStream.rangeClosed(1, 5)
						.allMatch((i) -> Files.exists(state.resolve("orphan-" + i))));
				await("zombies of the supervisor").atMost(DEADLINE)
					.during(Duration.ofMillis(500))
					.until(() -> zombieChildren(supervisor) == zombies);
			}
			finally {
				ProcessHandle.of(supervisor).ifPresent(ProcessHandle::destroyForcibly);
				assertThat(jvm.awaitExit(DEADLINE)).isTrue();
			}
		}
	}

	/**
	 * Whether this machine lets the tests make a pid namespace (root, or user namespaces
	 * allowed).
	 */
	static boolean canUnsharePidNamespace() {
		try {
			return new ProcessBuilder("unshare", "-p", "-f", "--mount-proc", "true").start()
				.onExit()
				.get(10, TimeUnit.SECONDS)
				.exitValue() == 0;
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			return false;
		}
	}

	private static long firstChild(long pid) {
		String children = readChildren(pid).strip();
		return children.isEmpty() ? 0 : Long.parseLong(children.split("\\s+")[0]);
	}

	private static long zombieChildren(long pid) {
		String children = readChildren(pid).strip();
		return children.isEmpty() ? 0
				: Arrays.stream(children.split("\\s+"))
					.map(Long::valueOf)
					.filter((child) -> LiveProcesses.stat(child).map((stat) -> stat.hasExited()).orElse(false))
					.count();
	}

	private static String readChildren(long pid) {
		StringBuilder all = new StringBuilder();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
			for (Path task : tasks) {
				all.append(Files.readString(task.resolve("children"))).append(' ');
			}
		}
		catch (IOException ex) {
			// Gone meanwhile: no children.
		}
		return all.toString();
	}

	@Test
	void daemonOfAChildThatExitsIsGoneBeforeTheExitIsReportedAndRestartsPileUpNone() throws Exception {
		Path daemons = this.temp.resolve("daemons");
		ChildSpec spec = ChildSpecs.restartedForever("daemonizer",
				List.of("sh", "-c", "setsid sleep 600 & echo $! >> '" + daemons + "'; sleep 0.2; exit 0"),
				Duration.ofMillis(20));
		Queue<String> survivors = new ConcurrentLinkedQueue<>();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"),
				TestRun.installationId("shepherd-daemons"), OrphanPolicy.STOP, List.of(spec),
				(builder) -> builder.listener((event) -> {
					if (event.type() == ChildEvent.Type.EXITED) {
						pids(daemons).stream()
							.filter(LiveProcesses::isAlive)
							.forEach((pid) -> survivors.add(pid + " after " + event.exit()));
					}
				}))) {
			supervisor.supervisor().start("daemonizer");
			await("five restarts").atMost(DEADLINE.multipliedBy(2))
				.until(() -> supervisor.events("daemonizer", ChildEvent.Type.EXITED).size() >= 6);
			supervisor.supervisor().stop("daemonizer");
			assertThat(survivors).isEmpty();
			assertThat(pids(daemons)).hasSizeGreaterThanOrEqualTo(6).noneMatch(LiveProcesses::isAlive);
		}
	}

	@Test
	void snapshotShowsTheCommandsPidAndItsShepherds() throws Exception {
		ChildSpec spec = ChildSpec.builder("sleeper", List.of("sleep", "600")).autostart(false).build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot started = supervisor.supervisor().start("sleeper");
			assertThat(started.shepherdPid()).isNotNull();
			assertThat(started.pid()).isNotNull().isNotEqualTo(started.shepherdPid());
			assertThat(LiveProcesses.stat(started.pid()).orElseThrow().ppid()).isEqualTo(started.shepherdPid());
			assertThat(LiveProcesses.stat(started.shepherdPid()).orElseThrow().ppid())
				.isEqualTo(ProcessHandle.current().pid());
			assertThat(supervisor.supervisor().stop("sleeper")).isEqualTo(StopOutcome.EXITED);
			assertThat(supervisor.supervisor().snapshot("sleeper").orElseThrow().lastExit().signal()).isEqualTo(15);
		}
	}

	@Test
	void withoutContainmentTheChildIsSpawnedDirectlyAndItsDaemonOutlivesIt() throws Exception {
		Path daemon = this.temp.resolve("daemon");
		ChildSpec spec = ChildSpec
			.builder("direct", List.of("sh", "-c", "setsid sleep 600 & echo $! > '" + daemon + "'; exec sleep 600"))
			.autostart(false)
			.containDescendants(false)
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot started = supervisor.supervisor().start("direct");
			assertThat(started.shepherdPid()).isNull();
			assertThat(LiveProcesses.stat(started.pid()).orElseThrow().ppid()).isEqualTo(ProcessHandle.current().pid());
			long daemonPid = await().atMost(DEADLINE).until(() -> pids(daemon), (pids) -> !pids.isEmpty()).get(0);
			assertThat(supervisor.supervisor().stop("direct")).isEqualTo(StopOutcome.EXITED);
			try {
				assertThat(LiveProcesses.isAlive(daemonPid)).isTrue();
			}
			finally {
				ProcessHandle.of(daemonPid).ifPresent(ProcessHandle::destroyForcibly);
				await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(daemonPid));
			}
		}
	}

	@Test
	void aCommandThatClearsItsEnvironmentIsStoppedAndRestarted() throws Exception {
		ChildSpec spec = ChildSpec
			.builder("cleared", List.of("sh", "-c", "exec env -i /bin/sh -c '/bin/sleep 600 & wait'"))
			.autostart(false)
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot first = supervisor.supervisor().start("cleared");
			await().atMost(DEADLINE)
				.until(() -> LiveProcesses.environ(first.pid()).isEmpty()
						&& LiveProcesses.isRunning(first.pid(), "sh"));
			ChildSnapshot second = supervisor.supervisor().restart("cleared");
			assertThat(second.shepherdPid()).isNotEqualTo(first.shepherdPid());
			assertThat(LiveProcesses.isAlive(first.shepherdPid())).isFalse();
			assertThat(LiveProcesses.isAlive(first.pid())).isFalse();
			assertThat(supervisor.supervisor().stop("cleared")).isEqualTo(StopOutcome.EXITED);
			assertThat(LiveProcesses.isAlive(second.pid())).isFalse();
		}
	}

	@Test
	void aShepherdKilledBySomeoneElseTakesItsWholeTreeWithItAndTheChildIsRestarted() throws Exception {
		Path work = this.temp.resolve("work");
		Files.createDirectories(work);
		// Every process of the tree ignores SIGTERM; each start appends its pids.
		ChildSpec spec = ChildSpec.builder("stubborn", List.of("sh", "-c", "trap '' TERM; "
				+ "sleep 600 & echo $! >> grandchildren; setsid sleep 600 & echo $! >> daemons; echo $$ >> commands; "
				+ "while :; do sleep 0.05; done"))
			.workingDirectory(work)
			.autostart(false)
			.restart(RestartPolicy.ON_FAILURE)
			.backoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(20), 1.0, 0.0))
			.stopTimeout(Duration.ofMillis(200))
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot first = supervisor.supervisor().start("stubborn");
			List<Long> tree = awaitTree(work, 1);
			ProcessHandle.of(first.shepherdPid()).orElseThrow().destroyForcibly();
			await("the killed shepherd's whole tree gone").atMost(DEADLINE)
				.until(() -> tree.stream().noneMatch(LiveProcesses::isAlive));
			ChildSnapshot restarted = await("restarted").atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("stubborn").orElseThrow(),
						(now) -> now.state() == ChildState.RUNNING && now.shepherdPid() != null
								&& !now.shepherdPid().equals(first.shepherdPid()));
			assertThat(restarted.lastExit().signal()).isEqualTo(9);
			List<Long> next = awaitTree(work, 2);
			await("the restarted tree untouched").atMost(DEADLINE)
				.during(Duration.ofSeconds(1))
				.until(() -> next.stream().allMatch(LiveProcesses::isAlive));
			assertThat(supervisor.supervisor().stop("stubborn")).isEqualTo(StopOutcome.KILLED);
			assertThat(next).noneMatch(LiveProcesses::isAlive);
		}
	}

	@Test
	void aShepherdStoppedByItsCommandIsNoticedAndItsTreeKilled() throws Exception {
		StoppedShepherd stopped = runUntilExited("freezer", "setsid sleep 600", "kill -STOP $PPID; ");
		assertThat(stopped.exited().lastExit().signal()).isEqualTo(9);
		assertThat(LiveProcesses.isAlive(stopped.shepherd())).isFalse();
	}

	@Test
	void aShepherdThatADaemonKeepsStoppingIsKilledAndTheDaemonSwept() throws Exception {
		runUntilExited("refreezer", "setsid sh -c 'while kill -STOP $0; do :; done' $PPID", "");
	}

	/**
	 * Runs a child whose shell starts a grandchild and {@code daemon}, records the three
	 * pids, runs {@code stopper} (one of them stops its shepherd), until the child has
	 * {@code EXITED} saying why and its whole tree is gone.
	 */
	private StoppedShepherd runUntilExited(String name, String daemon, String stopper) throws Exception {
		Path work = this.temp.resolve("work");
		Files.createDirectories(work);
		ChildSpec spec = ChildSpec
			.builder(name, List.of("sh", "-c",
					"sleep 600 & echo $! >> grandchildren; " + daemon + " & echo $! >> daemons; echo $$ >> commands; "
							+ stopper + "while :; do sleep 0.05; done"))
			.workingDirectory(work)
			.autostart(false)
			.restart(RestartPolicy.NEVER)
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			long shepherd = supervisor.supervisor().start(name).shepherdPid();
			// Why the pids alone: the tree may be gone already, as it should be soon
			// after it stopped its shepherd.
			List<Long> tree = awaitPids(work, 1);
			ChildSnapshot exited = await("the stopped shepherd noticed and its tree ended").atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot(name).orElseThrow(),
						(now) -> now.state() == ChildState.EXITED);
			assertThat(exited.lastError()).startsWith("its shepherd (pid " + shepherd + ") was stopped by a signal");
			await("the whole tree gone").atMost(DEADLINE).until(() -> tree.stream().noneMatch(LiveProcesses::isAlive));
			return new StoppedShepherd(shepherd, exited);
		}
	}

	private record StoppedShepherd(long shepherd, ChildSnapshot exited) {
	}

	@Test
	void theStartIsLoggedWithTheCommandsPidAndItsShepherds() throws Exception {
		ChildSpec spec = ChildSpec.builder("logged", List.of("sleep", "600")).autostart(false).build();
		Logger logger = (Logger) LoggerFactory.getLogger("dev.tether.supervisor.internal.supervision.SupervisedChild");
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		Level level = logger.getLevel();
		logger.setLevel(Level.INFO);
		logger.addAppender(appender);
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			ChildSnapshot started = supervisor.supervisor().start("logged");
			assertThat(started.pid()).isNotNull();
			await().atMost(DEADLINE)
				.until(() -> appender.list.stream()
					.map(ILoggingEvent::getFormattedMessage)
					.anyMatch((line) -> line.startsWith("Child 'logged' started")));
			assertThat(appender.list).map(ILoggingEvent::getFormattedMessage)
				.filteredOn((line) -> line.startsWith("Child 'logged' started"))
				.containsExactly("Child 'logged' started as pid " + started.pid() + " under shepherd pid "
						+ started.shepherdPid());
		}
		finally {
			logger.detachAppender(appender);
			logger.setLevel(level);
		}
	}

	/**
	 * The command, grandchild and daemon of the {@code start}th start, once all three
	 * run.
	 */
	private static List<Long> awaitTree(Path work, int start) {
		List<Long> tree = awaitPids(work, start);
		await().atMost(DEADLINE).until(() -> tree.stream().allMatch(LiveProcesses::isAlive));
		return tree;
	}

	/**
	 * The pids of the command, grandchild and daemon of the {@code start}th start, once
	 * all three are written.
	 */
	private static List<Long> awaitPids(Path work, int start) {
		List<Path> files = List.of(work.resolve("commands"), work.resolve("grandchildren"), work.resolve("daemons"));
		return await().atMost(DEADLINE)
			.until(() -> files.stream()
				.map(ShepherdSupervisionTests::pids)
				.filter((pids) -> pids.size() >= start)
				.map((pids) -> pids.get(start - 1))
				.toList(), (pids) -> pids.size() == files.size());
	}

	private static List<Long> pids(Path file) {
		try {
			String content = Files.exists(file) ? Files.readString(file).strip() : "";
			return content.isEmpty() ? List.of() : Arrays.stream(content.split("\\s+")).map(Long::valueOf).toList();
		}
		catch (IOException ex) {
			return List.of();
		}
	}

}
