package dev.tether.supervisor.internal.spawn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The launcher's shepherd mode against real processes: exact exit status, and no
 * descendant outliving the command, the shepherd or the shepherd's parent.
 */
@EnabledOnOs(OS.LINUX)
class ShepherdTests {

	// Why generous: the machines that run this are loaded; the shepherd's own grace is 2
	// s.
	private static final Duration DEADLINE = Duration.ofSeconds(20);

	// Starts a background grandchild and a daemon in a session of its own, writes their
	// pids, then runs the rest.
	private static final String TREE = "sleep 300 & echo $! > grandchild; setsid sleep 300 & echo $! > daemon; ";

	@TempDir
	Path temp;

	private TestSpawns spawns;

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(
				new Spawner(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 42, 255 })
	void exitCodePassesThrough(int code) throws Exception {
		ExitStatus exit = exitOf(shepherd("exit " + code));
		assertThat(exit.code()).isEqualTo(code);
		assertThat(exit.signal()).isNull();
	}

	@ParameterizedTest
	@ValueSource(ints = { 15, 9, 11 })
	void deathBySignalPassesThrough(int signal) throws Exception {
		ExitStatus exit = exitOf(shepherd("kill -" + signal + " $$"));
		assertThat(exit.signal()).isEqualTo(signal);
		assertThat(exit.code()).isNull();
	}

	@Test
	void commandIsTheShepherdsChildInAGroupOfItsOwn() throws Exception {
		long shepherd = shepherd("echo $$ > command; exec sleep 300");
		long command = awaitPid("command");
		assertThat(Shepherd.commandPid(shepherd)).hasValue(command);
		assertThat(LiveProcesses.stat(command).orElseThrow().ppid()).isEqualTo(shepherd);
		assertThat(LiveProcesses.stat(command).orElseThrow().pgrp()).isEqualTo(command);
		assertThat(LiveProcesses.descriptors(command)).containsExactly(0, 1, 2);
		Reaper.shared().signalGroupUnreaped(shepherd, 15);
		assertThat(exitOf(shepherd).signal()).isEqualTo(15);
	}

	@Test
	void descendantsEndBeforeTheShepherdReportsTheCommandsExit() throws Exception {
		Files.createFile(this.temp.resolve("hold"));
		long shepherd = shepherd(TREE + "while [ -e hold ]; do sleep 0.05; done; exit 3");
		long grandchild = awaitRunning("grandchild");
		long daemon = awaitRunning("daemon");
		assertThat(LiveProcesses.stat(daemon).orElseThrow().session()).isEqualTo(daemon);
		Files.delete(this.temp.resolve("hold"));
		ExitStatus exit = exitOf(shepherd);
		// Why no waiting here: the shepherd exits only once it has no child left, and the
		// daemon is its child.
		assertThat(LiveProcesses.isAlive(grandchild)).isFalse();
		assertThat(LiveProcesses.isAlive(daemon)).isFalse();
		assertThat(exit.code()).isEqualTo(3);
	}

	@Test
	void aDescendantThatTrapsTheTreeSignalGetsItOnceThenSigkill() throws Exception {
		Files.createFile(this.temp.resolve("hold"));
		long shepherd = shepherd("sh -c 'trap \"echo >> terms\" TERM; while :; do sleep 0.05; done' & "
				+ "echo $! > grandchild; while [ -e hold ]; do sleep 0.05; done; exit 0");
		long grandchild = awaitRunning("grandchild");
		Files.delete(this.temp.resolve("hold"));
		assertThat(exitOf(shepherd).code()).isZero();
		assertThat(LiveProcesses.isAlive(grandchild)).isFalse();
		assertThat(Files.readAllLines(this.temp.resolve("terms"))).hasSize(1);
	}

	@Test
	void forwardsAStopSignalToTheCommandsGroup() throws Exception {
		// Why the command waits for the grandchild: once the command exits, the shepherd
		// ends the rest of the tree.
		// Why the grandchild writes its own pid, after its trap: a USR1 before the trap
		// is set would simply end it.
		long shepherd = shepherd("trap 'echo > command-usr1; wait $g; exit 7' USR1; "
				+ "sh -c 'trap \"echo > grandchild-usr1; exit 0\" USR1; echo $$ > grandchild; "
				+ "while :; do sleep 0.05; done' & g=$!; while :; do sleep 0.05; done");
		awaitRunning("grandchild");
		Reaper.shared().signalGroupUnreaped(shepherd, 10);
		await().atMost(DEADLINE).until(() -> Files.exists(this.temp.resolve("grandchild-usr1")));
		assertThat(exitOf(shepherd).code()).isEqualTo(7);
		assertThat(this.temp.resolve("command-usr1")).exists();
	}

