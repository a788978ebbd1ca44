package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.Assumptions;

import dev.tether.supervisor.internal.identity.ProcStat;

/**
 * A recording canary: a process that traps every catchable signal and appends the name of
 * each one it receives to a record file, so that "never signalled" is an observation
 * rather than "still alive". The record's first line is {@code READY <pid> [<port>]},
 * written once the traps are in place.
 * <p>
 * {@link #assertUntouched()} watches it over a window: no signal recorded, never stopped
 * (state {@code T}; SIGSTOP cannot be trapped), and the same process (start time
 * unchanged; SIGKILL cannot be trapped either).
 */
public final class Canary implements AutoCloseable {

	/**
	 * How long {@link #assertUntouched()} watches: long enough for a stray asynchronous
	 * signal to land.
	 */
	public static final Duration WINDOW = Duration.ofMillis(700);

	// Why bash and a FIFO: bash starts in milliseconds, runs a trap as soon as its
	// blocking read is interrupted, and the read of a FIFO held open for writing by the
	// shell itself never ends, so the canary has no child to leak.
	// No ${...} in it: Spring would resolve that as a placeholder where the command comes
	// from configuration.
	// SIGCHLD is left out (a shell's own helpers would record it); INT and QUIT cannot be
	// trapped when the canary is started in the background by a non-interactive shell.
	private static final String SCRIPT = """
			record=$1
			fifo="$record.fifo"
			mkfifo -m 600 "$fifo" && exec 3<>"$fifo" && rm -f "$fifo"
			for s in HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT CONT TSTP TTIN TTOU URG \
			XCPU XFSZ VTALRM PROF WINCH IO PWR SYS; do
			  trap "echo $s >> '$record'" "$s"
			done
			echo "READY $$" >> "$record"
			while :; do read -r -u 3 _; done
			""";

	private static final Path NS_LAST_PID = Path.of("/proc/sys/kernel/ns_last_pid");

	private final long pid;

	private final long startTime;

	private final Path record;

	private final int port;

	private Canary(long pid, long startTime, Path record, int port) {
		this.pid = pid;
		this.startTime = startTime;
		this.record = record;
		this.port = port;
	}

	/**
	 * The command of a shell canary recording into {@code record}, for a supervisor to
	 * spawn.
	 */
	public static List<String> command(Path record) {
		return List.of("bash", "-c", SCRIPT, "canary", record.toString());
	}

	/** A shell canary that is a child of this JVM. */
	public static Canary child(Path directory, Map<String, String> environment) throws IOException {
		Path record = newRecord(directory);
		ProcessBuilder builder = new ProcessBuilder(command(record)).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().putAll(environment);
		builder.start();
		return observe(record);
	}

	/**
	 * A shell canary that is no child of this JVM (its parent exits at once, as a crashed
	 * supervisor's would), in a session and group of its own.
	 */
	public static Canary orphan(Path directory, Map<String, String> environment)
			throws IOException, InterruptedException {
		Path record = newRecord(directory);
		List<String> command = new ArrayList<>(List.of("setsid", "-f"));
		command.addAll(command(record));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().putAll(environment);
		builder.start().waitFor();
		return observe(record);
	}

	/**
	 * A shell canary, a child of this JVM, on a given pid number that an earlier process
	 * had: the pid before it is written to {@code ns_last_pid} (other processes of the
	 * host may take the number first: a few attempts). Skips the test, saying why, where
	 * the pid cannot be recreated.
	 */
	public static Canary withPid(Path directory, long pid) throws IOException {
		Assumptions.assumeTrue(Files.isWritable(NS_LAST_PID), () -> NS_LAST_PID
				+ " is not writable here (it needs root in the pid namespace): a pid cannot be recreated");
		for (int attempt = 0; attempt < 50; attempt++) {
			Files.writeString(NS_LAST_PID, Long.toString(pid - 1));
			Canary canary = child(directory, Map.of());
			if (canary.pid() == pid) {
				return canary;
			}
			canary.close();
		}
		Assumptions.abort("pid " + pid + " was taken by other processes of the host 50 times in a row");
		throw new IllegalStateException("unreachable");
	}

