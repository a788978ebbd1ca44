package dev.tether.supervisor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
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
		assertProbesPass(List.of("-Djava.net.preferIPv6Addresses=true"), List.of());
	}

	@Test
	void aChildOnIpv6LoopbackAlonePassesItsProbesOnItsProbeAddress() throws Exception {
		PythonListener.assumeAvailable();
		assumeIpv6Loopback();
		// Readiness (the port accepts on ::1, held by the child's tree, read from
		// /proc/net/tcp6), then five liveness probes.
		assertProbesPass(List.of(), List.of("::1"));
	}

	/**
	 * Runs {@link ProbeAddressJvm} with these JVM options, over a child on 127.0.0.1 or
	 * on the address given, and expects five passed probes, no restart.
	 */
	private void assertProbesPass(List<String> jvmOptions, List<String> address) throws Exception {
		int port = Listen.unusedPort();
		Path log = this.temp.resolve("jvm.log");
		List<String> command = new ArrayList<>(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProbeAddressJvm.class.getName(),
				TestRun.installationId("probe-address"), this.temp.resolve("state").toString(),
				Integer.toString(port)));
		command.addAll(address);
		try (SecondJvm jvm = SecondJvm
			.start(new ProcessBuilder(JavaCommand.of(command.toArray(String[]::new))).redirectError(log.toFile()))) {
			String results = jvm.readUntil("RESULTS").get("RESULTS");
			assertThat(results).as(() -> "passed, failed, restarts, last detail; its log: " + read(log))
				.isEqualTo("5 0 0 HTTP 200");
			assertThat(jvm.awaitExit(Duration.ofSeconds(30))).as("stopped its child and exited").isTrue();
		}
	}

	private static void assumeIpv6Loopback() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
			socket.getLocalPort();
		}
		catch (IOException ex) {
			System.out.println("Skipped: this machine has no IPv6 loopback (" + ex.getMessage() + ")");
			Assumptions.abort("no IPv6 loopback: " + ex.getMessage());
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
