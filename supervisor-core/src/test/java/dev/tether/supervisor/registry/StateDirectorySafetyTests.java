package dev.tether.supervisor.registry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.UnsafeDirectoryException;
import dev.tether.supervisor.internal.files.PrivateDirectory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A state directory that another user could change is refused, and the files in it are
 * never reached through a symbolic link.
 */
@EnabledOnOs(OS.LINUX)
class StateDirectorySafetyTests {

	/** A uid with no passwd entry, standing for another user of the machine. */
	private static final int OTHER_UID = 54322;

	private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

	@TempDir
	Path temp;

	@Test
	void privateDirectoryUnderAStickyRootOwnedDirectoryIsAccepted() throws Exception {
		assertThat(Files.getAttribute(this.temp.getParent(), "unix:mode")).matches((mode) -> ((int) mode & 01000) != 0,
				"sticky");
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp.resolve("state"))) {
			assertThat(registry.load()).isEmpty();
		}
		Path shared = directory("shared", "rwxrwxrwx");
		Files.setAttribute(shared, "unix:mode", 01777);
		try (FileChildRegistry registry = FileChildRegistry.open(shared.resolve("state"))) {
			assertThat(registry.load()).isEmpty();
		}
	}

	@Test
	void parentWritableByOthersIsRefusedNamingIt() throws Exception {
		Path shared = directory("shared", "rwxrwxrwx");
		Path state = shared.resolve("state");
		assertThatExceptionOfType(UnsafeDirectoryException.class).isThrownBy(() -> FileChildRegistry.open(state))
			.withMessageContaining(shared + " is writable by its group or by others (mode 0777)")
			.satisfies((ex) -> assertThat(ex.getUnsafePath()).isEqualTo(shared));
		assertThat(state).doesNotExist();
	}

	@Test
	void groupWritableStateDirectoryIsRefused() throws Exception {
		Path state = directory("state", "rwxrwx---");
		assertThatExceptionOfType(UnsafeDirectoryException.class).isThrownBy(() -> FileChildRegistry.open(state))
			.withMessageContaining(state + " is writable by its group or by others (mode 0770)");
	}

	@Test
	void linkIntoAnUnsafeDirectoryIsRefused() throws Exception {
		Path shared = directory("shared", "rwxrwxrwx");
		Path target = Files.createDirectory(shared.resolve("state"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Path link = Files.createSymbolicLink(this.temp.resolve("state"), target);
		assertThatExceptionOfType(UnsafeDirectoryException.class).isThrownBy(() -> FileChildRegistry.open(link))
			.withMessageContaining(shared.toString());
	}

	@Test
	void directoryOwnedByAnotherUidIsRefused() throws Exception {
		assumeRoot();
		Path owned = directory("owned", "rwx------");
		Files.setAttribute(owned, "unix:uid", OTHER_UID);
		assertThatExceptionOfType(UnsafeDirectoryException.class)
			.isThrownBy(() -> FileChildRegistry.open(owned.resolve("state")))
			.withMessageContaining(owned + " is owned by uid " + OTHER_UID);
	}

	@Test
	void stateDirectoryMadeByAnotherUserInASharedStickyDirectoryIsRefused() throws Exception {
		assumeRoot();
		if (!Files.isExecutable(SETPRIV)) {
			skip("running as another user needs " + SETPRIV);
		}
		Path shared = directory("shared", "rwxrwxrwx");
		Files.setAttribute(shared, "unix:mode", 01777);
		Files.setPosixFilePermissions(this.temp, PosixFilePermissions.fromString("rwxr-xr-x"));
		Path state = shared.resolve("state");
		Process mkdir = new ProcessBuilder(SETPRIV.toString(), "--reuid=" + OTHER_UID, "--regid=" + OTHER_UID,
				"--clear-groups", "--", "/bin/mkdir", "-m", "0700", state.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(mkdir.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(mkdir.waitFor(30, TimeUnit.SECONDS)).isTrue();
		if (mkdir.exitValue() != 0) {
			skip("this machine refused to run mkdir as uid " + OTHER_UID + ": " + output.strip());
		}
		assertThat(Files.getAttribute(state, "unix:uid")).isEqualTo(OTHER_UID);
		assertThatExceptionOfType(UnsafeDirectoryException.class).isThrownBy(() -> FileChildRegistry.open(state))
			.withMessageContaining(state + " is owned by uid " + OTHER_UID);
	}

	@Test
	void lockPlantedAsALinkIsNotFollowed() throws Exception {
		Path state = directory("state", "rwx------");
		Path victim = Files.writeString(this.temp.resolve("victim"), "precious\n");
		Files.createSymbolicLink(state.resolve("registry.lock"), victim);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> FileChildRegistry.open(state))
			.withMessageContaining(state.resolve("registry.lock").toString())
			.withMessageContaining("symbolic link");
		assertThat(victim).hasContent("precious");
	}

	@Test
	void registryPlantedAsALinkIsNotRead() throws Exception {
		Path state = directory("state", "rwx------");
		Path elsewhere = this.temp.resolve("elsewhere.json");
		try (FileChildRegistry registry = FileChildRegistry.open(directory("other", "rwx------"))) {
			registry.save(List.of(new RegistryRow("greeter", "agent", "test-other", 4242L, 4242L, 1L, "boot", "RUNNING",
					Instant.parse("2026-11-29T08:00:00Z"), 0, null)));
		}
		Files.move(this.temp.resolve("other").resolve("registry.json"), elsewhere);
		Files.createSymbolicLink(state.resolve("registry.json"), elsewhere);
		try (FileChildRegistry registry = FileChildRegistry.open(state)) {
			assertThat(registry.load()).isEmpty();
			assertThat(registry.movedAside()).isSymbolicLink();
		}
		assertThat(elsewhere).content().contains("greeter");
	}

	@Test
	void checkNamesTheDirectoryItWasGiven() throws Exception {
		Path shared = directory("shared", "rwxrwxrwx");
		Path inner = Files.createDirectories(shared.resolve("a").resolve("b"));
		Files.setPosixFilePermissions(inner, PosixFilePermissions.fromString("rwx------"));
		Files.setPosixFilePermissions(inner.getParent(), PosixFilePermissions.fromString("rwx------"));
		assertThatExceptionOfType(UnsafeDirectoryException.class).isThrownBy(() -> PrivateDirectory.check(inner))
			.satisfies((ex) -> {
				assertThat(ex.getDirectory()).isEqualTo(inner);
				assertThat(ex.getUnsafePath()).isEqualTo(shared);
			});
	}

	private Path directory(String name, String permissions) throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve(name));
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString(permissions));
		return directory;
	}

	private static void assumeRoot() throws Exception {
		if (PrivateDirectory.effectiveUid() != 0) {
			skip("giving a directory to another uid needs root");
		}
	}

	private static void skip(String reason) {
		System.out.println("Skipped: " + reason);
		Assumptions.abort(reason);
	}

}
