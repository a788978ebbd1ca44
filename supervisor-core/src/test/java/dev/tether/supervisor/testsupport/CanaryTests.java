package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.internal.os.Posix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The canaries see what "still alive" cannot: a signal that does not kill, and a stop.
 */
@EnabledOnOs(OS.LINUX)
class CanaryTests {

	@TempDir
	Path temp;

	@ParameterizedTest
	@ValueSource(strings = { "TERM", "HUP", "INT", "USR1", "CONT" })
	void shellCanaryRecordsASignalThatDoesNotKillIt(String signal) throws Exception {
		// Why: a shell cannot trap a signal ignored when it started, and this JVM's
		// children inherit what it ignores (nohup ignores HUP; a background job of a
		// shell without job control ignores INT).
		assumeFalse(ignoredByThisJvm(signal), () -> "SIG" + signal + " is ignored by this JVM, so by its children too");
		try (Canary canary = Canary.child(this.temp, Map.of())) {
			new ProcessBuilder("kill", "-" + signal, Long.toString(canary.pid())).start().waitFor();
			await().atMost(Duration.ofSeconds(10)).until(() -> canary.signals().contains(signal));
			assertThat(ProcessHandle.of(canary.pid())).isPresent();
			assertThatExceptionOfType(AssertionError.class).isThrownBy(canary::assertUntouched);
		}
	}

	@Test
	void orphanCanaryRecordsASignal() throws Exception {
		try (Canary canary = Canary.orphan(this.temp, Map.of())) {
			assertThat(LiveProcesses.stat(canary.pid()).orElseThrow().ppid())
				.isNotEqualTo(ProcessHandle.current().pid());
			new ProcessBuilder("kill", "-TERM", Long.toString(canary.pid())).start().waitFor();
			await().atMost(Duration.ofSeconds(10)).until(() -> canary.signals().contains("TERM"));
		}
	}

	@Test
	void listeningCanaryRecordsASignalThatDoesNotKillIt() throws Exception {
		try (Canary canary = Canary.listening(this.temp, Map.of())) {
			assertThat(canary.port()).isPositive();
			new ProcessBuilder("kill", "-TERM", Long.toString(canary.pid())).start().waitFor();
			await().atMost(Duration.ofSeconds(10)).until(() -> canary.signals().contains("TERM"));
		}
	}

	@Test
	void stoppedCanaryIsNotUntouched() throws Exception {
		try (Canary canary = Canary.child(this.temp, Map.of())) {
			new ProcessBuilder("kill", "-STOP", Long.toString(canary.pid())).start().waitFor();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LiveProcesses.stat(canary.pid()).orElseThrow().state() == 'T');
			assertThat(canary.signals()).isEmpty();
			assertThatExceptionOfType(AssertionError.class).isThrownBy(canary::assertUntouched);
		}
	}

	@Test
	void canaryLeftAloneIsUntouched() throws Exception {
		try (Canary canary = Canary.child(this.temp, Map.of())) {
			canary.assertUntouched();
		}
	}

	private static boolean ignoredByThisJvm(String signal) throws IOException {
		String ignored = Files.readAllLines(Path.of("/proc/self/status"))
			.stream()
			.filter((line) -> line.startsWith("SigIgn:"))
			.findFirst()
			.orElseThrow()
			.substring("SigIgn:".length())
			.trim();
		return new BigInteger(ignored, 16).testBit(Posix.signalNumber(signal) - 1);
	}

}
