package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.tether.supervisor.Backoff;
import dev.tether.supervisor.ChildSpec;

import static org.assertj.core.api.Assertions.assertThat;

class RestartBudgetTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private static RestartBudget budget(int maxRestarts, Duration window, double jitter) {
		return new RestartBudget(ChildSpec.builder("budget", List.of("true"))
			.backoff(new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2.0, jitter))
			.maxRestarts(maxRestarts)
			.restartWindow(window)
			.stableAfter(Duration.ofSeconds(10))
			.build());
	}

	@Test
	void delaysGrowByTheMultiplierUpToTheMaximum() {
		RestartBudget budget = budget(10, Duration.ofMinutes(10), 0.0);
		long now = 0;
		long[] delays = new long[6];
		for (int i = 0; i < delays.length; i++) {
			delays[i] = budget.nextDelay(now, 0.5).toMillis();
			budget.restarted(now);
			now += SECOND;
		}
		assertThat(delays).containsExactly(100, 200, 400, 800, 1000, 1000);
	}

	@ParameterizedTest
	@CsvSource({ "0.0, 80", "0.5, 100", "0.999999, 120" })
	void jitterSpreadsTheDelayEitherWay(double random, long expectedMillis) {
		assertThat(budget(5, Duration.ofMinutes(1), 0.2).nextDelay(0, random).toMillis()).isEqualTo(expectedMillis);
	}

	@Test
	void breakerOpensWhenTheWindowHoldsMaxRestarts() {
		RestartBudget budget = budget(3, Duration.ofSeconds(30), 0.0);
		for (int i = 0; i < 3; i++) {
			assertThat(budget.nextDelay(i * SECOND, 0.5)).isNotNull();
			budget.restarted(i * SECOND);
		}
		assertThat(budget.nextDelay(3 * SECOND, 0.5)).isNull();
		assertThat(budget.restartsInWindow()).isEqualTo(3);
	}

	@Test
	void restartsOlderThanTheWindowNoLongerCount() {
		RestartBudget budget = budget(2, Duration.ofSeconds(30), 0.0);
		budget.nextDelay(0, 0.5);
		budget.restarted(0);
		budget.nextDelay(SECOND, 0.5);
		budget.restarted(SECOND);
		assertThat(budget.nextDelay(2 * SECOND, 0.5)).isNull();
		assertThat(budget.nextDelay(30 * SECOND + 1, 0.5)).isNotNull();
		assertThat(budget.restartsInWindow()).isEqualTo(1);
	}

	@Test
	void stableUptimeResetsBackoffAndBreaker() {
		RestartBudget budget = budget(2, Duration.ofMinutes(10), 0.0);
		budget.nextDelay(0, 0.5);
		budget.restarted(0);
		assertThat(budget.nextDelay(SECOND, 0.5)).isEqualTo(Duration.ofMillis(200));
		budget.restarted(SECOND);
		budget.checkStable(SECOND, 10 * SECOND);
		assertThat(budget.nextDelay(11 * SECOND, 0.5)).isNull();
		budget.checkStable(SECOND, 11 * SECOND);
		assertThat(budget.restartsInWindow()).isZero();
		assertThat(budget.nextDelay(12 * SECOND, 0.5)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void anOperatorStartForgetsEveryFailure() {
		RestartBudget budget = budget(1, Duration.ofMinutes(10), 0.0);
		budget.nextDelay(0, 0.5);
		budget.restarted(0);
		assertThat(budget.nextDelay(SECOND, 0.5)).isNull();
		budget.reset();
		assertThat(budget.nextDelay(2 * SECOND, 0.5)).isEqualTo(Duration.ofMillis(100));
	}

}
