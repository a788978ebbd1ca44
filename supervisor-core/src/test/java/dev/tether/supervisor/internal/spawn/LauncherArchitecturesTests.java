package dev.tether.supervisor.internal.spawn;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.os.ActivationSockets;
import dev.tether.supervisor.internal.os.HandedSocket;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.testsupport.LiveProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The launcher of each Linux architecture the jar carries: an ELF for that machine, found
 * under the name the running JDK gives its own machine, and the arm64 one run under
 * qemu-user where it is installed (CI installs it). Why not the shepherd under qemu:
 * qemu-user 7 refuses {@code PR_SET_CHILD_SUBREAPER}, which a shepherd needs; the
 * launcher mode needs only {@code PR_SET_PDEATHSIG}, which qemu passes to the kernel.
 */
@EnabledOnOs(OS.LINUX)
class LauncherArchitecturesTests {

	private static final int EM_X86_64 = 62;

	private static final int EM_AARCH64 = 183;

	private static final Duration PROMPTLY = Duration.ofSeconds(20);

	@Test
	void eachNameAJdkGivesAnArchitectureFindsItsLauncher() {
		assertThat(ParentDeath.architecture("amd64")).isEqualTo("amd64");
		assertThat(ParentDeath.architecture("x86_64")).isEqualTo("amd64");
		assertThat(ParentDeath.architecture("aarch64")).isEqualTo("aarch64");
		assertThat(ParentDeath.architecture("arm64")).isEqualTo("aarch64");
		assertThat(ParentDeath.architecture("riscv64")).isEqualTo("riscv64");
	}

	@Test
	void theLauncherOfThisMachineIsAlwaysBuilt() {
		assertThat(resource(ParentDeath.platform())).as("the launcher for %s", ParentDeath.platform()).isNotNull();
	}

	@ParameterizedTest(name = "linux-{0}")
	@CsvSource({ "amd64, " + EM_X86_64, "aarch64, " + EM_AARCH64 })
	void eachLauncherIsAStaticElfExecutableForItsMachine(String architecture, int machine) throws Exception {
		byte[] header = new byte[20];
		try (InputStream in = Files.newInputStream(launcherOrSkip(architecture))) {
			assertThat(in.readNBytes(header, 0, header.length)).isEqualTo(header.length);
		}
		assertThat(header).startsWith(0x7f, 'E', 'L', 'F');
		assertThat(header[4]).as("ELFCLASS64").isEqualTo((byte) 2);
		assertThat(header[5]).as("little-endian").isEqualTo((byte) 1);
		assertThat(halfWord(header, 16)).as("e_type ET_EXEC: static, nothing to relocate").isEqualTo(2);
		assertThat(halfWord(header, 18)).as("e_machine").isEqualTo(machine);
	}

	@Test
	void theArm64LauncherPassesItsSelfTestUnderQemu() throws Exception {
		Process process = new ProcessBuilder(qemuOrSkip().toString(), launcherOrSkip("aarch64").toString(),
				"--self-test")
			.redirectErrorStream(true)
			.start();
		try {
			assertThat(process.waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).isZero();
		}
		finally {
			process.destroyForcibly().waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
		}
	}

