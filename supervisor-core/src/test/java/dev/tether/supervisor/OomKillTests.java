package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A child that the kernel's OOM killer ends says so in its {@code lastExit}: a real OOM
 * kill, of a child that moves itself into a memory cgroup of 32 MB made for the test and
 * then writes 256 MB. Needs a memory controller this process may write (cgroup v1's
 * memory hierarchy, or v2 with the memory controller enabled for its children); skipped,
 * with the reason, where the machine has none.
 */
@EnabledOnOs(OS.LINUX)
class OomKillTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final long LIMIT = 32L * 1024 * 1024;

	@TempDir
	Path temp;

	@Test
	void aChildTheOomKillerEndsSaysSoInItsLastExit() throws Exception {
		Path cgroup = memoryCgroup();
		if (cgroup == null) {
			System.out.println("OomKillTests skipped: no memory cgroup can be made here (no memory controller, or "
					+ "not writable)");
		}
		assumeTrue(cgroup != null, "no memory cgroup can be made here (no memory controller, or not writable)");
		try {
			String hog = "echo $$ > " + cgroup.resolve("cgroup.procs")
					+ " && exec python3 -c \"b = b'x' * (256 * 1024 * 1024)\"";
			ChildSpec spec = ChildSpec.builder("hog", List.of("/bin/sh", "-c", hog))
				.restart(RestartPolicy.NEVER)
				.build();
			try (TestSupervisor supervisor = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
				supervisor.supervisor().startAutostart();
				ExitStatus exit = await().atMost(DEADLINE)
					.until(() -> supervisor.supervisor().snapshot("hog").orElseThrow().lastExit(), (e) -> e != null);
				assertThat(exit.signal()).as(exit.toString()).isEqualTo(9);
				assertThat(exit.killer()).isEqualTo(ExitStatus.OOM_KILLER);
				assertThat(exit.toString()).isEqualTo("killed by signal 9 (most likely the kernel's OOM killer)");
			}
		}
		finally {
			// Why awaited: a cgroup can be removed only once its last process is gone,
			// which the kernel finishes after the exit was reported.
			await().atMost(DEADLINE).until(() -> removed(cgroup));
		}
	}

	/**
	 * A new memory cgroup of {@link #LIMIT} below this process's own, or {@code null}
	 * where none can be made. Why the swap limit too, where there is one: with swap, a v1
	 * cgroup at its limit swaps instead of killing.
	 */
	private static @Nullable Path memoryCgroup() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
			String[] fields = line.split(":", 3);
			boolean v1 = List.of(fields[1].split(",")).contains("memory");
			boolean v2 = fields[0].equals("0") && fields[1].isEmpty();
			Path own = v1 ? Path.of("/sys/fs/cgroup/memory" + fields[2]) : Path.of("/sys/fs/cgroup" + fields[2]);
			if (v2 && !(Files.isReadable(own.resolve("cgroup.subtree_control"))
					&& Files.readString(own.resolve("cgroup.subtree_control")).contains("memory"))) {
				continue;
			}
			if (!v1 && !v2) {
				continue;
			}
			Path cgroup = own.resolve("tether-oom-" + UUID.randomUUID());
			try {
				Files.createDirectory(cgroup);
			}
			catch (IOException ex) {
				continue;
			}
			try {
				if (v1) {
					Files.writeString(cgroup.resolve("memory.limit_in_bytes"), Long.toString(LIMIT));
					if (Files.exists(cgroup.resolve("memory.memsw.limit_in_bytes"))) {
						Files.writeString(cgroup.resolve("memory.memsw.limit_in_bytes"), Long.toString(LIMIT));
					}
				}
				else {
					Files.writeString(cgroup.resolve("memory.max"), Long.toString(LIMIT));
					if (Files.exists(cgroup.resolve("memory.swap.max"))) {
						Files.writeString(cgroup.resolve("memory.swap.max"), "0");
					}
				}
				return cgroup;
			}
			catch (IOException ex) {
				Files.delete(cgroup);
			}
		}
		return null;
	}

	private static boolean removed(@Nullable Path cgroup) {
		if (cgroup == null) {
			return true;
		}
		try {
			Files.deleteIfExists(cgroup);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
