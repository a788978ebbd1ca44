package dev.tether.supervisor.internal.os;

import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code getrlimit} and {@code setrlimit} through every backend this JDK can run (jnr
 * everywhere, FFM on JDK 22 and later): this JVM's soft {@code RLIMIT_NOFILE}, lowered
 * for the test, is raised back to the hard limit, and both numbers are read right.
 */
@EnabledOnOs(OS.LINUX)
class DescriptorLimitBackendTests {

	private static final int RLIMIT_NOFILE = 7;

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.tether.supervisor.internal.os.NativeBackendTests#backends")
	void raisesTheSoftDescriptorLimitToTheHardOne(Posix posix) {
		long[] limits = new long[2];
		assertThat(posix.calls().getrlimit(RLIMIT_NOFILE, limits)).isZero();
		long soft = limits[0];
		long hard = limits[1];
		// Why 2,048: well above what this JVM has open, so that nothing else in it
		// fails while the soft limit is lowered; below any hard limit a build runs under.
		long lowered = Math.min(2048, hard);
		assertThat(posix.calls().setrlimit(RLIMIT_NOFILE, lowered, hard)).isZero();
		try {
			Posix.DescriptorLimit raised = posix.raiseDescriptorLimit();
			assertThat(raised).isNotNull();
			assertThat(raised.softBefore()).isEqualTo(lowered);
			assertThat(raised.soft()).isEqualTo(hard);
			assertThat(raised.hard()).isEqualTo(hard);
			assertThat(posix.calls().getrlimit(RLIMIT_NOFILE, limits)).isZero();
			assertThat(limits).containsExactly(hard, hard);
		}
		finally {
			posix.calls().setrlimit(RLIMIT_NOFILE, soft, hard);
		}
	}

}
