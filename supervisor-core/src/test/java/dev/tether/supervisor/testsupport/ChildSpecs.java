package dev.tether.supervisor.testsupport;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.tether.supervisor.Backoff;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.Supervisor;

import static org.awaitility.Awaitility.await;

/**
 * Child specifications that several tests share.
 */
public final class ChildSpecs {

	private ChildSpecs() {
	}

	/**
	 * A child restarted after every exit, after a short fixed backoff, with a breaker
	 * that never opens in a test.
	 */
	public static ChildSpec restartedForever(String name, List<String> command, Duration backoff) {
		return ChildSpec.builder(name, command)
			.restart(RestartPolicy.ALWAYS)
			.backoff(new Backoff(backoff, backoff, 1.0, 0.0))
			.maxRestarts(100000)
			.restartWindow(Duration.ofDays(1))
			.build();
	}

	/**
	 * A {@code sleep} whose environment carries {@code GENERATION}, so that two
	 * configurations of one child differ and its process says which it runs.
	 */
	public static ChildSpec sleeper(String name, String generation) {
		return ChildSpec.builder(name, List.of("sleep", "600")).environment(Map.of("GENERATION", generation)).build();
	}

	/**
	 * Each named child's command pid, awaited (under a shepherd it is known once forked).
	 */
	public static Map<String, Long> awaitPids(Supervisor supervisor, Duration deadline, String... names) {
		Map<String, Long> pids = new LinkedHashMap<>();
		for (String name : names) {
			pids.put(name, await().atMost(deadline)
				.until(() -> supervisor.snapshot(name).orElseThrow().pid(), Objects::nonNull));
		}
		return pids;
	}

}
