package dev.tether.supervisor.internal.os;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a JVM on JDK 22+ prints when Tether calls libc, with and without the grant of
 * native access: with it, nothing (no {@code WARNING:} line, and no class of jnr or jffi
 * loaded); without it, one line of Tether's naming the fix beside the JDK's own warning,
 * and everything still works; where it is denied, no backend, said in the log.
 */
@EnabledOnOs(OS.LINUX)
class NativeAccessTests {

	private static final String TETHER_LINE = "Native access is not enabled for Tether";

	@TempDir
	Path temp;

	@Test
	void withNativeAccessGrantedNothingWarnsAndNoJnrClassIsLoaded() throws Exception {
		assumeFfm();
		List<String> output = run("--enable-native-access=ALL-UNNAMED", "-verbose:class");
		assertThat(output).contains("BACKEND ffm", "EXIT 3");
		assertThat(output).noneMatch((line) -> line.contains("WARNING") || line.contains(TETHER_LINE));
		assertThat(output).filteredOn((line) -> line.contains("class,load"))
			.isNotEmpty()
			.noneMatch((line) -> line.matches(".*\\b(jnr\\.ffi|jnr\\.posix|com\\.kenai\\.jffi)\\..*"));
		assertThat(this.temp.resolve("child.log")).hasContent("started");
	}

	@Test
	void withoutTheGrantTetherSaysWhatToAddOnceAndStillWorks() throws Exception {
		assumeFfm();
		List<String> output = run();
		assertThat(output).contains("BACKEND ffm", "EXIT 3");
		assertThat(output).filteredOn((line) -> line.contains(TETHER_LINE))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("--enable-native-access=ALL-UNNAMED",
					"Enable-Native-Access: ALL-UNNAMED"));
		// The JDK's own warning, which only the grant silences.
		assertThat(output).anyMatch((line) -> line.startsWith("WARNING: A restricted method"));
		assertThat(output).noneMatch((line) -> line.contains("sun.misc.Unsafe"));
	}

	@Test
	void whereNativeAccessIsDeniedNoBackendBindsAndTheLogSaysWhy() throws Exception {
		assumeFfm();
		List<String> output = run("--illegal-native-access=deny");
		assertThat(output).contains("BACKEND none");
		assertThat(output).anyMatch((line) -> line.contains("Native access is denied to Tether")
				&& line.contains("IllegalCallerException"));
		// Why: access is already blocked, so the line about a future release would be
		// wrong.
		assertThat(output).noneMatch((line) -> line.contains(TETHER_LINE) || line.contains("future release"));
		assertThat(output).anyMatch((line) -> line.contains("children are spawned by ProcessBuilder"));
	}

	private static void assumeFfm() {
		int feature = Runtime.version().feature();
		assumeTrue(feature >= NativeBackends.FFM_FEATURE,
				"JDK " + feature + " has no FFM backend (JDK 22+); its warnings are jnr's, covered on JDK 22+");
	}

	private List<String> run(String... options) throws Exception {
		List<String> command = JavaCommand.main(JavaCommand.thisJava(), List.of(options), NativeAccessJvm.class,
				this.temp.resolve("child.log").toString());
		Path output = this.temp.resolve("jvm.out");
		Process jvm = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
		try {
			assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).as("the JVM ends within 60 s").isTrue();
		}
		finally {
			jvm.destroyForcibly();
			jvm.waitFor();
		}
		return Files.readAllLines(output);
	}

}
