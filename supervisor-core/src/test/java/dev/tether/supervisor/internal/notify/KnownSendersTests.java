package dev.tether.supervisor.internal.notify;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.os.Posix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A remembered sender is accepted only while the process it was is still there, against
 * real processes: an {@code sh} stands for the shepherd, its {@code sleep} for the
 * command.
 */
class KnownSendersTests {

	private final Posix posix = Posix.get();

	@Test
	void aRememberedSenderCountsUntilItsProcessEndsAndAStrangerNever() throws Exception {
		assumeThat(this.posix.isAvailable()).as("native calls bound here").isTrue();
		KnownSenders senders = new KnownSenders(new ProcessTree(IdentityProbe.forPlatform()), this.posix);
		Process shepherd = new ProcessBuilder("sh", "-c", "sleep 300 & echo $!; wait").start();
		Process stranger = new ProcessBuilder("sleep", "300").start();
		NotifyChannel channel = new NotifyChannel("child", -1, "name");
		try {
			long command = Long.parseLong(
					new BufferedReader(new InputStreamReader(shepherd.getInputStream(), StandardCharsets.US_ASCII))
						.readLine()
						.trim());
			channel.attach(shepherd.pid(), true);
			assertThat(senders.inTree(channel, command)).as("placed from /proc").isTrue();
			assertThat(senders.inTree(channel, command)).as("remembered").isTrue();
			assertThat(senders.inTree(channel, shepherd.pid())).as("the shepherd itself").isTrue();
			assertThat(senders.inTree(channel, stranger.pid())).as("a process of another tree").isFalse();
			ProcessHandle.of(command).ifPresent(ProcessHandle::destroyForcibly);
			await().atMost(Duration.ofSeconds(10)).until(() -> !shepherd.isAlive());
			assertThat(senders.inTree(channel, command)).as("remembered, but reaped").isFalse();
		}
		finally {
			senders.forget(channel);
			for (Process process : List.of(shepherd, stranger)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor();
			}
		}
	}

}
