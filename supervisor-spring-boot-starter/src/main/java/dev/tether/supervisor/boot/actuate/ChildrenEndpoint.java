package dev.tether.supervisor.boot.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildUsage;
import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.ExitCodes;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.HeldSocket;
import dev.tether.supervisor.NotifyStatus;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.ReconciliationReport;
import dev.tether.supervisor.Signals;
import dev.tether.supervisor.SpawnFeatures;
import dev.tether.supervisor.Supervisor;

/**
 * {@code /actuator/children}: the supervised children, how they are tied to the JVM, and
 * the last reconciliation. Its write operation starts, stops or restarts one child.
 * Environments are never shown.
 */
@Endpoint(id = "children", defaultAccess = Access.READ_ONLY)
public class ChildrenEndpoint {

	private final Supervisor supervisor;

	private final List<ChildDetailsContributor> contributors;

	public ChildrenEndpoint(Supervisor supervisor) {
		this(supervisor, List.of());
	}

	public ChildrenEndpoint(Supervisor supervisor, List<ChildDetailsContributor> contributors) {
		this.supervisor = supervisor;
		this.contributors = List.copyOf(contributors);
	}

	@ReadOperation
	public ChildrenDescriptor children() {
		String parentDeath = this.supervisor.parentDeathMechanism().id();
		return new ChildrenDescriptor(this.supervisor.installationId(), parentDeath, parentDeath,
				this.supervisor.parentDeathMechanism().descendants(), this.supervisor.identityVerification(),
				this.supervisor.nativeBackend(), this.supervisor.parentDeathWarning().orElse(null),
				this.supervisor.spawnFeatures(),
				this.supervisor.lastReconciliation().map(ReconciliationDescriptor::of).orElse(null),
				DescriptorsDescriptor.of(this.supervisor.descriptors()),
				this.supervisor.snapshots().stream().map(this::describe).toList());
	}

	@ReadOperation
	public @Nullable ChildDescriptor child(@Selector String name) {
		return this.supervisor.snapshot(name).map(this::describe).orElse(null);
	}

	private ChildDescriptor describe(ChildSnapshot child) {
		Map<String, Object> details = ChildDetailsContributor.merged(this.contributors, child);
		this.supervisor.spec(child.name())
			.flatMap(ExitCodesDescriptor::of)
			.ifPresent((rules) -> details.put("exitCodes", rules));
		if (child.notifyStatus() != null) {
			details.put("notify", NotifyDescriptor.of(child.notifyStatus()));
		}
		return ChildDescriptor.of(child, details,
				this.supervisor.usage(child.name()).map(ResourcesDescriptor::of).orElse(null));
	}

	/**
	 * A child's exit-code rules, shown in its details where it has any.
	 *
	 * @param success exits that count as clean besides code 0 (codes, then signal names)
	 * @param restartPrevent exits after which it is never restarted
	 */
	public record ExitCodesDescriptor(List<String> success, List<String> restartPrevent) {

		static Optional<ExitCodesDescriptor> of(ChildSpec spec) {
			if (spec.successExitCodes().isEmpty() && spec.restartPreventExitCodes().isEmpty()) {
				return Optional.empty();
			}
			return Optional
				.of(new ExitCodesDescriptor(names(spec.successExitCodes()), names(spec.restartPreventExitCodes())));
		}

		private static List<String> names(ExitCodes exits) {
			List<String> names = new ArrayList<>();
			exits.codes().stream().sorted().map(String::valueOf).forEach(names::add);
			exits.signals().stream().sorted().map((signal) -> "SIG" + Signals.name(signal)).forEach(names::add);
			return names;
		}

	}

	/**
	 * What a child's process said over its notify socket, shown in its details (its
	 * {@code STATUS=} is the child's {@code statusText}).
	 *
	 * @param phase {@code STARTING}, {@code READY}, {@code RELOADING} or {@code STOPPING}
	 * @param lastWatchdog when its last {@code WATCHDOG=1} came (ISO-8601), or
	 * {@code null}
	 * @param ignoredDatagrams datagrams dropped: from outside its tree or of another user
	 */
	public record NotifyDescriptor(String phase, @Nullable String lastWatchdog, long ignoredDatagrams) {

		static NotifyDescriptor of(NotifyStatus status) {
			return new NotifyDescriptor(status.phase().name(),
					(status.lastWatchdog() != null) ? status.lastWatchdog().toString() : null,
					status.ignoredDatagrams());
		}

	}

