package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildMarkers;

/**
 * Makes processes that are not children of the test JVM (their parent shell exits at once), as a crashed
 * supervisor would leave them; ends whatever is left at {@link #close()}.
 */
public final class Orphans implements AutoCloseable {

	private final List<Long> started = new ArrayList<>();

	/** An orphan carrying the markers of a child; it leads its own session and group. */
	public long marked(String installationId, ChildKind kind, String name) throws IOException, InterruptedException {
		return start(ChildMarkers.stamp(Map.of(), Map.of(), installationId, kind, name), "setsid sleep 600");
	}

	/** An orphan carrying the markers of a child, in the group of its (exited) parent shell, as a grandchild is. */
	public long markedGrandchild(String installationId, String name) throws IOException, InterruptedException {
		return start(ChildMarkers.stamp(Map.of(), Map.of(), installationId, ChildKind.AGENT, name), "sleep 600");
	}

	/** An orphan without markers. */
	public long unmarked() throws IOException, InterruptedException {
		return start(Map.of(), "setsid sleep 600");
	}

	private long start(Map<String, String> markers, String command) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder("sh", "-c", command + " >/dev/null 2>&1 </dev/null & echo $!");
		builder.environment().putAll(markers);
		Process shell = builder.start();
		String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
		shell.waitFor();
		long pid = Long.parseLong(output);
		Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
		synchronized (this.started) {
			this.started.add(pid);
		}
		return pid;
	}

	@Override
	public void close() {
		List<Long> pids;
		synchronized (this.started) {
			pids = List.copyOf(this.started);
		}
		for (long pid : pids) {
			if (LiveProcesses.isRunning(pid, "sleep")) {
				ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
			}
		}
		Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> pids.stream().noneMatch(LiveProcesses::isAlive));
	}

}
