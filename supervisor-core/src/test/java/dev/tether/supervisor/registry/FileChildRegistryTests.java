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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.testsupport.SecondJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@EnabledOnOs(OS.LINUX)
class FileChildRegistryTests {

	@TempDir
	Path temp;

	private static final RegistryRow ROW = new RegistryRow("greeter", "agent", "prod", 4242, 4242, 987654L, "boot-1",
			"RUNNING", Instant.parse("2026-11-29T08:00:00Z"), 2, 8080);

	@Test
	void rowsRoundTrip() {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(ROW));
			assertThat(registry.load()).containsExactly(ROW);
		}
	}

	@Test
	void fileHasTheDocumentedShape() throws Exception {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(ROW));
		}
		JsonNode file = JsonMapper.builder().build().readTree(this.temp.resolve("registry.json").toFile());
		assertThat(file.get("version").asInt()).isEqualTo(1);
		assertThat(file.get("rows")).hasSize(1);
		JsonNode row = file.get("rows").get(0);
		assertThat(row.propertyNames()).containsExactlyInAnyOrder("name", "kind", "installationId", "pid", "pgid",
				"startTime", "bootId", "state", "spawnedAt", "restarts", "port");
		assertThat(row.get("installationId").asString()).isEqualTo("prod");
		assertThat(row.get("startTime").asLong()).isEqualTo(987654L);
		assertThat(row.get("spawnedAt").asString()).isEqualTo("2026-11-29T08:00:00Z");
		assertThat(row.get("port").asInt()).isEqualTo(8080);
	}

	@Test
	void fileIsWrittenWithMode0600AndNoTemporaryFileRemains() throws Exception {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(ROW));
		}
		Path file = this.temp.resolve("registry.json");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
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

	@ParameterizedTest
	@ValueSource(strings = { "garbage", "{\"version\": 1, \"rows\": [", "{\"version\": 99, \"rows\": []}",
			"{\"version\": 1, \"rows\": [null]}", "{\"version\": 1, \"rows\": [{\"name\": \"greeter\"}]}",
			"{\"version\": 1, \"rows\": [{\"name\": \"a\", \"kind\": \"agent\", \"installationId\": \"prod\", "
					+ "\"state\": \"RUNNING\", \"pid\": \"4242\", \"pgid\": 4242, \"restarts\": 0}]}",
			"{\"version\": 1, \"rows\": [{\"name\": \"a\", \"kind\": \"agent\", \"installationId\": \"prod\", "
					+ "\"state\": \"RUNNING\", \"pid\": 1, \"pgid\": 1, \"restarts\": 0, \"spawnedAt\": \"noon\"}]}",
			"{\"version\": 1, \"rows\": []} trailing" })
	void unreadableRegistryIsMovedAsideNotDeletedAndReplaced(String content) throws Exception {
		Files.writeString(this.temp.resolve("registry.json"), content);
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			assertThat(registry.load()).isEmpty();
			assertThat(Files.readString(registry.movedAside())).isEqualTo(content);
			registry.save(List.of(ROW));
			assertThat(registry.load()).containsExactly(ROW);
		}
	}

	@Test
	void directoryInPlaceOfTheRegistryIsMovedAsideNotDeleted() throws Exception {
		Files.createDirectories(this.temp.resolve("registry.json").resolve("inside"));
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			assertThat(registry.load()).isEmpty();
			assertThat(registry.movedAside().resolve("inside")).isDirectory();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "/proc/self/tether-state", "/proc/self" })
	void unwritableStateDirectoryIsAClearErrorNamingIt(String directory) {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> FileChildRegistry.open(Path.of(directory)))
			.withMessageContaining(directory);
	}

	@Test
	void jvmKilledWhileSavingLeavesAWholeRegistryAndTheNextOpenWorks() throws Exception {
		Path state = this.temp.resolve("state");
		int lastSaved;
		try (SecondJvm saver = SecondJvm.start(RegistrySaverJvm.class, this.temp.resolve("saver.log"),
				state.toString())) {
			// Why 20 saves: the JVM is then saving in a tight loop, so the kill lands in
			// the middle of one.
			lastSaved = Integer.parseInt(saver.readUntilCount("SAVED", 20));
			saver.kill9();
		}
		try (FileChildRegistry registry = FileChildRegistry.open(state)) {
			List<RegistryRow> rows = registry.load();
			assertThat(registry.movedAside()).as("a registry that did not parse").isNull();
			assertThat(rows).hasSize(RegistrySaverJvm.ROWS);
			int saved = rows.get(0).restarts();
			assertThat(saved).isGreaterThanOrEqualTo(lastSaved);
			assertThat(rows).isEqualTo(RegistrySaverJvm.rows(saved));
			assertThat(state.resolve("registry.json.tmp")).doesNotExist();
		}
	}

	@Test
	void staleTemporaryFileOfAKilledSaveIsRemovedAtOpenAndTheRegistryIsIntact() throws Exception {
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			registry.save(List.of(ROW));
		}
		Path stale = Files.writeString(this.temp.resolve("registry.json.tmp"), "{\"version\": 1, \"rows\": [ {\"na");
		try (FileChildRegistry registry = FileChildRegistry.open(this.temp)) {
			assertThat(stale).doesNotExist();
			assertThat(registry.load()).containsExactly(ROW);
			assertThat(registry.movedAside()).isNull();
		}
	}

}
