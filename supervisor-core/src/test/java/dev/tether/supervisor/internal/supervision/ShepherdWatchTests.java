package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How often a shepherd's state is read: once a second up to 1,000 shepherds, then as
 * often as keeps the reads at 1,000 a second, each pass reading its share in turn (the
 * stop itself is tested with real shepherds in {@code ShepherdSupervisionTests}).
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

	@Test
	void eachTickOf6400ShepherdsReadsItsShareAndEveryOneIsReadOncePerPeriod() {
		int shepherds = 6_400;
		long tick = Duration.ofMillis(200).toNanos();
		ShepherdWatch.Turns turns = new ShepherdWatch.Turns(0);
		int[] reads = new int[shepherds];
		// Why 32 passes: the period of 6,400 is 6.4 s, 32 ticks of 200 ms.
		for (int pass = 1; pass <= 32; pass++) {
			ShepherdWatch.Turn turn = turns.next(shepherds, pass * tick);
			assertThat(turn.reads()).isEqualTo(200);
			IntStream.range(0, shepherds).filter(turn::includes).forEach((index) -> reads[index]++);
		}
		assertThat(reads).containsOnly(1);
	}

	@Test
	void aFewShepherdsAreEachReadOnceASecondAtTicksOf200Ms() {
		long tick = Duration.ofMillis(200).toNanos();
		ShepherdWatch.Turns turns = new ShepherdWatch.Turns(0);
		int[] reads = new int[3];
		for (int pass = 1; pass <= 5; pass++) {
			ShepherdWatch.Turn turn = turns.next(3, pass * tick);
			IntStream.range(0, 3).filter(turn::includes).forEach((index) -> reads[index]++);
		}
		assertThat(reads).containsOnly(1);
	}

	@Test
	void aPassAfterALongPauseReadsEachShepherdOnceAtMost() {
		ShepherdWatch.Turns turns = new ShepherdWatch.Turns(0);
		ShepherdWatch.Turn turn = turns.next(10, Duration.ofMinutes(5).toNanos());
		assertThat(turn.reads()).isEqualTo(10);
		assertThat(IntStream.range(0, 10).filter(turn::includes).count()).isEqualTo(10);
		assertThat(turns.next(10, Duration.ofMinutes(5).toNanos()).reads()).isZero();
	}

	@Test
	void aTurnGoesOnPastTheLastShepherdToTheFirst() {
		ShepherdWatch.Turn turn = new ShepherdWatch.Turn(8, 4, 10);
		assertThat(IntStream.range(0, 10).filter(turn::includes).boxed()).containsExactly(0, 1, 8, 9);
	}

}
