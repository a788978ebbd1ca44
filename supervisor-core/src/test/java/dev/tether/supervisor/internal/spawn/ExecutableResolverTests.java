package dev.tether.supervisor.internal.spawn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.SpawnException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ExecutableResolverTests {

	@TempDir
	Path temp;

	@Test
	void findsAnExecutableOnThePath() throws Exception {
		Path bin = Files.createDirectory(this.temp.resolve("bin"));
		Path tool = executable(bin.resolve("tool"));
		assertThat(ExecutableResolver.resolve("tool", "/nowhere:" + bin, this.temp)).isEqualTo(tool);
	}

	@Test
	void emptyPathEntriesAreNotTheWorkingDirectory() throws Exception {
		executable(this.temp.resolve("tool"));
		for (String path : new String[] { ":/nowhere", "/nowhere:", "/nowhere::/elsewhere", "" }) {
			assertThatExceptionOfType(SpawnException.class).as("PATH '%s'", path)
				.isThrownBy(() -> ExecutableResolver.resolve("tool", path, this.temp));
		}
	}

	@Test
	void notFoundDoesNotDiscloseThePath() {
		assertThatExceptionOfType(SpawnException.class)
			.isThrownBy(() -> ExecutableResolver.resolve("no-such-tool", "/opt/private-x9/bin:/usr/bin", this.temp))
			.withMessage("executable 'no-such-tool' not found on PATH");
	}

	private static Path executable(Path file) throws Exception {
		Files.writeString(file, "#!/bin/sh\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
		return file;
	}

}