	@Test
	void theArm64LauncherDoesNotRunTheCommandWhenItsParentIsNotTheSupervisor() throws Exception {
		// Why pid 1 as the supervisor: the launcher's parent is this JVM, so the check
		// that guards the race of a supervisor dying before the signal is armed fires.
		Process process = new ProcessBuilder(qemuOrSkip().toString(), launcherOrSkip("aarch64").toString(), "15", "1",
				onPath("true").toString(), "true")
			.redirectErrorStream(true)
			.start();
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).as(output).isEqualTo(126);
			assertThat(output).contains("supervisor is gone");
		}
		finally {
			process.destroyForcibly().waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
		}
	}

	@Test
	void theArm64LaunchersCommandDiesWhenItsParentIsKilled() throws Exception {
		Path qemu = qemuOrSkip();
		Path launcher = launcherOrSkip("aarch64");
		// Why a shell as the parent: the launcher arms the signal against its parent's
		// death, and this JVM must outlive the parent it kills.
		Process parent = new ProcessBuilder("sh", "-c", "\"$0\" \"$1\" 15 $$ \"$2\" sleep 300 & echo $!; wait",
				qemu.toString(), launcher.toString(), onPath("sleep").toString())
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
		long child = 0;
		long startTime = 0;
		try {
			child = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream())).readLine());
			long pid = child;
			await("the command past the launcher").atMost(PROMPTLY).until(() -> LiveProcesses.isRunning(pid, "sleep"));
			ProcStat stat = LiveProcesses.stat(pid).orElseThrow();
			assertThat(stat.ppid()).isEqualTo(parent.pid());
			startTime = stat.startTime();
			parent.destroyForcibly();
			long started = startTime;
			await("the command gone with its parent").atMost(PROMPTLY)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> !LiveProcesses.isAlive(pid, started));
		}
		finally {
			parent.destroyForcibly().waitFor(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
			if (child > 0 && LiveProcesses.isAlive(child, startTime)) {
				ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
			}
		}
	}

	@Test
	void theArm64LauncherHandsTheCommandItsListeningSocketAsDescriptor3WithItsOwnPid() throws Exception {
		Path qemu = qemuOrSkip();
		Path launcher = launcherOrSkip("aarch64");
		ActivationSockets sockets = new ActivationSockets(Posix.get());
		int fd = sockets.open(InetAddress.getLoopbackAddress(), 0, 4);
		long pid = 0;
		try {
			pid = PosixSpawn.spawn(qemu.toString(),
					List.of(qemu.toString(), launcher.toString(), "--listen-socket", "--pid-env", "LISTEN_PID", "15",
							Long.toString(ProcessHandle.current().pid()), onPath("sleep").toString(), "sleep", "300"),
					List.of("PATH=/usr/bin:/bin"), Path.of("/dev/null"),
					new PosixSpawn.Output.AppendTo(Path.of("/dev/null")), null, new HandedSocket(fd, false));
			long command = pid;
			await("the command past the launcher").atMost(PROMPTLY)
				.until(() -> LiveProcesses.isRunning(command, "sleep"));
			Path descriptors = Path.of("/proc", Long.toString(pid), "fd");
			try (Stream<Path> open = Files.list(descriptors)) {
				assertThat(open.map((path) -> path.getFileName().toString())).containsExactlyInAnyOrder("0", "1", "2",
						"3");
			}
			assertThat(Files.readSymbolicLink(descriptors.resolve("3")))
				.isEqualTo(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)));
			assertThat(LiveProcesses.environ(pid)).contains("LISTEN_PID=" + pid);
		}
		finally {
			sockets.close(fd);
			if (pid > 0) {
				long spawned = pid;
				ProcessHandle.of(spawned).ifPresent(ProcessHandle::destroyForcibly);
				await().atMost(PROMPTLY)
					.until(() -> Posix.get().waitpid(spawned).kind() != Posix.WaitResult.Kind.RUNNING);
			}
		}
	}

	private static int halfWord(byte[] bytes, int offset) {
		return (bytes[offset] & 0xff) | (bytes[offset + 1] & 0xff) << 8;
	}

	private static URL resource(String platform) {
		return LauncherArchitecturesTests.class.getResource("/META-INF/tether/native/" + platform + "/tether-launcher");
	}

	private static Path launcherOrSkip(String architecture) throws Exception {
		URL launcher = resource("linux-" + architecture);
		skipUnless(launcher != null, "no linux-" + architecture
				+ " launcher was built (build-launcher.sh found no compiler for it; CI installs the cross compiler)");
		return Path.of(launcher.toURI());
	}

	private static Path qemuOrSkip() {
		for (String name : List.of("qemu-aarch64", "qemu-aarch64-static")) {
			Path qemu = findOnPath(name);
			if (qemu != null) {
				return qemu;
			}
		}
		skipUnless(false, "no qemu-aarch64 on the PATH (Debian package qemu-user; CI installs it)");
		return null;
	}

	private static void skipUnless(boolean condition, String reason) {
		if (!condition) {
			System.out.println("Skipped: " + reason);
			Assumptions.abort(reason);
		}
	}

	private static Path onPath(String name) {
		Path found = findOnPath(name);
		assertThat(found).as(name + " on the PATH").isNotNull();
		return found;
	}

	// Why not ExecutableResolver: it warns of every name it does not find, and a missing
	// qemu is a reason to skip, printed once.
	private static Path findOnPath(String name) {
		for (String directory : System.getenv("PATH").split(File.pathSeparator)) {
			Path candidate = Path.of(directory, name);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

}
