package dev.tether.supervisor.internal.identity;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.ChildKind;

import static org.assertj.core.api.Assertions.assertThat;

class ProcParsersTests {

	private static final Owner PROD = new Owner("prod", "a1");

	private static byte[] environ(String... entries) {
		return (String.join("\0", entries) + "\0").getBytes(StandardCharsets.UTF_8);
	}

	@Test
	void agentMarkersMatch() {
		byte[] env = environ("PATH=/bin", "TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isTrue();
	}

	@Test
	void mcpMarkersMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_MCP_SERVICE_ID=files");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.MCP, "files")).isTrue();
	}

	@Test
	void wrongNameDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=other");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
	}

	@Test
	void nameAsSubstringDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=greeter-staging");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		byte[] prefixed = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod-2", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=greeter", "XTETHER_INSTALLATION=prod");
		assertThat(ProcParsers.carriesMarkers(prefixed, PROD, ChildKind.AGENT, "greeter")).isFalse();
	}

	@Test
	void missingMarkerDoesNotMatch() {
		byte[] env = environ("TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1", "TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		byte[] wrongValue = environ("TETHER_SUBPROCESS=11", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(wrongValue, PROD, ChildKind.AGENT, "greeter")).isFalse();
	}

	@Test
	void otherInstallationDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=staging", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		assertThat(ProcParsers.claimedChild(42, env, PROD)).isEmpty();
	}

	@Test
	void otherInstanceOfTheSameInstallationDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=b2",
				"TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		assertThat(ProcParsers.claimedChild(42, env, PROD)).isEmpty();
	}

	@Test
	void missingInstanceDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_AGENT_NAME=greeter");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		assertThat(ProcParsers.claimedChild(42, env, PROD)).isEmpty();
	}

	@Test
	void wrongKindDoesNotMatch() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_AGENT_NAME=files");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.MCP, "files")).isFalse();
	}

	@Test
	void emptyEnvironDoesNotMatch() {
		byte[] env = new byte[0];
		assertThat(ProcParsers.environ(env)).isEmpty();
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		assertThat(ProcParsers.claimedChild(42, env, PROD)).isEmpty();
	}

	@Test
	void unrelatedProcessDoesNotMatch() {
		byte[] env = environ("HOME=/root", "PATH=/usr/bin", "LANG=C.UTF-8");
		assertThat(ProcParsers.carriesMarkers(env, PROD, ChildKind.AGENT, "greeter")).isFalse();
		assertThat(ProcParsers.claimedChild(42, env, PROD)).isEmpty();
	}

	@Test
	void claimedChildReadsKindAndName() {
		byte[] env = environ("TETHER_SUBPROCESS=1", "TETHER_INSTALLATION=prod", "TETHER_INSTANCE=a1",
				"TETHER_MCP_SERVICE_ID=files");
		assertThat(ProcParsers.claimedChild(42, env, PROD)).contains(new MarkedProcess(42, ChildKind.MCP, "files"));
	}

	@Test
	void statOfCommandWithParenthesesAndSpaces() {
		String line = "4242 (evil) (name ) x) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 "
				+ "1000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
		ProcStat stat = ProcParsers.stat(4242, line).orElseThrow();
		assertThat(stat.command()).isEqualTo("evil) (name ) x");
		assertThat(stat.state()).isEqualTo('S');
		assertThat(stat.ppid()).isEqualTo(17);
		assertThat(stat.pgrp()).isEqualTo(4242);
		assertThat(stat.session()).isEqualTo(4242);
		assertThat(stat.startTime()).isEqualTo(987654);
		assertThat(stat.hasExited()).isFalse();
	}

	@Test
	void zombieStateIsRead() {
		String line = "7 (sh) Z 1 7 7 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 55 0 0 0";
		assertThat(ProcParsers.stat(7, line).orElseThrow().hasExited()).isTrue();
	}

	@Test
	void aZombieLeaderWhoseOtherThreadsRunHasNotExited() {
		String line = "7 (java) Z 1 7 7 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 55 0 0 0";
		ProcStat stat = ProcParsers.stat(7, line).orElseThrow();
		assertThat(stat.threads()).isEqualTo(3);
		assertThat(stat.hasExited()).isFalse();
	}

	@Test
	void truncatedStatDoesNotParse() {
		assertThat(ProcParsers.stat(7, "7 (sh) S 1 7")).isEmpty();
		assertThat(ProcParsers.stat(7, "garbage")).isEmpty();
		assertThat(ProcParsers.stat(7, "7 (sh) S a b c 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 55 0 0")).isEmpty();
	}

	@Test
	void bootIdIsTrimmed() {
		assertThat(ProcParsers.bootId("6f1c\n")).contains("6f1c");
		assertThat(ProcParsers.bootId(" \n")).isEmpty();
	}

	@Test
	void realUidIsTheFirstOfTheUidLine() {
		String status = "Name:\tsleep\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n";
		assertThat(ProcParsers.realUid(status)).hasValue(1000);
	}

	@Test
	void statusWithoutAReadableUidLineHasNoUid() {
		assertThat(ProcParsers.realUid("Name:\tsleep\nGid:\t0\t0\t0\t0\n")).isEmpty();
		assertThat(ProcParsers.realUid("Uid:\tx\t0\t0\t0\n")).isEmpty();
	}

}
