package dev.tether.supervisor.internal.spawn;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.OtherUser;

import static org.assertj.core.api.Assertions.assertThat;

@EnabledOnOs(OS.LINUX)
class LauncherOwnerUidTests {

	/**
	 * A uid that has no passwd entry on any machine this runs on, as a container's --user
	 * 12345 has.
	 */
	private static final int UID_WITHOUT_NAME = 54321;

	@TempDir
	Path temp;

	@Test
	void launcherIsChosenForAUidWithoutAPasswdEntry() throws Exception {
		OtherUser.assumeAvailable();
		assertThat(Files.readAllLines(Path.of("/etc/passwd")))
			.noneMatch((line) -> line.split(":")[2].equals(Integer.toString(UID_WITHOUT_NAME)));
		// Why copies: the other uid cannot read root's ~/.m2, where the class path's jars
		// live.
		Files.setPosixFilePermissions(this.temp, PosixFilePermissions.fromString("rwxr-xr-x"));
		Path home = Files.createDirectory(this.temp.resolve("home"));
		Files.setAttribute(home, "unix:uid", UID_WITHOUT_NAME);
		Files.setAttribute(home, "unix:gid", UID_WITHOUT_NAME);
		List<String> command = OtherUser.command(UID_WITHOUT_NAME, JavaCommand.of("-Djava.io.tmpdir=" + home, "-cp",
				readableClassPath(), ParentDeathUidCheck.class.getName(), home.resolve("bin").toString()));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(output).contains("MECHANISM launcher");
		}
		finally {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	private String readableClassPath() throws Exception {
		Path jars = Files.createDirectory(this.temp.resolve("jars"));
		List<String> entries = new ArrayList<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			Path path = Path.of(entry);
			if (Files.isRegularFile(path) && entry.endsWith(".jar")) {
				Path copy = jars.resolve(entries.size() + "-" + path.getFileName());
				Files.copy(path, copy);
				Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
				entries.add(copy.toString());
			}
			else {
				entries.add(entry);
			}
		}
		return String.join(File.pathSeparator, entries);
	}

}
