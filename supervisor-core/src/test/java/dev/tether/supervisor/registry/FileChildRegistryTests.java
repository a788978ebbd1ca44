package dev.tether.supervisor.registry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@EnabledOnOs(OS.LINUX)
class FileChildRegistryTests {

	@TempDir
	Path temp;

	private static final RegistryRow ROW = new RegistryRow("greeter", "agent", "prod", 4242, 4242, 987654L, "boot-1",
			"RUNNING", Instant.parse("2026-11-29T08:00:00Z"), 2, 8080);

	@Test
	void rowsRoundTripInTheDocumentedShapeWithMode0600() throws Exception {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(ROW));
			assertThat(registry.load()).containsExactly(ROW);
		}
		Path file = this.temp.resolve("registry.json");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
		String json = Files.readString(file);
		assertThat(json).contains("\"version\" : 1")
			.contains("\"installationId\" : \"prod\"")
			.contains("\"startTime\" : 987654")
			.contains("\"spawnedAt\" : \"2026-11-29T08:00:00Z\"")
			.contains("\"port\" : 8080");
		assertThat(this.temp.resolve("registry.json.tmp")).doesNotExist();
	}

	@Test
	void propertiesOfANewerWriterAreSkipped() throws Exception {
		Files.writeString(this.temp.resolve("registry.json"), """
				{"version": 1, "writer": {"name": "next"}, "rows": [{"name": "greeter", "kind": "agent",
				"installationId": "prod", "pid": 4242, "pgid": 4242, "startTime": 987654, "bootId": "boot-1",
				"state": "RUNNING", "spawnedAt": "2026-11-29T08:00:00Z", "restarts": 2, "port": 8080,
				"cgroup": ["a", {"b": null}]}]}
				""");
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			assertThat(registry.load()).containsExactly(ROW);
			assertThat(registry.movedAside()).isNull();
		}
	}

	@Test
	void secondHolderFailsNamingTheDirectoryAndTheHolder() {
		try (FileChildRegistry first = FileChildRegistry.open(this.temp)) {
			assertThatExceptionOfType(RegistryLockedException.class).isThrownBy(() -> FileChildRegistry.open(this.temp))
				.withMessageContaining(this.temp.toString())
				.withMessageContaining("pid " + ProcessHandle.current().pid());
		}
		FileChildRegistry.open(this.temp).close();
	}

	@Test
	void garbageTruncatedAndDirectoryRegistriesAreMovedAsideNotDeleted() throws Exception {
		for (String content : new String[] { "garbage", "{\"version\": 1, \"rows\": [", "{\"version\": 99, \"rows\": []}",
				"{\"version\": 1, \"rows\": [null]}", "{\"version\": 1, \"rows\": [{\"name\": \"greeter\"}]}",
				"{\"version\": 1, \"rows\": [{\"pid\": \"4242\", \"pgid\": 4242, \"restarts\": 0}]}",
				"{\"version\": 1, \"rows\": [{\"pid\": 1, \"pgid\": 1, \"restarts\": 0, \"spawnedAt\": \"noon\"}]}",
				"{\"version\": 1, \"rows\": []} trailing" }) {
			Path directory = Files.createTempDirectory(this.temp, "state");
			Files.writeString(directory.resolve("registry.json"), content);
			try (FileChildRegistry registry = FileChildRegistry.open(directory)) {
				assertThat(registry.load()).isEmpty();
				assertThat(Files.readString(registry.movedAside())).isEqualTo(content);
				registry.save(List.of(ROW));
				assertThat(registry.load()).containsExactly(ROW);
			}
		}
		Path directory = Files.createTempDirectory(this.temp, "state");
		Files.createDirectories(directory.resolve("registry.json").resolve("inside"));
		try (FileChildRegistry registry = FileChildRegistry.open(directory)) {
			assertThat(registry.load()).isEmpty();
			assertThat(registry.movedAside().resolve("inside")).isDirectory();
		}
	}

	@Test
	void unwritableStateDirectoryIsAClearError() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> FileChildRegistry.open(Path.of("/proc/self/tether-state")))
			.withMessageContaining("/proc/self/tether-state");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> FileChildRegistry.open(Path.of("/proc/self")))
			.withMessageContaining("is not writable");
	}

}
