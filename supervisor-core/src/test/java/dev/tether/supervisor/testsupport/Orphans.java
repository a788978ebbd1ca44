package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;

/**
 * Makes processes that are not children of the test JVM (their parent shell exits at
 * once), as a crashed supervisor would leave them; ends whatever is left at
 * {@link #close()}. For an orphan that must never be signalled, use a
 * {@link Canary#orphan} instead.
 */
public final class Orphans implements AutoCloseable {

	/** pid → start time of every orphan made. */
	private final Map<Long, Long> started = new HashMap<>();

	/** An orphan carrying the markers of a child; it leads its own session and group. */
	public long marked(Owner owner, ChildKind kind, String name) throws IOException, InterruptedException {
		return start(ChildMarkers.stamp(Map.of(), Map.of(), owner, kind, name), "setsid sleep 600");
	}

	/**
	 * An orphan carrying the markers of a child that does not lead a group (it stays in
	 * the group of its exited parent shell), as a child's own child that inherited the
	 * environment does.
	 */
	public long markedGroupMember(Owner owner, String name) throws IOException, InterruptedException {
		return start(ChildMarkers.stamp(Map.of(), Map.of(), owner, ChildKind.AGENT, name), "sleep 600");
	}

	/**
	 * An orphan carrying the markers of a child, leading its own session and group, that
	 * wipes its environment (an {@code exec env -i}: same pid, same start time) once
	 * {@code trigger} exists.
	 */
	public long markedThenWiped(Owner owner, String name, Path trigger) throws IOException, InterruptedException {
		return start(ChildMarkers.stamp(Map.of(), Map.of(), owner, ChildKind.AGENT, name),
				"setsid sh -c 'while [ ! -e " + trigger + " ]; do sleep 0.05; done; exec env -i /bin/sleep 600'", "sh");
	}

	private long start(Map<String, String> markers, String command) throws IOException, InterruptedException {
		return start(markers, command, "sleep");
	}

	private long start(Map<String, String> markers, String command, String runningAs)
			throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder("sh", "-c", command + " >/dev/null 2>&1 </dev/null & echo $!");
		builder.environment().putAll(markers);
		Process shell = builder.start();
		String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
		shell.waitFor();
		long pid = Long.parseLong(output);
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, runningAs));
		synchronized (this.started) {
			this.started.put(pid, LiveProcesses.stat(pid).orElseThrow().startTime());
		}
		return pid;
	}

	@Override
	public void close() {
		Map<Long, Long> orphans;
		synchronized (this.started) {
			orphans = Map.copyOf(this.started);
		}
		orphans.forEach((pid, startTime) -> {
			if (LiveProcesses.isAlive(pid, startTime)) {
				ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
			}
		});
		List<Map.Entry<Long, Long>> entries = List.copyOf(orphans.entrySet());
		Awaitility.await("orphans gone")
			.atMost(Duration.ofSeconds(10))
			.until(() -> entries.stream().noneMatch((e) -> LiveProcesses.isAlive(e.getKey(), e.getValue())));
	}

}