	/**
	 * Starts, stops, restarts or reloads a child (see {@link Supervisor#reload}).
	 * @param name the child
	 * @param action {@code start}, {@code stop}, {@code restart} or {@code reload}
	 * @return the child after the action, or {@code null} when there is no such child
	 */
	@WriteOperation
	public @Nullable ChildDescriptor control(@Selector String name, @Nullable String action) {
		if (this.supervisor.snapshot(name).isEmpty()) {
			return null;
		}
		String requested = (action != null) ? action.toLowerCase(Locale.ROOT) : "";
		switch (requested) {
			case "start" -> this.supervisor.start(name);
			case "stop" -> this.supervisor.stop(name);
			case "restart" -> this.supervisor.restart(name);
			case "reload" -> reload(name);
			default -> throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "' (expected start, stop, restart or reload)", "Unknown action");
		}
		return child(name);
	}

	private void reload(String name) {
		try {
			this.supervisor.reload(name);
		}
		catch (IllegalStateException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Not reloaded");
		}
	}

	/**
	 * The whole endpoint.
	 *
	 * @param installationId the installation id
	 * @param parentDeathMechanism what ties children to this JVM's life:
	 * {@code launcher}, {@code setpriv} or {@code none}
	 * @param parentDeathSignal the same value under its former name, which said a signal
	 * where it carries a mechanism; deprecated since 0.4, it goes in the next release
	 * @param descendants how the descendants of children are contained: {@code shepherd}
	 * or {@code group}
	 * @param identityVerification whether identity can be verified here
	 * @param nativeBackend how libc is called: {@code ffm} (JDK 22+), {@code jnr} (JDK 17
	 * to 21) or {@code none}
	 * @param parentDeathWarning why children outlive this JVM if it is killed with
	 * SIGKILL although a parent-death signal was asked for (no launcher, no
	 * {@code setpriv}, not Linux), or {@code null} when they do not
	 * @param spawn how children are spawned here (method, working directory, descriptors)
	 * @param reconciliation the last reconciliation, or {@code null}
	 * @param descriptors the application's descriptors and the budget kept within them
	 * @param children every child
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ChildrenDescriptor(String installationId, String parentDeathMechanism,
			@Deprecated(since = "0.4.0", forRemoval = true) String parentDeathSignal, String descendants,
			boolean identityVerification, String nativeBackend, @Nullable String parentDeathWarning,
			SpawnFeatures spawn, @Nullable ReconciliationDescriptor reconciliation, DescriptorsDescriptor descriptors,
			List<ChildDescriptor> children) {
	}

	/**
	 * The application's descriptors and the budget children are started within.
	 *
	 * @param used open now (counted once per tick, with the sampler's share of every
	 * child counted whether sampled yet or not, plus the children started since)
	 * @param limit the soft {@code RLIMIT_NOFILE}, or {@code -1} when unlimited or
	 * unknown
	 * @param reserve what a start must leave to the application
	 * @param perChild what each child costs: 3 while it runs (pipe, pidfd, log file) and
	 * 6 {@code /proc} files the resource sampler keeps open while its tree is sampled
	 * @param sampled what the resource sampler keeps open now (part of {@code used})
	 * @param room how many more children fit
	 * @param refusals starts refused for want of descriptors
	 */
	public record DescriptorsDescriptor(long used, long limit, long reserve, int perChild, long sampled, long room,
			long refusals) {

		static DescriptorsDescriptor of(DescriptorUse use) {
			return new DescriptorsDescriptor(use.used(), use.limit(), use.reserve(), use.perChild(), use.sampled(),
					use.room(), use.refusals());
		}

	}

	/**
	 * One child.
	 *
	 * @param name its name
	 * @param kind {@code agent} or {@code mcp}
	 * @param state its state
	 * @param pid its command's pid, or {@code null}
	 * @param shepherdPid the pid of its shepherd, or {@code null} without one
	 * @param startedAt when its process started (ISO-8601), or {@code null}
	 * @param uptimeSeconds seconds since then
	 * @param restarts restarts by its policy
	 * @param port its port, or {@code null}
	 * @param socketActivation the listening socket the application holds on that port for
	 * it (socket activation), or {@code null} when it holds none
	 * @param lastExit its last exit, or {@code null}
	 * @param lastError why its last start or stop failed, or {@code null}
	 * @param statusText its last {@code STATUS=} over the notify protocol, or
	 * {@code null}
	 * @param critical whether its {@code FAILED} state turns the {@code supervisor}
	 * health {@code DOWN}
	 * @param readiness the last readiness check of its current process, or {@code null}
	 * @param liveness the last liveness probe of its current process, or {@code null}
	 * @param details what {@link ChildDetailsContributor} beans add (an MCP child's
	 * transport, session and tools), empty for none
	 * @param resources what its tree uses, or {@code null} when it is gone meanwhile
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ChildDescriptor(String name, String kind, String state, @Nullable Long pid,
			@Nullable Long shepherdPid, @Nullable String startedAt, long uptimeSeconds, int restarts,
			@Nullable Integer port, @Nullable SocketActivationDescriptor socketActivation,
			@Nullable ExitDescriptor lastExit, @Nullable String lastError, @Nullable String statusText,
			boolean critical, @Nullable ProbeDescriptor readiness, @Nullable ProbeDescriptor liveness,
			Map<String, Object> details, @Nullable ResourcesDescriptor resources) {

		static ChildDescriptor of(ChildSnapshot child, Map<String, Object> details,
				@Nullable ResourcesDescriptor resources) {
			return new ChildDescriptor(child.name(), child.kind().id(), child.state().name(), child.pid(),
					child.shepherdPid(), (child.startedAt() != null) ? child.startedAt().toString() : null,
					child.uptimeSeconds(), child.restarts(), child.port(),
					SocketActivationDescriptor.of(child.socketActivation()), ExitDescriptor.of(child.lastExit()),
					child.lastError(), child.statusText(), child.critical(), ProbeDescriptor.of(child.readiness()),
					ProbeDescriptor.of(child.liveness()), details, resources);
		}

	}

	/**
	 * The listening socket the application holds for a socket-activated child: the port
	 * is the application's, whichever process of the child accepts on it.
	 *
	 * @param address the address it is bound to
	 * @param port its port
	 * @param fd where the child's processes find it: {@code 3} or {@code 0}
	 * @param backlog the backlog it listens with
	 * @param heldBy the pid of this application, which holds it
	 */
	public record SocketActivationDescriptor(String address, int port, int fd, int backlog, long heldBy) {

		static @Nullable SocketActivationDescriptor of(@Nullable HeldSocket socket) {
			return (socket != null) ? new SocketActivationDescriptor(socket.address(), socket.port(), socket.fd(),
					socket.backlog(), ProcessHandle.current().pid()) : null;
		}

	}

	/**
	 * A probe's last result.
	 *
	 * @param passed whether it passed
	 * @param detail what it saw ({@code HTTP 200}, {@code no answer within PT1S}, ...)
	 * @param at when (ISO-8601)
	 * @param failures failures in a row, this one included
	 */
	public record ProbeDescriptor(boolean passed, String detail, String at, int failures) {

		static @Nullable ProbeDescriptor of(@Nullable ProbeResult result) {
			return (result != null)
					? new ProbeDescriptor(result.passed(), result.detail(), result.at().toString(), result.failures())
					: null;
		}

	}

	/**
	 * What a child's tree uses (see {@link ChildUsage}).
	 *
	 * @param memoryBytes resident memory of its processes
	 * @param cpuSeconds user and system CPU time over the supervisor's life, reaped
	 * descendants included
	 * @param processes how many live processes it has (its shepherd and zombies not
	 * counted)
	 * @param zombies how many of its descendants have ended and wait to be reaped
	 * @param descriptors the command's open descriptors, or {@code null} when unknown
	 * @param maxMemoryRestarts restarts for exceeding {@code max-memory}
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ResourcesDescriptor(long memoryBytes, double cpuSeconds, int processes, int zombies,
			@Nullable Integer descriptors, long maxMemoryRestarts) {

		static ResourcesDescriptor of(ChildUsage usage) {
			return new ResourcesDescriptor(usage.residentMemory(), usage.cpuTime().toNanos() / 1e9, usage.processes(),
					usage.zombies(), usage.openDescriptors(), usage.maxMemoryRestarts());
		}

	}

	/**
	 * How a process ended.
	 *
	 * @param code its exit code, or {@code null}
	 * @param signal the signal that ended it, or {@code null}
	 * @param at when (ISO-8601)
	 * @param killedBy who sent the SIGKILL that ended it when Tether did not:
	 * {@code oom-killer} (most likely the kernel's OOM killer) or {@code other};
	 * {@code null} otherwise
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	public record ExitDescriptor(@Nullable Integer code, @Nullable Integer signal, String at,
			@Nullable String killedBy) {

		static @Nullable ExitDescriptor of(@Nullable ExitStatus exit) {
			return (exit != null) ? new ExitDescriptor(exit.code(), exit.signal(), exit.at().toString(), exit.killer())
					: null;
		}

	}

	/**
	 * The last reconciliation's counts.
	 *
	 * @param at when it ran (ISO-8601)
	 * @param ours orphans verified as ours
	 * @param notOurs rows whose pid names another process
	 * @param gone rows whose process is gone
	 * @param unverifiable processes that could not be checked
	 * @param stopped orphans stopped
	 * @param adopted orphans adopted
	 */
	public record ReconciliationDescriptor(String at, int ours, int notOurs, int gone, int unverifiable, int stopped,
			int adopted) {

		static ReconciliationDescriptor of(ReconciliationReport report) {
			return new ReconciliationDescriptor(report.at().toString(), report.ours(), report.notOurs(), report.gone(),
					report.unverifiable(), report.stopped(), report.adopted());
		}

	}

}
