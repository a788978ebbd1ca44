package dev.tether.supervisor.internal.output;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.LogSettings;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A child whose sink blocks, against real children: it waits on its own writes without
 * growing the heap, while the other children's output and every exit go on.
 */
class BlockedSinkTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	private TestSpawns spawns;

	private final BlockingAppender blocking = new BlockingAppender();

	private final Logger slowLogger = (Logger) LoggerFactory.getLogger("tether.child.slow");

	@BeforeEach
	void setUp() {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
		this.blocking.start();
		this.slowLogger.addAppender(this.blocking);
		this.slowLogger.setLevel(Level.INFO);
		this.slowLogger.setAdditive(false);
	}

	@AfterEach
	void tearDown() {
		this.blocking.release.countDown();
		this.spawns.close();
		this.slowLogger.detachAppender(this.blocking);
		this.slowLogger.setLevel(null);
		this.slowLogger.setAdditive(true);
	}

	@Test
	void aChildWhoseSinkBlocksWaitsOnItsWritesWhileOthersAndExitsGoOn() throws Exception {
		ChildOutput slow = new ChildOutput("slow",
				new LogSettings(null, false, 1024 * 1024, 1, true, org.slf4j.event.Level.WARN, 1024),
				this.temp.resolve("slow.log"));
		long writer = this.spawns.spawnCaptured(slow, "yes", "a line of output that never ends").pid();
		assertThat(this.blocking.blocked.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

		// The writer is held at what one read took: nothing more is read while its sink
		// blocks.
		long held = slow.bytes();
		assertThat(held).isPositive().isLessThanOrEqualTo(64 * 1024);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> slow.bytes() == held);
		assertThat(this.spawns.exitOf(writer)).isNull();

		for (int other = 0; other < 6; other++) {
			ChildOutput quick = new ChildOutput("quick" + other,
					new LogSettings(null, true, 1024 * 1024, 1, false, org.slf4j.event.Level.WARN, 1024),
					this.temp.resolve("quick" + other + ".log"));
			long pid = this.spawns.spawnCaptured(quick, "sh", "-c", "echo done").pid();
			await().atMost(DEADLINE).until(() -> quick.lines() == 1 && this.spawns.exitOf(pid) != null);
			assertThat(Files.readAllLines(quick.file())).containsExactly("done");
		}

		Reaper.shared().signalGroupUnreaped(writer, 9);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.spawns.exitOf(writer) != null);
		assertThat(this.spawns.exitOf(writer).signal()).isEqualTo(9);
	}

	@Test
	void aNewProcessOfAChildWhoseSinkBlocksIsSpawnedWithoutWaitingForThatSink() throws Exception {
		ChildOutput slow = new ChildOutput("slow",
				new LogSettings(null, false, 1024 * 1024, 1, true, org.slf4j.event.Level.WARN, 1024),
				this.temp.resolve("slow.log"));
		long writer = this.spawns.spawnCaptured(slow, "yes", "a line of output that never ends").pid();
		assertThat(this.blocking.blocked.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		// A restart: the same sinks, a new process. The spawner thread serves every
		// child's start; it must not wait for the write that the blocked sink holds.
		CompletableFuture<Long> next = CompletableFuture.supplyAsync(() -> {
			try {
				return this.spawns.spawnCaptured(slow, "sleep", "600").pid();
			}
			catch (SpawnException ex) {
				throw new IllegalStateException(ex);
			}
		});
		long restarted = next.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		assertThat(this.spawns.exitOf(restarted)).isNull();
		Reaper.shared().signalGroupUnreaped(writer, 9);
		Reaper.shared().signalGroupUnreaped(restarted, 9);
		await().atMost(DEADLINE)
			.until(() -> this.spawns.exitOf(writer) != null && this.spawns.exitOf(restarted) != null);
	}

	/** Blocks the first event it gets until released, and says when it blocked. */
	static final class BlockingAppender extends AppenderBase<ILoggingEvent> {

		final CountDownLatch blocked = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		protected void append(ILoggingEvent event) {
			this.blocked.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
