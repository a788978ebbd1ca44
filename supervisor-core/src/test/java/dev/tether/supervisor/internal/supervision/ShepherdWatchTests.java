package dev.tether.supervisor.internal.supervision;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often a shepherd's state is read: once a second up to 1,000 shepherds, then as
 * often as keeps the reads at 1,000 a second (the stop itself is tested with real
 * shepherds in {@code ShepherdSupervisionTests}).
 */
class ShepherdWatchTests {

	@Test
	void eachShepherdIsReadOnceASecondUpToAThousandOfThem() {
		assertThat(ShepherdWatch.statePeriod(1)).isEqualTo(Duration.ofSeconds(1));
		assertThat(ShepherdWatch.statePeriod(1_000)).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void pastAThousandTheReadsOfASecondStayAtAThousand() {
		assertThat(ShepherdWatch.statePeriod(1_500)).isEqualTo(Duration.ofMillis(1_500));
		assertThat(ShepherdWatch.statePeriod(10_000)).isEqualTo(Duration.ofSeconds(10));
	}

}
