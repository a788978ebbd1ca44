package dev.tether.supervisor.internal.stop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.Verdict;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ladder's last steps on a clock of its own: SIGKILL after the timeout, then, for a
 * target that has a harder kill (a shepherd that did not end after its kill-tree
 * request), that kill and one more grace before {@code SURVIVED}.
 */
class StopEscalationTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	@Test
	void targetWithoutAHarderKillSurvivesOneGraceAfterSigkill() {
		Recording target = new Recording(false);
		Stop stop = StopLadder.begin(target, 15, Duration.ofSeconds(10), 0);
		assertThat(stop.advance(10 * SECOND)).isNull();
		assertThat(target.sent).containsExactly("signal 15", "signal 18", "signal 9");
		assertThat(stop.advance(15 * SECOND)).isEqualTo(StopOutcome.SURVIVED);
	}

	@Test
	void targetWithAHarderKillGetsItAfterTheGraceAndSurvivesOnlyAnotherGraceLater() {
		Recording target = new Recording(true);
		Stop stop = StopLadder.begin(target, 15, Duration.ofSeconds(10), 0);
		assertThat(stop.advance(10 * SECOND)).isNull();
		assertThat(stop.advance(15 * SECOND)).isNull();
		assertThat(target.sent).containsExactly("signal 15", "signal 18", "signal 9", "harder");
		assertThat(stop.advance(19 * SECOND)).isNull();
		assertThat(stop.advance(20 * SECOND)).isEqualTo(StopOutcome.SURVIVED);
		assertThat(target.sent).hasSize(4);
	}

	@Test
	void endAfterTheHarderKillIsKilled() {
		Recording target = new Recording(true);
		Stop stop = StopLadder.begin(target, 15, Duration.ofSeconds(10), 0);
		stop.advance(10 * SECOND);
		stop.advance(15 * SECOND);
		assertThat(stop.ended()).isEqualTo(StopOutcome.KILLED);
	}

	/** Records what the ladder sends; the process it stands for never ends on its own. */
	private static final class Recording implements StopTarget {

		private final boolean hasHarderKill;

		private final List<String> sent = new ArrayList<>();

		Recording(boolean hasHarderKill) {
			this.hasHarderKill = hasHarderKill;
		}

		@Override
		public Verdict signal(int signal) {
			this.sent.add("signal " + signal);
			return Verdict.OURS;
		}

		@Override
		public boolean hasEnded() {
			return false;
		}

		@Override
		public boolean killHarder() {
			if (this.hasHarderKill) {
				this.sent.add("harder");
			}
			return this.hasHarderKill;
		}

	}

}
