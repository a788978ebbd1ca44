package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.ProbeAddressJvm;
import dev.tether.supervisor.testsupport.PythonListener;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Probes go to 127.0.0.1, as the docs say, even in a JVM that prefers IPv6 (where the
 * JDK's loopback address is {@code ::1}): a child listening on 127.0.0.1 alone passes its
 * liveness probes there.
 */
@EnabledOnOs(OS.LINUX)
class ProbeAddressTests {

	@TempDir
	Path temp;

	@Test
	void aChildOn127001PassesItsProbesInAJvmThatPrefersIpv6() throws Exception {
		PythonListener.assumeAvailable();
		int port = Listen.unusedPort();
		Path log = this.temp.resolve("jvm.log");
		ProcessBuilder builder = new ProcessBuilder(JavaCommand.of("-Djava.net.preferIPv6Addresses=true", "-cp",
				System.getProperty("java.class.path"), ProbeAddressJvm.class.getName(),
				TestRun.installationId("probe-address"), this.temp.resolve("state").toString(), Integer.toString(port)))
			.redirectError(log.toFile());
		try (SecondJvm jvm = SecondJvm.start(builder)) {
			String results = jvm.readUntil("RESULTS").get("RESULTS");
			assertThat(results).as(() -> "passed, failed, restarts, last detail; its log: " + read(log))
				.isEqualTo("5 0 0 HTTP 200");
			assertThat(jvm.awaitExit(Duration.ofSeconds(30))).as("stopped its child and exited").isTrue();
		}
	}

	@Test
	void aChildOnIpv6LoopbackAlonePassesItsProbesOnItsProbeAddress() throws Exception {
		PythonListener.assumeAvailable();
		assumeIpv6Loopback();
		int port = Listen.unusedPort();
		Path log = this.temp.resolve("jvm.log");
		ProcessBuilder builder = new ProcessBuilder(
				JavaCommand.main(ProbeAddressJvm.class, TestRun.installationId("probe-address"),
						this.temp.resolve("state").toString(), Integer.toString(port), "::1"))
			.redirectError(log.toFile());
		try (SecondJvm jvm = SecondJvm.start(builder)) {
			// Readiness (the port accepts on ::1, held by the child's tree, read from
			// /proc/net/tcp6), then five liveness probes.
			String results = jvm.readUntil("RESULTS").get("RESULTS");
			assertThat(results).as(() -> "passed, failed, restarts, last detail; its log: " + read(log))
				.isEqualTo("5 0 0 HTTP 200");
			assertThat(jvm.awaitExit(Duration.ofSeconds(30))).as("stopped its child and exited").isTrue();
		}
	}

	private static void assumeIpv6Loopback() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("::1"))) {
			socket.getLocalPort();
		}
		catch (IOException ex) {
			System.out.println("Skipped: this machine has no IPv6 loopback (" + ex.getMessage() + ")");
			org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback: " + ex.getMessage());
		}
	}

	private static String read(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

}
