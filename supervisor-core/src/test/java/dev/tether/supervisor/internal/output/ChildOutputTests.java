package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.LogSettings;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A child's output read through pipes by the pump, with real children: lines, bytes,
 * rotation, the logger, and the pipes the pump grows (to 512 KB, at most 16 at once) for
 * children that keep them full, and gives back.
 */
class ChildOutputTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int GROWN = PipeSizer.GROWN_CAPACITY;

	/**
	 * A child that keeps its stdout pipe full: writes of 1 MB fill it at once, so the
	 * writer stays ahead of the pump. It writes as fast as the disk takes it until its
	 * test ends, hence small files and no history.
	 */
	private static final String[] PIPE_FILLER = { "sh", "-c",
			"yes 'a line of a child that never pauses' | dd bs=1M iflag=fullblock status=none" };

	@TempDir
	Path temp;

	private TestSpawns spawns;

	private final List<Logger> listened = new ArrayList<>();

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
		this.listened.forEach((logger) -> {
			logger.detachAndStopAllAppenders();
			logger.setLevel(null);
			logger.setAdditive(true);
		});
	}

	private ChildOutput output(String name, LogSettings settings) {
		return new ChildOutput(name, settings, this.temp.resolve(name + ".log"));
	}

	private static LogSettings fileOnly() {
		return fileOnly(10L * 1024 * 1024, 3, 16 * 1024);
	}

	private static LogSettings fileOnly(long maxSize, int maxHistory, int maxLineLength) {
		return new LogSettings(null, true, maxSize, maxHistory, false, org.slf4j.event.Level.WARN, maxLineLength);
	}

	/** The logger on, the file as asked (10 MB, one kept), lines up to 1 KB. */
	private static LogSettings withLogger(boolean fileEnabled, org.slf4j.event.Level stderrLevel) {
		return new LogSettings(null, fileEnabled, 10L * 1024 * 1024, 1, true, stderrLevel, 1024);
	}

	private long spawnAndAwaitExit(ChildOutput output, String... command) throws Exception {
		long pid = this.spawns.spawnCaptured(output, command).pid();
		await().atMost(DEADLINE).until(() -> this.spawns.exitOf(pid) != null);
		return pid;
	}

	@Test
	void linesSplitAcrossWritesAreJoinedAndALastLineWithoutNewlineIsDelivered() throws Exception {
		ChildOutput output = output("split", fileOnly());
		spawnAndAwaitExit(output, "sh", "-c", "printf 'hel'; sleep 0.2; printf 'lo\\nwor'; sleep 0.2; printf 'ld'");
		await().atMost(DEADLINE).until(() -> output.lines() == 2);
		assertThat(Files.readString(output.file())).isEqualTo("hello\nworld\n");
		assertThat(output.bytes()).isEqualTo(11);
	}

	@Test
	void theReadersRunFiveNiceValuesBelowTheApplicationsThreads() throws Exception {
		ChildOutput output = output("nice", fileOnly());
		spawnAndAwaitExit(output, "sh", "-c", "echo hello");
		await().atMost(DEADLINE).until(() -> output.lines() == 1);
		int application = LiveProcesses.nice(Path.of("/proc/thread-self"));
		// Why at least four: the readers are "supervisor-output-N"; the deleter's name
		// starts alike, and has the priority of the thread that started it.
		List<Integer> pump = PumpThreads.readEach(LiveProcesses::nice);
		assertThat(pump).filteredOn((nice) -> nice == Math.min(19, application + 5)).hasSizeGreaterThanOrEqualTo(4);
	}

	@Test
	void stdoutAndStderrBothReachTheFile() throws Exception {
		ChildOutput output = output("both", fileOnly());
		spawnAndAwaitExit(output, "sh", "-c", "echo out; echo err >&2");
		await().atMost(DEADLINE).until(() -> output.lines() == 2);
		assertThat(Files.readAllLines(output.file())).containsExactly("out", "err");
	}

	@Test
	void aShepherdHoldsTheReadEndsAndItsCommandGetsOnlyStdinStdoutAndStderr() throws Exception {
		ChildOutput output = output("held", withLogger(true, org.slf4j.event.Level.WARN));
		long shepherd = this.spawns.spawnCaptured(output, true, "sleep", "600").pid();
		await().atMost(DEADLINE).until(() -> Shepherd.commandPid(shepherd).isPresent());
		long command = Shepherd.commandPid(shepherd).getAsLong();
		await().atMost(DEADLINE).until(() -> LiveProcesses.isRunning(command, "sleep"));
		assertThat(LiveProcesses.descriptors(command)).containsExactly(0, 1, 2);
		assertThat(LiveProcesses.descriptors(shepherd)).containsExactly(0, 1, 2, 3, 4);
		Path fds = Path.of("/proc", Long.toString(shepherd), "fd");
		Path commandFds = Path.of("/proc", Long.toString(command), "fd");
		assertThat(Files.readSymbolicLink(fds.resolve("3"))).isEqualTo(Files.readSymbolicLink(commandFds.resolve("1")));
		assertThat(Files.readSymbolicLink(fds.resolve("4"))).isEqualTo(Files.readSymbolicLink(commandFds.resolve("2")));
	}

	@Test
	void anyBytesPassThroughAsTheyAre() throws Exception {
		ChildOutput output = output("bytes", fileOnly());
		spawnAndAwaitExit(output, "sh", "-c", "printf 'a\\377\\000b\\r\\n\\303\\n'");
		await().atMost(DEADLINE).until(() -> output.lines() == 2);
		assertThat(Files.readAllBytes(output.file()))
			.isEqualTo(new byte[] { 'a', (byte) 0xff, 0, 'b', '\r', '\n', (byte) 0xc3, '\n' });
	}

	@Test
	void aLineLongerThanTheLimitIsCutWithAMarkerAndNothingIsLost() throws Exception {
		ChildOutput output = output("long", fileOnly(1024 * 1024, 1, 100));
		spawnAndAwaitExit(output, "sh", "-c", "head -c 250 /dev/zero | tr '\\0' x; echo; echo short");
		await().atMost(DEADLINE).until(() -> output.lines() == 6);
		// Why 44 bytes a piece: with its 55-byte marker and its newline, a piece takes
		// the whole 100-byte limit.
		String piece = "x".repeat(44) + " [line cut at 100 bytes; it continues on the next line]";
		assertThat(Files.readAllLines(output.file())).containsExactly(piece, piece, piece, piece, "x".repeat(74),
				"short");
	}

	@Test
	void aCutLineWithItsMarkerFitsAFileWhoseMaxSizeIsTheLimit() throws Exception {
		ChildOutput output = output("tight", fileOnly(100, 10, 100));
		spawnAndAwaitExit(output, "sh", "-c",
				"head -c 250 /dev/zero | tr '\\0' x; echo; head -c 99 /dev/zero | tr '\\0' y; echo");
		await().atMost(DEADLINE).until(() -> output.lines() == 6);
		List<Path> files = new ArrayList<>();
		files.add(output.file());
		for (int index = 1; Files.exists(RotatingFile.rotated(output.file(), index)); index++) {
			files.add(RotatingFile.rotated(output.file(), index));
		}
		assertThat(files).hasSize(6).allSatisfy((file) -> assertThat(Files.size(file)).isLessThanOrEqualTo(100));
		assertThat(Files.readAllLines(output.file())).containsExactly("y".repeat(99));
	}

	@Test
	void aCutNeverSplitsAUtf8Character() throws Exception {
		ChildOutput output = output("utf8", fileOnly(1024 * 1024, 1, 100));
		// 43 ASCII bytes, then a 2-byte character across the cut at 44 bytes, then enough
		// to need the cut.
		spawnAndAwaitExit(output, "sh", "-c",
				"head -c 43 /dev/zero | tr '\\0' y; printf '\\303\\251'; head -c 60 /dev/zero | tr '\\0' z; echo");
		await().atMost(DEADLINE).until(() -> output.lines() == 2);
		List<String> lines = Files.readAllLines(output.file(), StandardCharsets.UTF_8);
		assertThat(lines.get(0)).isEqualTo("y".repeat(43) + " [line cut at 100 bytes; it continues on the next line]");
		assertThat(lines.get(1)).isEqualTo("\u00e9" + "z".repeat(60));
	}

	@Test
	void numberedLinesThroughManyRotationsArriveEachOnceInOrderAndWhole() throws Exception {
		int count = 200_000;
		ChildOutput output = output("rotating", fileOnly(64 * 1024, 100, 1024));
		spawnAndAwaitExit(output, "seq", "1", Integer.toString(count));
		await().atMost(DEADLINE).until(() -> output.lines() == count);
		Path file = output.file();
		List<Path> files = new ArrayList<>();
		for (int index = 100; index >= 1; index--) {
			Path rotated = RotatingFile.rotated(file, index);
			if (Files.exists(rotated)) {
				files.add(rotated);
			}
		}
		files.add(file);
		assertThat(files).hasSizeGreaterThan(10);
		long expected = 1;
		for (Path part : files) {
			assertThat(Files.size(part)).isLessThanOrEqualTo(64 * 1024);
			byte[] bytes = Files.readAllBytes(part);
			assertThat(bytes[bytes.length - 1]).as("%s ends with a whole line", part).isEqualTo((byte) '\n');
			for (String line : new String(bytes, StandardCharsets.US_ASCII).split("\n")) {
				assertThat(Long.parseLong(line)).isEqualTo(expected++);
			}
		}
		assertThat(expected - 1).isEqualTo(count);
	}

	@Test
	void rotationKeepsOnlyMaxHistoryFiles() throws Exception {
		ChildOutput output = output("history", fileOnly(4096, 2, 1024));
		spawnAndAwaitExit(output, "seq", "1", "20000");
		await().atMost(DEADLINE).until(() -> output.lines() == 20_000);
		Path file = output.file();
		assertThat(RotatingFile.rotated(file, 1)).exists();
		assertThat(RotatingFile.rotated(file, 2)).exists();
		assertThat(RotatingFile.rotated(file, 3)).doesNotExist();
		assertThat(Files.readAllLines(file)).last().isEqualTo("20000");
	}

	@Test
	void theLoggerGetsEachLineWithItsStreamAndTheChildInTheMdc() throws Exception {
		ListAppender<ILoggingEvent> appender = listenTo("talker");
		ChildOutput output = output("talker", withLogger(false, org.slf4j.event.Level.WARN));
		spawnAndAwaitExit(output, "sh", "-c", "echo hello; echo oops >&2; printf 'bad \\377\\r\\n'");
		await().atMost(DEADLINE).until(() -> appender.list.size() == 3);
		assertThat(output.file()).isNull();
		ILoggingEvent stderr = appender.list.stream()
			.filter((e) -> e.getMessage().equals("oops"))
			.findFirst()
			.orElseThrow();
		assertThat(stderr.getLevel()).isEqualTo(Level.WARN);
		assertThat(stderr.getMarkerList()).extracting(Object::toString).containsExactly("STDERR");
		assertThat(stderr.getMDCPropertyMap()).containsEntry("tether.child", "talker")
			.containsEntry("tether.stream", "stderr");
		assertThat(appender.list).filteredOn((e) -> e.getLevel() == Level.INFO)
			.extracting(ILoggingEvent::getFormattedMessage)
			.containsExactly("hello", "bad \ufffd");
	}

	@Test
	void controlCharactersReachTheLoggerEscapedAndTheFileAsTheyAre() throws Exception {
		ListAppender<ILoggingEvent> appender = listenTo("forger");
		ChildOutput output = output("forger", withLogger(true, org.slf4j.event.Level.WARN));
		spawnAndAwaitExit(output, "sh", "-c", "printf 'a\\015b\\033[2Jc\\000d\\te\\302\\233f\\177g\\r\\n'");
		await().atMost(DEADLINE).until(() -> appender.list.size() == 1 && output.lines() == 1);
		assertThat(appender.list.get(0).getFormattedMessage())
			.isEqualTo("a\\u000Db\\u001B[2Jc\\u0000d\te\\u009Bf\\u007Fg");
		assertThat(Files.readAllBytes(output.file()))
			.isEqualTo("a\rb\u001B[2Jc\u0000d\te\u009Bf\u007Fg\r\n".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void fileAndLoggerAtOnce() throws Exception {
		ListAppender<ILoggingEvent> appender = listenTo("twice");
		ChildOutput output = output("twice", withLogger(true, org.slf4j.event.Level.ERROR));
		spawnAndAwaitExit(output, "sh", "-c", "echo one; echo two >&2");
		await().atMost(DEADLINE).until(() -> appender.list.size() == 2 && output.lines() == 2);
		assertThat(Files.readAllLines(output.file())).containsExactlyInAnyOrder("one", "two");
		assertThat(appender.list).extracting(ILoggingEvent::getLevel)
			.containsExactlyInAnyOrder(Level.INFO, Level.ERROR);
	}

	@Test
	void anAppenderThatThrowsAnErrorEndsNeitherTheOutputNorTheReadingThread() throws Exception {
		attach("broken", new AppenderBase<ILoggingEvent>() {
			@Override
			protected void append(ILoggingEvent event) {
				if (event.getFormattedMessage().equals("boom")) {
					throw new NoClassDefFoundError("a class the appender misses");
				}
			}
		}, false);
		ChildOutput output = output("broken", withLogger(true, org.slf4j.event.Level.WARN));
		spawnAndAwaitExit(output, "sh", "-c", "echo boom; seq 1 100000");
		await().atMost(DEADLINE).until(() -> output.lines() == 100_001);
		assertThat(Files.readAllLines(output.file())).last().isEqualTo("100000");
		assertThat(Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().matches("supervisor-output-\\d+"))).hasSize(4);
	}

	@Test
	void aPipeKeptFullGrowsAndAQuietOneDoesNot() throws Exception {
		ChildOutput fast = output("fast", fileOnly(1024 * 1024, 0, 1024));
		ChildOutput quiet = output("quiet", fileOnly(1024 * 1024, 0, 1024));
		long writer = this.spawns.spawnCaptured(fast, PIPE_FILLER).pid();
		long sleeper = this.spawns.spawnCaptured(quiet, "sh", "-c", "echo once; exec sleep 600").pid();
		int quietCapacity = await().atMost(DEADLINE).until(() -> capacityOfStdout(sleeper), (capacity) -> capacity > 0);

		await().atMost(DEADLINE).until(() -> capacityOfStdout(writer), (capacity) -> capacity == GROWN);
		await().atMost(DEADLINE).until(() -> quiet.lines() == 1);
		assertThat(capacityOfStdout(sleeper)).isEqualTo(quietCapacity).isLessThan(GROWN);
		assertThat(fast.lines()).isPositive();
	}

	@Test
	void atMostSixteenPipesAreGrownAtOnce() throws Exception {
		List<Long> writers = new ArrayList<>();
		for (int i = 0; i < 17; i++) {
			ChildOutput output = output("fast-" + i, fileOnly(256 * 1024, 0, 1024));
			writers.add(this.spawns.spawnCaptured(output, PIPE_FILLER).pid());
		}
		await().atMost(DEADLINE).until(() -> grown(writers) == 16);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> grown(writers) <= 16);
	}

	@Test
	void aPipeGivesItsSizeBackOnceItsChildFallsBehind() throws Exception {
		List<Long> bursts = new ArrayList<>();
		List<ChildOutput> outputs = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			ChildOutput output = output("burst-" + i, fileOnly(4 * 1024 * 1024, 0, 1024));
			outputs.add(output);
			bursts
				.add(this.spawns
					.spawnCaptured(output, "sh", "-c",
							"yes 'a burst of lines' | dd bs=2M count=1 iflag=fullblock status=none; exec sleep 600")
					.pid());
		}
		await().atMost(DEADLINE).until(() -> outputs.stream().allMatch((output) -> output.bytes() == 2 * 1024 * 1024));
		// The quiet pipes keep none of the allowance: a writer that keeps its pipe full
		// gets it grown.
		long steady = this.spawns.spawnCaptured(output("steady", fileOnly(256 * 1024, 0, 1024)), PIPE_FILLER).pid();
		await().atMost(DEADLINE).until(() -> capacityOfStdout(steady) == GROWN);
		await().atMost(DEADLINE).until(() -> grown(bursts) == 0);
	}

	@Test
	void aPipeGivesItsSizeBackWhenItsChildSlowsDownButGoesOnWriting() throws Exception {
		ChildOutput output = output("slowing", fileOnly(1024 * 1024, 0, 1024));
		Path slowDown = this.temp.resolve("slow-down");
		// Why the child ends its own writer: the test says when the burst is over, once
		// it has seen the pipe grown.
		long child = this.spawns.spawnCaptured(output, "sh", "-c",
				"yes 'a burst of lines' | dd bs=1M iflag=fullblock status=none & burst=$!; while [ ! -e \"$0\" ]; do sleep 0.01; done; kill $burst; "
						+ "while :; do echo tick; sleep 0.1; done",
				slowDown.toString())
			.pid();
		await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5)).until(() -> capacityOfStdout(child) == GROWN);
		Files.createFile(slowDown);

		// Read ten times a second, it is never a second unread: its own turns must give
		// the size back.
		await().atMost(DEADLINE).until(() -> capacityOfStdout(child) < GROWN);
		long lines = output.lines();
		await().atMost(DEADLINE).until(() -> output.lines() > lines + 2);
	}

	@Test
	void aPipeGrownByItsLastReadGetsItsSizeBackWhileNoOtherPipeIsRead() throws Exception {
		ChildOutput output = output("grown-last", fileOnly(64L * 1024 * 1024, 0, 1024));
		Path blocks = this.temp.resolve("blocks");
		assertThat(new ProcessBuilder("mkfifo", blocks.toString()).start().waitFor()).isZero();
		// Why dd reading whole blocks of 256 KB: each block the test sends becomes one
		// write into the child's 64 KB pipe, which the pump takes as four full reads, and
		// the fourth read, the one that grows the pipe, empties it.
		long child = this.spawns
			.spawnCaptured(output, "dd", "if=" + blocks, "bs=256K", "iflag=fullblock", "status=none")
			.pid();
		byte[] block = "%31s\n".formatted("a line of a block")
			.repeat(256 * 1024 / 32)
			.getBytes(StandardCharsets.US_ASCII);
		try (java.io.OutputStream sender = Files.newOutputStream(blocks)) {
			long sent = 0;
			// Why several blocks may be needed: a read whose lines went out slowly (a
			// busy machine) starts the count of full reads again, and then the pipe grows
			// inside a block and its last read sizes it back.
			while (capacityOfStdout(child) != GROWN) {
				sender.write(block);
				sender.flush();
				long expected = sent += block.length;
				await().atMost(DEADLINE).until(() -> output.bytes() == expected);
			}
			// The child now waits on the FIFO: its pipe is read no more, and nothing else
			// in this JVM writes.
			await().atMost(DEADLINE).until(() -> capacityOfStdout(child) < GROWN);
		}
	}

	@Test
	void aPipeHeldUpByASlowSinkIsNotGrown() throws Exception {
		SlowAppender slow = attach("held", new SlowAppender(), false);
		ChildOutput output = output("held", withLogger(false, org.slf4j.event.Level.WARN));
		long writer = this.spawns.spawnCaptured(output, PIPE_FILLER).pid();
		// Twice the full reads that grow the pipe of a child whose sink keeps up.
		await().atMost(DEADLINE).until(() -> output.bytes() > 8 * 64 * 1024);
		assertThat(slow.events).hasPositiveValue();
		assertThat(capacityOfStdout(writer)).isLessThan(GROWN);
	}

	private static long grown(List<Long> writers) throws IOException {
		long grown = 0;
		for (long writer : writers) {
			if (capacityOfStdout(writer) == GROWN) {
				grown++;
			}
		}
		return grown;
	}

	/**
	 * The capacity of the pipe a child writes its stdout to, read on the pump's end of it
	 * in this JVM.
	 */
	private static int capacityOfStdout(long pid) throws IOException {
		Path pipe = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "fd", "1"));
		try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
			int readEnd = descriptors.filter((descriptor) -> pipe.equals(target(descriptor)))
				.mapToInt((descriptor) -> Integer.parseInt(descriptor.getFileName().toString()))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no end of " + pipe + " in this JVM"));
			return Posix.get().pipeCapacity(readEnd);
		}
	}

	private static Path target(Path descriptor) {
		try {
			return Files.readSymbolicLink(descriptor);
		}
		catch (IOException ex) {
			// Why: descriptors of this JVM come and go while the list is read.
			return Path.of("");
		}
	}

	/**
	 * Records what the logger of a child gets, at INFO and above, until the test ends.
	 */
	private ListAppender<ILoggingEvent> listenTo(String child) {
		return attach(child, new ListAppender<>(), true);
	}

	/**
	 * Adds {@code appender} to the child's logger, at INFO and above, until the test
	 * ends.
	 * @param additive whether the console gets the lines too (its encoder also takes each
	 * event's MDC as it is then)
	 */
	private <A extends AppenderBase<ILoggingEvent>> A attach(String child, A appender, boolean additive) {
		Logger childLogger = (Logger) LoggerFactory.getLogger("tether.child." + child);
		appender.start();
		childLogger.addAppender(appender);
		childLogger.setLevel(Level.INFO);
		childLogger.setAdditive(additive);
		this.listened.add(childLogger);
		return appender;
	}

	/** A sink that takes its time: 20 µs an event, under 2 MB/s of the test's lines. */
	static final class SlowAppender extends AppenderBase<ILoggingEvent> {

		final AtomicLong events = new AtomicLong();

		@Override
		protected void append(ILoggingEvent event) {
			// Why a pause: it is the slowness under test, not a wait for something to
			// happen.
			LockSupport.parkNanos(20_000);
			this.events.incrementAndGet();
		}

	}

}
