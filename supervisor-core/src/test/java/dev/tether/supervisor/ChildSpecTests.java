package dev.tether.supervisor;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ChildSpecTests {

	private static ChildSpecBuilder builder() {
		return ChildSpec.builder("worker", List.of("true"));
	}

	@Test
	void toBuilderHoldsEverySettingAndChangesOnlyWhatItIsTold() throws Exception {
		ChildSpec spec = builder().kind(ChildKind.MCP)
			.environment(Map.of("MODE", "test"))
			.workingDirectory(Path.of("/tmp"))
			.autostart(false)
			.port(8080)
			.startupTimeout(Duration.ofSeconds(7))
			.restart(RestartPolicy.ALWAYS)
			.backoff(new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(20), 3.0, 0.1))
			.maxRestarts(2)
			.restartWindow(Duration.ofMinutes(5))
			.stableAfter(Duration.ofSeconds(30))
			.stopSignal(2)
			.stopTimeout(Duration.ofSeconds(3))
			.logFile(Path.of("/tmp/worker.log"))
			.logToLogger(true)
			.containDescendants(false)
			.dependsOn(List.of("database"))
			.readinessHttpGet("/ready")
			.livenessTcp(true)
			.critical(false)
			.restartWithDependencies(true)
			.stdio(true)
			.resources(ResourceLimits.builder().oomScoreAdjust(500).build())
			.successExitCodes(new ExitCodes(Set.of(3), Set.of()))
			.restartPreventExitCodes(new ExitCodes(Set.of(78), Set.of()))
			.reloadSignal(10)
			.readinessNotify(true)
			.probeAddress("::1")
			.socketActivation(new SocketActivation(true, "0.0.0.0", 128, 3))
			.build();
		ChildSpec defaults = builder().build();
		// Why every component differs from its default: a setting toBuilder forgot would
		// then come back as its default, and the copy would not equal the spec.
		for (RecordComponent component : ChildSpec.class.getRecordComponents()) {
			// Why not restartMode and startupDelay: rolling cannot go with this spec's
			// stdio, nor a delay with its readiness; their own copy is checked below.
			if (!List.of("name", "command", "restartMode", "startupDelay").contains(component.getName())) {
				assertThat(component.getAccessor().invoke(spec)).as(component.getName())
					.isNotEqualTo(component.getAccessor().invoke(defaults));
			}
		}
		assertThat(spec.toBuilder().build()).isEqualTo(spec);
		ChildSpec rolling = spec.toBuilder()
			.stdio(false)
			.restartMode(RestartMode.ROLLING)
			.readinessNotify(false)
			.readinessHttpGet(null)
			.startupDelay(Duration.ofSeconds(2))
			.build();
		assertThat(rolling.toBuilder().build()).isEqualTo(rolling);
		ChildSpec changed = spec.toBuilder().command(List.of("false")).build();
		assertThat(changed.command()).containsExactly("false");
		assertThat(changed.toBuilder().command(spec.command()).build()).isEqualTo(spec);
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
	void socketActivationNeedsAPortAnIpAddressABacklogInRangeAndDescriptor3Or0() {
		SocketActivation activation = new SocketActivation(true, "0.0.0.0", null, 3);
		assertThat(builder().port(8080).socketActivation(activation).build().socketActivation()).isEqualTo(activation);
		assertThat(builder().port(8080).socketActivation(new SocketActivation(true, "::", 1, 0)).build()).isNotNull();
		assertThat(builder().build().socketActivation()).isEqualTo(SocketActivation.DISABLED);
		refusedActivation(builder().socketActivation(activation), "socket-activation.enabled",
				"needs the child's port: it is the port the supervisor listens on");
		refusedActivation(builder().port(8080).socketActivation(new SocketActivation(true, "localhost", null, 3)),
				"socket-activation.address",
				"must be an IP address such as 127.0.0.1 (the default), 0.0.0.0 or :: (was 'localhost')");
		refusedActivation(builder().port(8080).socketActivation(new SocketActivation(true, "127.0.0.1", 0, 3)),
				"socket-activation.backlog", "must be between 1 and 65535 (was 0)");
		refusedActivation(builder().port(8080).socketActivation(new SocketActivation(true, "127.0.0.1", null, 4)),
				"socket-activation.fd", "must be 3 (systemd's LISTEN_FDS convention) or 0 (standard input) (was 4)");
		refusedActivation(
				builder().port(8080).stdio(true).socketActivation(new SocketActivation(true, "127.0.0.1", null, 0)),
				"socket-activation.fd", "cannot be 0 for a stdio child, whose standard input is the supervisor's pipe");
		assertThat(builder().socketActivation(new SocketActivation(false, "not checked", -1, 9)).build())
			.as("nothing is checked while it is off")
			.isNotNull();
	}

	@Test
	void rollingRestartsNeedSocketActivationAReadinessOfTheChildsOwnAndNoStdio() {
		ChildSpecBuilder activated = builder().port(8080)
			.socketActivation(new SocketActivation(true, "127.0.0.1", null, 3))
			.restartMode(RestartMode.ROLLING);
		assertThat(activated.readinessNotify(true).build().restartMode()).isEqualTo(RestartMode.ROLLING);
		assertThat(builder().build().restartMode()).isEqualTo(RestartMode.STOP_FIRST);
		refusedActivation(builder().port(8080).readinessNotify(true).restartMode(RestartMode.ROLLING), "restart-mode",
				"rolling needs socket-activation.enabled: the old and the new process share its socket");
		refusedActivation(activated.readinessNotify(false), "restart-mode",
				"rolling needs a readiness the new process shows itself (readiness.notify or readiness.log-line) or "
						+ "a startup-delay: the held socket always accepts, and the old process, which accepts from "
						+ "it too, would answer a port or http-get probe");
		refusedActivation(activated.readinessHttpGet("/ready").stdio(true), "restart-mode",
				"rolling cannot be used by a stdio child: its pipes to this JVM belong to one process at a time");
	}

	@Test
	void aStartupDelayIsShorterThanTheStartupTimeoutAndTheOnlyReadiness() {
		assertThat(builder().startupDelay(Duration.ofSeconds(5)).build().startupDelay()).hasSeconds(5);
		refusedActivation(builder().startupDelay(Duration.ofSeconds(60)), "startup-delay",
				"(PT1M) must be shorter than startup-timeout (PT1M), which would end the start first");
		refusedActivation(builder().startupDelay(Duration.ofSeconds(1)).readinessLogLine("up"), "startup-delay",
				"is another way to say when the child is ready: set it or readiness.notify, readiness.log-line or "
						+ "readiness.http-get, not both");
		assertThat(builder().port(8080)
			.socketActivation(new SocketActivation(true, "127.0.0.1", null, 3))
			.restartMode(RestartMode.ROLLING)
			.startupDelay(Duration.ofSeconds(1))
			.build()
			.restartMode()).as("a delay is a readiness for rolling restarts").isEqualTo(RestartMode.ROLLING);
	}

	private static void refusedActivation(ChildSpecBuilder builder, String setting, String reason) {
		assertThatExceptionOfType(InvalidChildSpecException.class).isThrownBy(builder::build).satisfies((ex) -> {
			assertThat(ex.setting()).isEqualTo(setting);
			assertThat(ex.reason()).isEqualTo(reason);
		});
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
