package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.OtherUser;
import dev.tether.supervisor.testsupport.Privileges;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Limits and the OOM score, applied by the launcher to real commands: visible in
 * {@code /proc/<pid>/limits} and {@code oom_score_adj}, enforced on the command, and
 * never on its shepherd.
 */
@EnabledOnOs(OS.LINUX)
class ChildLimitsTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	// Opens /dev/null until the kernel refuses, then frees one descriptor for listing
	// /proc/self/fd (which the listing itself holds), writes how many were open, and
	// waits.
	private static final String OPEN_UNTIL_REFUSED = "import os, sys, time\n" + "fds = []\n" + "try:\n"
			+ "    while len(fds) < 1000: fds.append(os.open('/dev/null', os.O_RDONLY))\n" + "except OSError:\n"
			+ "    pass\n" + "os.close(fds.pop())\n" + "opened = len(os.listdir('/proc/self/fd'))\n"
			+ "for fd in fds: os.close(fd)\n" + "open(sys.argv[1] + '.tmp', 'w').write(str(opened))\n"
			+ "os.rename(sys.argv[1] + '.tmp', sys.argv[1])\n" + "time.sleep(600)\n";

	@TempDir
	Path temp;

	@Test
	void theCommandCannotOpenMoreFilesThanItsLimitAndItsShepherdKeepsItsOwn() throws Exception {
		Path opened = this.temp.resolve("opened");
		ChildSpec spec = ChildSpec.builder("files", List.of("python3", "-c", OPEN_UNTIL_REFUSED, opened.toString()))
			.resources(ResourceLimits.builder().openFiles(ResourceLimit.of(64)).build())
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			await().atMost(DEADLINE).until(() -> Files.exists(opened));
			assertThat(Files.readString(opened)).isEqualTo("64");
			ChildSnapshot child = running(supervisor, "files");
			assertThat(limitsRow(child.pid(), "Max open files")).containsExactly("64", "64");
			assertThat(limitsRow(child.shepherdPid(), "Max open files"))
				.isEqualTo(limitsRow(ProcessHandle.current().pid(), "Max open files"));
		}
	}

	@Test
	void processesCoreSizeAndTheOomScoreAreTheCommandsAlone() throws Exception {
		ChildSpec spec = ChildSpec.builder("limited", List.of("sleep", "600"))
			.resources(ResourceLimits.builder()
				.processes(new ResourceLimit(50, 100))
				.coreSize(new ResourceLimit(0, 1024 * 1024))
				.fileSize(ResourceLimit.of(1024 * 1024 * 1024))
				.cpuTime(new ResourceLimit(3600, ResourceLimit.UNLIMITED))
				.oomScoreAdjust(500)
				.build())
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			ChildSnapshot child = running(supervisor, "limited");
			assertThat(limitsRow(child.pid(), "Max processes")).containsExactly("50", "100");
			assertThat(limitsRow(child.pid(), "Max core file size")).containsExactly("0", "1048576");
			assertThat(limitsRow(child.pid(), "Max file size")).containsExactly("1073741824", "1073741824");
			assertThat(limitsRow(child.pid(), "Max cpu time")).containsExactly("3600", "unlimited");
			assertThat(Files.readString(Path.of("/proc/" + child.pid() + "/oom_score_adj")).trim()).isEqualTo("500");
			long jvm = ProcessHandle.current().pid();
			for (String row : List.of("Max processes", "Max core file size", "Max file size", "Max cpu time")) {
				assertThat(limitsRow(child.shepherdPid(), row)).as(row).isEqualTo(limitsRow(jvm, row));
			}
			assertThat(Files.readString(Path.of("/proc/" + child.shepherdPid() + "/oom_score_adj")))
				.isEqualTo(Files.readString(Path.of("/proc/self/oom_score_adj")));
		}
	}

	@Test
	void theCommandCannotForkPastItsProcessLimit() throws Exception {
		// Why another user: RLIMIT_NPROC counts the processes of the real uid, and root
		// is never held to it.
		OtherUser.assumeAvailable();
		String forks = "import os, time\n" + "n = 0\n" + "try:\n" + "    while n < 20:\n"
				+ "        if os.fork() == 0:\n" + "            time.sleep(600)\n" + "            os._exit(0)\n"
				+ "        n += 1\n" + "except OSError:\n" + "    pass\n" + "print('forked', n, flush=True)\n"
				+ "time.sleep(600)\n";
		ChildSpec spec = ChildSpec
			.builder("forks", OtherUser.command(OtherUser.unsharedUid(), List.of("/usr/bin/python3", "-c", forks)))
			.resources(ResourceLimits.builder().processes(ResourceLimit.of(4)).build())
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			running(supervisor, "forks");
			// The command and three children: the fourth fork was refused.
			await().atMost(DEADLINE)
				.until(() -> new String(supervisor.supervisor().output("forks").orElseThrow().lastLines(10, 4096)),
						(log) -> log.contains("forked"));
			assertThat(new String(supervisor.supervisor().output("forks").orElseThrow().lastLines(10, 4096)))
				.contains("forked 3\n");
		}
	}

	@Test
	void aScoreOrLimitOutOfRangeNamesTheSetting() {
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true"))
				.resources(ResourceLimits.builder().oomScoreAdjust(1001).build())
				.build())
			.withMessage("child 'a': oom-score-adjust must be between -1000 and 1000 (was 1001)");
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true"))
				.resources(ResourceLimits.builder().maxMemorySamples(0).build())
				.build())
			.withMessage("child 'a': max-memory-samples must be between 1 and 1000 (was 0)");
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true"))
				.resources(ResourceLimits.builder().maxMemory(0L).build())
				.build())
			.withMessage("child 'a': max-memory must be a positive size (was 0 bytes)");
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new ResourceLimit(65, 64))
			.withMessage("has its soft limit (65) above its hard limit (64)");
	}

	@Test
	void aValueThisProcessMayNotGiveNamesTheSettingAndTheAllowedRange() throws Exception {
		Privileges.assumeWithoutSysResource();
		long hard = Long.parseLong(Privileges.hardLimit("Max open files"));
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true"))
				.resources(ResourceLimits.builder().openFiles(new ResourceLimit(64, hard + 1)).build())
				.build())
			.withMessage("child 'a': limits.open-files (64:" + (hard + 1) + ") has a hard limit above this process's ("
					+ hard + "), which it cannot raise without CAP_SYS_RESOURCE: allowed 0 to " + hard);
		long own = Long.parseLong(Files.readString(Path.of("/proc/self/oom_score_adj")).trim());
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> ChildSpec.builder("a", List.of("true"))
				.resources(ResourceLimits.builder().oomScoreAdjust((int) own - 1).build())
				.build())
			.withMessage("child 'a': oom-score-adjust (" + (own - 1) + ") is below this process's (" + own
					+ "), which it cannot lower without CAP_SYS_RESOURCE: allowed " + own + " to 1000");
	}

	@Test
	void withoutAShepherdTheLauncherSetsThemOnTheCommandItself() throws Exception {
		ChildSpec spec = ChildSpec.builder("alone", List.of("sleep", "600"))
			.containDescendants(false)
			.resources(ResourceLimits.builder().openFiles(ResourceLimit.of(64)).oomScoreAdjust(500).build())
			.build();
		try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			supervisor.supervisor().startAutostart();
			ChildSnapshot child = await().atMost(DEADLINE)
				.until(() -> supervisor.supervisor().snapshot("alone").orElseThrow(),
						(snapshot) -> snapshot.state() == ChildState.RUNNING
								&& LiveProcesses.isRunning(snapshot.pid(), "sleep"));
			assertThat(child.shepherdPid()).isNull();
			assertThat(limitsRow(child.pid(), "Max open files")).containsExactly("64", "64");
			assertThat(Files.readString(Path.of("/proc/" + child.pid() + "/oom_score_adj")).trim()).isEqualTo("500");
		}
	}

	private static ChildSnapshot running(TestSupervisor supervisor, String name) {
		return await().atMost(DEADLINE)
			.until(() -> supervisor.supervisor().snapshot(name).orElseThrow(),
					(child) -> child.state() == ChildState.RUNNING && child.shepherdPid() != null
							&& !child.pid().equals(child.shepherdPid()));
	}

	/** The soft and hard columns of a row of {@code /proc/<pid>/limits}. */
	private static List<String> limitsRow(long pid, String row) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/limits"))) {
			if (line.startsWith(row + " ")) {
				String[] values = line.substring(26).trim().split("\\s+");
				return List.of(values[0], values[1]);
			}
		}
		throw new AssertionError("no row '" + row + "' in /proc/" + pid + "/limits");
	}

}
