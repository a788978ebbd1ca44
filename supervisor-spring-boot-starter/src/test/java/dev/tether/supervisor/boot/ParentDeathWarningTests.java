package dev.tether.supervisor.boot;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.SecondJvm;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application where nothing can tie children to the JVM's life (the launcher cannot be
 * extracted, and {@code setpriv} is not on its {@code PATH}) says so where an operator
 * looks, not only in its log: the endpoint's top-level {@code parentDeathWarning} and a
 * {@code _parentDeath} health component carry the reason.
 */
@EnabledOnOs(OS.LINUX)
class ParentDeathWarningTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@TempDir
	Path temp;

	@Test
	void whereNothingTiesChildrenToTheJvmTheEndpointAndTheHealthSayWhy() throws Exception {
		// Why a file where the launcher's directory goes: the launcher cannot be
		// extracted; and a PATH that holds sleep alone: there is no setpriv either.
		Path state = Files.createDirectory(this.temp.resolve("state"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Files.writeString(state.resolve("bin"), "not a directory");
		Path path = Files.createDirectory(this.temp.resolve("path"));
		Files.createSymbolicLink(path.resolve("sleep"), Path.of("/bin/sleep"));
		// A web application with one sleep child (see DescriptorLimitApp).
		ProcessBuilder builder = new ProcessBuilder(
				JavaCommand.main(DescriptorLimitApp.class, "1", this.temp.toString()))
			.redirectError(this.temp.resolve("jvm.log").toFile());
		builder.environment().put("PATH", path.toString());
		try (SecondJvm jvm = SecondJvm.start(builder)) {
			try {
				URI base = URI.create("http://localhost:" + jvm.readUntilCount("PORT", 1) + "/actuator/");
				JsonNode children = get(base.resolve("children"));
				assertThat(children.path("parentDeathMechanism").asString()).isEqualTo("none");
				String warning = children.path("parentDeathWarning").asString();
				assertThat(warning).isEqualTo("neither the parent-death launcher nor setpriv --pdeathsig runs here: "
						+ "children and their descendants outlive this JVM if it is killed with SIGKILL (until the next "
						+ "start stops them as orphans)");
				JsonNode component = get(base.resolve("health/supervisor")).path("components").path("_parentDeath");
				assertThat(component.path("status").asString()).isEqualTo("UP");
				assertThat(component.path("details").path("mechanism").asString()).isEqualTo("none");
				assertThat(component.path("details").path("warning").asString()).isEqualTo(warning);
			}
			finally {
				// Why a stop, not the SIGKILL of close(): nothing else would end its
				// child.
				jvm.terminate();
				assertThat(jvm.awaitExit(DEADLINE)).isTrue();
			}
		}
	}

	private JsonNode get(URI uri) throws IOException, InterruptedException {
		return this.json
			.readTree(this.http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body());
	}

}
