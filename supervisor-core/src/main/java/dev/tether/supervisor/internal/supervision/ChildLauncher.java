package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildStdio;
import dev.tether.supervisor.LimitedResource;
import dev.tether.supervisor.ResourceLimit;
import dev.tether.supervisor.ResourceLimits;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.notify.NotifyChannel;
import dev.tether.supervisor.internal.notify.NotifyPoller;
import dev.tether.supervisor.internal.os.HandedSocket;
import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.output.LineWatch;
import dev.tether.supervisor.internal.ports.PortGuard;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.CommandSettings;
import dev.tether.supervisor.internal.spawn.ForkRefusedException;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * Turns a child's spec into a process: checks its port, stamps the markers into its
 * environment, keeps the sinks of its output, and spawns it with its exit routed back to
 * the supervisor.
 */
final class ChildLauncher implements AutoCloseable {

	private static final Path DEV_NULL = Path.of("/dev/null");

	private final Spawner spawner;

	private final IdentityProbe probe;

	private final PortGuard ports;

	private final Owner owner;

	private final Path logDirectory;

	private final Map<String, ChildOutput> outputs = new ConcurrentHashMap<>();

	private final Map<String, ChildStdio> stdio = new ConcurrentHashMap<>();

	private final @Nullable String bootId;

	private final NotifyPoller notify;

	// Why kept: a child's socket lives until its next process gets one, or it is removed.
	// Why a list: during a rolling restart the process it replaces keeps its own socket
	// until the next spawn, so that its watchdog is still heard should it take the child
	// back.
	private final Map<String, List<NotifyChannel>> channels = new ConcurrentHashMap<>();

	private final ChildSockets sockets = new ChildSockets();

	ChildLauncher(Spawner spawner, IdentityProbe probe, Owner owner, Path logDirectory, NotifyPoller notify) {
		this.notify = notify;
		this.spawner = spawner;
		this.probe = probe;
		this.ports = new PortGuard(probe);
		this.owner = owner;
		this.logDirectory = logDirectory;
		this.bootId = probe.bootId().orElse(null);
	}

	/**
	 * Who holds the child's port now; free when it declares none, or when this supervisor
	 * holds it for the child (socket activation). Reads {@code /proc}: call it outside
	 * the lock.
	 */
	PortGuard.PortClaim inspectPort(ChildSpec spec) {
		Integer port = spec.port();
		return (port != null && !this.sockets.holdsPort(spec))
				? this.ports.inspect(port, this.owner, spec.kind(), spec.name()) : new PortGuard.PortClaim.Free();
	}

	/**
	 * Starts the spawn of the child's process: hands it to the spawner thread, not
	 * waiting for it; {@link #finish} records the outcome in the child's state machine.
	 * Called under the supervisor's lock, and {@link #finish} under the same hold of it,
	 * so that an exit (which takes that lock) can only be applied after the child knows
	 * its pid (see {@link ChildTable} for what else may run under that lock).
	 * @return the spawn to finish, or {@code null} when it failed before it was handed
	 * over (the child knows why)
	 */
	@Nullable Launch start(SupervisedChild child, Reaper.ExitListener onExit, long nowNanos) {
		ChildSpec spec = child.spec();
		ChildSockets.Open socket;
		try {
			socket = this.sockets.socket(spec);
		}
		catch (IOException ex) {
			child.launchFailed("its listening socket could not be opened: " + ex.getMessage(), null);
			return null;
		}
		child.holds((socket != null) ? socket.held() : null);
		NotifyChannel channel;
		try {
			channel = spec.selfReport().socket() ? this.notify.open(spec.name()) : null;
		}
		catch (IOException ex) {
			child.launchFailed("its notify socket could not be opened: " + ex.getMessage(), null);
			return null;
		}
		Map<String, String> environment = environment(spec, channel, socket);
		ChildOutput output = output(spec);
		Pattern logLine = spec.selfReport().logLinePattern();
		LineWatch watch = (logLine != null) ? new LineWatch(logLine) : null;
		output.watch(watch);
		// Why /dev/null: with the file off, output that cannot be captured (no pump here)
		// has nowhere else to go.
		Path log = (output.file() != null) ? output.file() : DEV_NULL;
		long started = System.nanoTime();
		Spawner.Pending pending;
		try {
			pending = this.spawner.submit(new SpawnRequest(spec.command(), environment, spec.workingDirectory(), log,
					null, spec.containDescendants(), output, spec.stdio(), settings(spec, channel, socket)), onExit);
		}
		catch (SpawnException ex) {
			failed(child, channel, started, ex);
			return null;
		}
		return new Launch(child, pending, channel, watch, started, nowNanos);
	}

	/** Waits for a spawn {@link #start} handed over and records its outcome. */
	void finish(Launch launch) {
		SpawnedChild spawned;
		try {
			spawned = launch.pending().awaitUninterruptibly();
		}
		catch (SpawnException ex) {
			failed(launch.child(), launch.channel(), launch.started(), ex);
			return;
		}
		SupervisedChild child = launch.child();
		if (launch.channel() != null) {
			this.notify.attach(launch.channel(), spawned.pid(), spawned.shepherd());
		}
		keepChannels(child, launch.channel());
		if (spawned.stdio() != null) {
			replaceStdio(child.name(), spawned.stdio());
		}
		Long startTime = this.probe.stat(spawned.pid()).map(ProcStat::startTime).orElse(null);
		child.launched(spawned, startTime, this.bootId, launch.channel(), launch.watch(), launch.nowNanos());
	}

