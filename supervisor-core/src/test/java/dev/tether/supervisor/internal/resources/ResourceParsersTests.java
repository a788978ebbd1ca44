package dev.tether.supervisor.internal.resources;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code /proc} formats resources are read from, from text as the kernel writes it.
 */
class ResourceParsersTests {

	private static final String LIMITS = """
			Limit                     Soft Limit           Hard Limit           Units     \n\
			Max cpu time              unlimited            unlimited            seconds   \n\
			Max core file size        0                    unlimited            bytes     \n\
			Max processes             63707                63707                processes \n\
			Max open files            1024                 524288               files     \n\
			""";

	@Test
	void hardLimitsAreReadByTheRowsName() {
		assertThat(ResourceParsers.hardLimits(LIMITS)).containsEntry("Max open files", 524288L)
			.containsEntry("Max core file size", ResourceParsers.UNLIMITED)
			.containsEntry("Max processes", 63707L)
			.containsEntry("Max cpu time", ResourceParsers.UNLIMITED)
			.doesNotContainKey("Limit");
	}

	@Test
	void softLimitsAreTheColumnBeforeTheHardOnes() {
		assertThat(ResourceParsers.softLimits(LIMITS)).containsEntry("Max open files", 1024L)
			.containsEntry("Max core file size", 0L)
			.containsEntry("Max cpu time", ResourceParsers.UNLIMITED);
	}

	@Test
	void capSysResourceIsBit24OfTheEffectiveSet() {
		assertThat(ResourceParsers.hasSysResource("CapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\n")).isTrue();
		assertThat(ResourceParsers.hasSysResource("CapEff:\t0000000000000000\n")).isFalse();
		assertThat(ResourceParsers.hasSysResource("CapEff:\t0000000001000000\n")).isTrue();
		assertThat(ResourceParsers.hasSysResource("Name:\tjava\n")).isFalse();
	}

	@Test
	void countersOfVmstat() {
		assertThat(ResourceParsers.vmstat("oom_kill_other 9\noom_kill 3\npgfault 10\n", "oom_kill")).hasValue(3);
		assertThat(ResourceParsers.vmstat("pgfault 10\n", "oom_kill")).isEmpty();
	}

}