	@Test
	void killTreeRequestEndsACommandThatIgnoresTermAndItsDescendants() throws Exception {
		long shepherd = shepherd("trap '' TERM; " + TREE + "while :; do sleep 0.05; done");
		long grandchild = awaitRunning("grandchild");
		long daemon = awaitRunning("daemon");
		Reaper.shared().signalGroupUnreaped(shepherd, 15);
		Reaper.shared().signalGroupUnreaped(shepherd, Shepherd.KILL_TREE_SIGNAL);
		ExitStatus exit = exitOf(shepherd);
		assertThat(exit.signal()).isEqualTo(9);
		assertThat(LiveProcesses.isAlive(grandchild)).isFalse();
		assertThat(LiveProcesses.isAlive(daemon)).isFalse();
	}

	@Test
	void killOfTheShepherdsParentEndsTheWholeTree() throws Exception {
		ShepherdedTree tree = underAWrapper("");
		assertThat(LiveProcesses.stat(tree.shepherd()).orElseThrow().ppid()).isEqualTo(tree.wrapper());
		tree.killWrapperAndAwaitTheEnd();
	}

	@Test
	void aShepherdStoppedByItsCommandStillEndsTheWholeTreeWhenItsParentIsKilled() throws Exception {
		// Why the command stops its shepherd: a stopped process acts on no signal but
		// SIGKILL and SIGCONT.
		ShepherdedTree tree = underAWrapper("kill -STOP $PPID; ");
		await("the shepherd stopped").atMost(DEADLINE)
			.until(() -> LiveProcesses.stat(tree.shepherd()).map((stat) -> stat.state() == 'T').orElse(false));
		tree.killWrapperAndAwaitTheEnd();
	}

	/**
	 * A shepherd whose parent is a shell (which SIGKILL alone ends), over a command that
	 * records its tree and runs {@code beforeLoop}.
	 */
	private ShepherdedTree underAWrapper(String beforeLoop) throws Exception {
		Path launcher = ParentDeath
			.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), this.temp.resolve("launcher"))
			.program();
		String inner = "cd '" + this.temp + "'; echo $$ > command; " + TREE + beforeLoop
				+ "while :; do sleep 0.05; done";
		long wrapper = this.spawns
			.spawn("wrapper", "/bin/sh", "-c", "'" + launcher + "' --shepherd 15 $$ /bin/sh sh -c \"$0\"; exit 0",
					inner)
			.pid();
		long command = awaitRunning("command");
		long grandchild = awaitRunning("grandchild");
		long daemon = awaitRunning("daemon");
		long shepherd = LiveProcesses.stat(command).orElseThrow().ppid();
		return new ShepherdedTree(wrapper, shepherd, List.of(shepherd, command, grandchild, daemon));
	}

	private record ShepherdedTree(long wrapper, long shepherd, List<Long> tree) {

		void killWrapperAndAwaitTheEnd() {
			ProcessHandle.of(this.wrapper).orElseThrow().destroyForcibly();
			await().atMost(DEADLINE).until(() -> this.tree.stream().noneMatch(LiveProcesses::isAlive));
		}

	}

	@Test
	void aCommandThatIgnoresTermDiesWithAShepherdKilledBySomeoneElse() throws Exception {
		long shepherd = shepherd("trap '' TERM; echo $$ > command; while :; do sleep 0.05; done");
		long command = awaitRunning("command");
		// The shepherd leads a group of its own: this is SIGKILL to the shepherd alone.
		Reaper.shared().signalGroupUnreaped(shepherd, 9);
		assertThat(exitOf(shepherd).signal()).isEqualTo(9);
		await("the command gone").atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(command));
	}

	private long shepherd(String script) throws SpawnException {
		SpawnedChild child = this.spawns.spawnShepherded("shepherded", "/bin/sh", "-c",
				"cd '" + this.temp + "'; " + script);
		assertThat(child.shepherd()).isTrue();
		return child.pid();
	}

	private ExitStatus exitOf(long pid) {
		return await().atMost(DEADLINE).until(() -> this.spawns.exitOf(pid), (exit) -> exit != null);
	}

	private long awaitPid(String file) {
		Path path = this.temp.resolve(file);
		return await().atMost(DEADLINE).until(() -> readPid(path), (pid) -> pid > 0);
	}

	private long awaitRunning(String file) {
		long pid = awaitPid(file);
		await().atMost(DEADLINE)
			.until(() -> LiveProcesses.isRunning(pid, "sleep") || LiveProcesses.isRunning(pid, "sh"));
		return pid;
	}

	private static long readPid(Path file) {
		try {
			String content = Files.exists(file) ? Files.readString(file).strip() : "";
			return content.isEmpty() ? 0 : Long.parseLong(content);
		}
		catch (IOException | NumberFormatException ex) {
			return 0;
		}
	}

}
