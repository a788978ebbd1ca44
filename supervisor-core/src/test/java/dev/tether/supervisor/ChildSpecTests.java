package dev.tether.supervisor;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ChildSpecTests {

	private static ChildSpecBuilder builder() {
		return ChildSpec.builder("worker", List.of("true"));
	}

	@Test
	void probeAddressIsALoopbackIpAddress() {
		assertThat(builder().build().probeAddress()).isEqualTo("127.0.0.1");
		assertThat(builder().probeAddress("::1").build().probeAddress()).isEqualTo("::1");
		assertThat(builder().probeAddress("127.0.0.2").build().probeAddress()).isEqualTo("127.0.0.2");
		for (String refused : new String[] { "10.0.0.1", "0.0.0.0", "::", "localhost", "127.0.0.256", "fe80::1", "" }) {
			assertThatExceptionOfType(InvalidChildSpecException.class)
				.isThrownBy(() -> builder().probeAddress(refused).build())
				.satisfies((ex) -> {
					assertThat(ex.setting()).isEqualTo("probe-address");
					assertThat(ex.reason()).isEqualTo("must be a loopback IP address such as 127.0.0.1 (the default) "
							+ "or ::1 (was '" + refused + "')");
				});
		}
	}

	@Test
	void durationsUpToTheBoundAreAccepted() {
		ChildSpec spec = builder().stableAfter(ChildSpec.MAX_DURATION).stopTimeout(ChildSpec.MAX_DURATION).build();
		assertThat(spec.stableAfter()).isEqualTo(Duration.ofDays(365));
	}

	@Test
	void durationsBeyondTheBoundAreRejectedNamingTheSetting() {
		assertThatExceptionOfType(InvalidChildSpecException.class)
			.isThrownBy(() -> builder().stableAfter(ChildSpec.MAX_DURATION.plusNanos(1)).build())
			.satisfies((ex) -> {
				assertThat(ex.setting()).isEqualTo("stable-after");
				assertThat(ex.reason()).startsWith("must be a positive duration of at most 365 days");
			});
	}

	@Test
	void aLargeMaxRestartsIsCheckedWithoutCountingEveryRestart() {
		assertTimeoutPreemptively(Duration.ofSeconds(5),
				() -> assertThatExceptionOfType(InvalidChildSpecException.class)
					.isThrownBy(() -> builder().maxRestarts(Integer.MAX_VALUE).build())
					.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("restart-window")));
		assertTimeoutPreemptively(Duration.ofSeconds(5),
				() -> assertThat(builder().backoffInitial(Duration.ofMillis(10))
					.backoffMax(Duration.ofSeconds(1))
					.backoffMultiplier(1.0)
					.backoffJitter(0.0)
					.maxRestarts(1_000_000_000)
					.restartWindow(ChildSpec.MAX_DURATION)
					.build()
					.maxRestarts()).isEqualTo(1_000_000_000));
	}

}
