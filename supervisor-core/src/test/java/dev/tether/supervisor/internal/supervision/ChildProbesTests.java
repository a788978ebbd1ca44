package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Children seen {@code RUNNING} in the same tick (1,000 started together) have their
 * first liveness probes spread over the period, so that no tick does a whole period's
 * probing at once, and each child is still first probed within one period.
 */
class ChildProbesTests {

	private static final Duration PERIOD = Duration.ofSeconds(1);

	private static final long TICK = Duration.ofMillis(200).toNanos();

	@Test
	void firstLivenessProbesOfChildrenSeenTogetherAreSpreadOverThePeriod() {
		int[] probedAtTick = new int[5];
		long now = 1_000_000_000L;
		for (int i = 0; i < 1000; i++) {
			ChildProbes probes = new ChildProbes();
			ChildProcess process = new ChildProcess(10_000 + i, null, false, false, null, null, Instant.now(), now,
					null, null);
			assertThat(probes.claim(process, true, now, PERIOD)).as("first seen RUNNING: not yet").isFalse();
			for (int tick = 1; tick <= probedAtTick.length; tick++) {
				if (probes.claim(process, true, now + tick * TICK, PERIOD)) {
					probedAtTick[tick - 1]++;
					break;
				}
			}
		}
		assertThat(Arrays.stream(probedAtTick).sum()).as("every child probed within one period").isEqualTo(1000);
		// About 200 a tick; a tick with every probe of the period would hold 1,000.
		assertThat(Arrays.stream(probedAtTick).boxed()).as(Arrays.toString(probedAtTick))
			.allSatisfy((count) -> assertThat(count).isBetween(100, 300));
	}

}