	/**
	 * A canary that also listens on a port the kernel picks (see {@link #port()}); a
	 * child of this JVM.
	 */
	public static Canary listening(Path directory, Map<String, String> environment) throws IOException {
		Path record = newRecord(directory);
		ProcessBuilder builder = new ProcessBuilder(Listen.recordingCommand(record)).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().putAll(environment);
		builder.start();
		return observe(record);
	}

	/**
	 * Waits for the canary recording into {@code record} (started by anyone) to be ready,
	 * and watches it.
	 */
	public static Canary observe(Path record) {
		String[] ready = Awaitility.await("canary " + record + " ready")
			.atMost(Duration.ofSeconds(30))
			.until(() -> readyLine(record), (line) -> line != null);
		long pid = Long.parseLong(ready[1]);
		long startTime = LiveProcesses.stat(pid)
			.orElseThrow(() -> new IllegalStateException("canary " + pid + " is gone"))
			.startTime();
		return new Canary(pid, startTime, record, (ready.length > 2) ? Integer.parseInt(ready[2]) : -1);
	}

	private static Path newRecord(Path directory) throws IOException {
		return Files.createDirectories(directory).resolve("canary-" + UUID.randomUUID() + ".record");
	}

	private static String[] readyLine(Path record) {
		List<String> lines = LiveProcesses.readIfPresent(record).lines().toList();
		return lines.stream()
			.filter((line) -> line.startsWith("READY "))
			.findFirst()
			.map((l) -> l.split(" "))
			.orElse(null);
	}

	public long pid() {
		return this.pid;
	}

	public long startTime() {
		return this.startTime;
	}

	/** The port of a {@link #listening} canary. */
	public int port() {
		if (this.port < 0) {
			throw new IllegalStateException("canary " + this.pid + " does not listen");
		}
		return this.port;
	}

	/** The names of the signals received so far, in order. */
	public List<String> signals() {
		return LiveProcesses.readIfPresent(this.record).lines().filter((line) -> !line.startsWith("READY ")).toList();
	}

	/**
	 * Whether it is the same process, alive and not stopped, and has received no signal.
	 */
	public boolean untouched() {
		return this.signals().isEmpty() && LiveProcesses.stat(this.pid)
			.filter((stat) -> stat.startTime() == this.startTime)
			.map(ProcStat::state)
			.filter((state) -> state != 'T' && state != 't' && state != 'Z')
			.isPresent();
	}

	/**
	 * Fails unless the canary stays {@link #untouched()} for the whole {@link #WINDOW};
	 * fails as soon as it is not.
	 */
	public void assertUntouched() {
		try {
			Awaitility.await("canary " + this.pid + " untouched")
				.failFast("canary " + this.pid + " touched", () -> !untouched())
				.during(WINDOW)
				.atMost(WINDOW.plusSeconds(10))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> true);
		}
		catch (TerminalFailureException | ConditionTimeoutException ex) {
			throw new AssertionError("canary " + this.pid + " was touched: signals " + signals() + ", now "
					+ LiveProcesses.stat(this.pid)
						.map((stat) -> "state " + stat.state() + ", start time " + stat.startTime() + " (was "
								+ this.startTime + ")")
						.orElse("gone"),
					ex);
		}
	}

	/**
	 * Ends it with SIGKILL (the very process: its start time is checked) and waits until
	 * it is gone.
	 */
	@Override
	public void close() {
		if (LiveProcesses.isAlive(this.pid, this.startTime)) {
			ProcessHandle.of(this.pid).ifPresent(ProcessHandle::destroyForcibly);
		}
		Awaitility.await("canary " + this.pid + " gone")
			.atMost(Duration.ofSeconds(10))
			.until(() -> !LiveProcesses.isAlive(this.pid, this.startTime));
	}

}
