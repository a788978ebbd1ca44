package dev.tether.supervisor.testsupport;

import java.time.Duration;
import java.util.List;

import dev.tether.supervisor.Backoff;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.RestartPolicy;

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

}