	private void failed(SupervisedChild child, @Nullable NotifyChannel channel, long started, SpawnException ex) {
		if (channel != null) {
			this.notify.close(channel);
		}
		Duration spawnDuration = Duration.ofNanos(System.nanoTime() - started);
		if (ex instanceof ForkRefusedException) {
			child.refused(Refusal.PROCESSES,
					ex.getMessage() + "; it is started again when a process of this supervisor's children ends",
					spawnDuration);
		}
		else {
			child.launchFailed(ex.getMessage(), spawnDuration);
		}
	}

	/**
	 * A spawn handed to the spawner, and what its outcome is recorded with.
	 *
	 * @param started when the spawn was asked for, for a failure's duration
	 * @param nowNanos the supervisor's clock when the launch was decided
	 */
	record Launch(SupervisedChild child, Spawner.Pending pending, @Nullable NotifyChannel channel,
			@Nullable LineWatch watch, long started, long nowNanos) {
	}

	private Map<String, String> environment(ChildSpec spec, @Nullable NotifyChannel channel,
			ChildSockets.@Nullable Open socket) {
		Map<String, String> environment = ChildMarkers.stamp(System.getenv(), spec.environment(), this.owner,
				spec.kind(), spec.name());
		if (channel == null && socket == null && !environment.containsKey("LISTEN_FDS")) {
			return environment;
		}
		Map<String, String> handed = new LinkedHashMap<>(environment);
		// Why: sockets and a watchdog of the JVM's own (under systemd) are not the
		// child's.
		handed.keySet().removeAll(List.of("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"));
		if (channel != null) {
			handed.remove("WATCHDOG_USEC");
			handed.remove("WATCHDOG_PID");
			handed.putAll(channel.environment(spec.selfReport().watchdog()));
		}
		// Why not for descriptor 0: LISTEN_FDS counts from descriptor 3, as systemd's
		// StandardInput=socket sets none either.
		if (socket != null && !socket.handed().asStdin()) {
			handed.put("LISTEN_FDS", "1");
			handed.put("LISTEN_FDNAMES", spec.name());
		}
		return handed;
	}

	/**
	 * Keeps the notify sockets of the child's new process and of the process a rolling
	 * restart replaces, if any, and closes the others. Called under the children's lock.
	 */
	private void keepChannels(SupervisedChild child, @Nullable NotifyChannel current) {
		Predecessor previous = child.predecessor();
		List<NotifyChannel> kept = new ArrayList<>(2);
		if (previous != null && previous.process().notifyChannel() != null) {
			kept.add(previous.process().notifyChannel());
		}
		if (current != null) {
			kept.add(current);
		}
		List<NotifyChannel> before = kept.isEmpty() ? this.channels.remove(child.name())
				: this.channels.put(child.name(), kept);
		if (before != null) {
			before.stream().filter((channel) -> !kept.contains(channel)).forEach(this.notify::close);
		}
	}

	private void closeChannels(String name) {
		List<NotifyChannel> before = this.channels.remove(name);
		if (before != null) {
			before.forEach(this.notify::close);
		}
	}

	/**
	 * What the launcher sets on the command: its limits, its OOM score, with a watchdog
	 * {@code WATCHDOG_PID}, so that only the command itself, not a descendant that
	 * inherits {@code WATCHDOG_USEC}, takes the watchdog as its own, and the listening
	 * socket with {@code LISTEN_PID} likewise.
	 */
	static CommandSettings settings(ChildSpec spec, @Nullable NotifyChannel channel,
			ChildSockets.@Nullable Open socket) {
		ResourceLimits resources = spec.resources();
		List<CommandSettings.Limit> limits = new ArrayList<>();
		for (LimitedResource resource : LimitedResource.values()) {
			ResourceLimit limit = resources.limit(resource);
			if (limit != null) {
				limits.add(new CommandSettings.Limit(resource, limit.soft(), limit.hard()));
			}
		}
		List<String> pidVariables = new ArrayList<>(2);
		if (channel != null && spec.selfReport().watchdog() != null) {
			pidVariables.add("WATCHDOG_PID");
		}
		HandedSocket handed = (socket != null) ? socket.handed() : null;
		if (handed != null && !handed.asStdin()) {
			pidVariables.add("LISTEN_PID");
		}
		return new CommandSettings(limits, resources.oomScoreAdjust(), pidVariables, handed);
	}

	/** The sinks of a child's output, one for its whole life. */
	ChildOutput output(ChildSpec spec) {
		return this.outputs.computeIfAbsent(spec.name(),
				(name) -> new ChildOutput(name, spec.log(), this.logDirectory.resolve(name + ".log")));
	}

	/** The stdin and stdout of a stdio child's latest process. */
	Optional<ChildStdio> stdio(String name) {
		return Optional.ofNullable(this.stdio.get(name));
	}

	private void replaceStdio(String name, @Nullable ChildStdio current) {
		ChildStdio previous = (current != null) ? this.stdio.put(name, current) : this.stdio.remove(name);
		if (previous != null) {
			previous.close();
		}
	}

	/**
	 * Drops a removed child's sinks; its pipes, if any are left, still drain into them
	 * and close them. Its stdio pipes and its listening socket are closed.
	 */
	void forget(String name) {
		renew(name);
		this.sockets.close(name);
	}

	/**
	 * Drops what a child whose configuration changed gets anew, as {@link #forget} does,
	 * but keeps its listening socket: its next start reuses it unless its address, port
	 * or backlog changed, so that no client is refused across the change.
	 */
	void renew(String name) {
		this.outputs.remove(name);
		replaceStdio(name, null);
		closeChannels(name);
	}

	@Nullable String bootId() {
		return this.bootId;
	}

	/**
	 * Closes the notify sockets (nothing a child says is heard any more) and the
	 * listening sockets. Called once the children are stopped.
	 */
	@Override
	public void close() {
		this.notify.close();
		this.sockets.close();
	}

}
