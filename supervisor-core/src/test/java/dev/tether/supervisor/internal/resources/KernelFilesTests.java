package dev.tether.supervisor.internal.resources;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kernel files read whole: a sysctl of several digits as {@code sysctl} itself reads it
 * (a size-0 file read from an offset past 0 would end after its first byte), and what
 * cannot be read or holds no number is empty.
 */
@EnabledOnOs(OS.LINUX)
class KernelFilesTests {

	@Test
	void aSysctlIsReadWhole() throws Exception {
		Process sysctl = new ProcessBuilder("cat", "/proc/sys/kernel/pid_max").redirectErrorStream(true).start();
		try {
			String output = new String(sysctl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			assertThat(sysctl.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(output).hasSizeGreaterThan(1);
			assertThat(KernelFiles.number(Path.of("/proc/sys/kernel/pid_max"))).hasValue(Long.parseLong(output));
		}
		finally {
			sysctl.destroyForcibly();
		}
	}

	@Test
	void aLongProcFileIsReadWhole() {
		assertThat(KernelFiles.read(Path.of("/proc/self/status"))).hasValueSatisfying(
				(status) -> assertThat(status).startsWith("Name:").contains("\nThreads:").endsWith("\n"));
	}

	@Test
	void whatCannotBeReadOrIsNoNumberIsEmpty(@TempDir Path directory) throws Exception {
		assertThat(KernelFiles.read(directory.resolve("missing"))).isEmpty();
		assertThat(KernelFiles.number(directory.resolve("missing"))).isEmpty();
		Path max = Files.writeString(directory.resolve("pids.max"), "max\n");
		assertThat(KernelFiles.number(max)).isEmpty();
	}

}
