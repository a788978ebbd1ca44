package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DescriptorCountTests {

	private static final int OPENED = 300;

	@Test
	void theCountFollowsTheDescriptorsThisProcessOpensAndCloses() {
		// Why retried: another thread of the JVM (the JIT, a test's reaper) may open or
		// close a descriptor between the counts.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			long before = DescriptorBudget.openDescriptors();
			List<FileChannel> opened = new ArrayList<>();
			try {
				for (int i = 0; i < OPENED; i++) {
					opened.add(FileChannel.open(Path.of("/dev/null")));
				}
				assertThat(DescriptorBudget.openDescriptors()).isEqualTo(before + OPENED);
			}
			finally {
				closeAll(opened);
			}
			assertThat(DescriptorBudget.openDescriptors()).isEqualTo(before);
		});
	}

	@Test
	void theCountIsWhatTheListingOfProcSelfFdHolds() {
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			String[] listed = Path.of("/proc/self/fd").toFile().list();
			assertThat(listed).isNotNull();
			// Why minus one: the listing held a descriptor of its own while it read.
			assertThat(DescriptorBudget.openDescriptors()).isEqualTo(listed.length - 1);
		});
	}

	private static void closeAll(List<FileChannel> channels) throws IOException {
		for (FileChannel channel : channels) {
			channel.close();
		}
	}

}
