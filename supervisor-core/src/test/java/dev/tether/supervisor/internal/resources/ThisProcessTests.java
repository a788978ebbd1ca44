package dev.tether.supervisor.internal.resources;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page size read from this process's auxiliary vector is the one the C library
 * reports to a real process.
 */
@EnabledOnOs(OS.LINUX)
class ThisProcessTests {

	@Test
	void pageSizeIsTheOneGetconfReports() throws Exception {
		Process getconf = new ProcessBuilder("getconf", "PAGESIZE").redirectErrorStream(true).start();
		try {
			String output = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			assertThat(getconf.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(getconf.exitValue()).as(output).isZero();
			assertThat(ThisProcess.pageSize()).isEqualTo(Long.parseLong(output));
		}
		finally {
			getconf.destroyForcibly();
		}
	}

}
