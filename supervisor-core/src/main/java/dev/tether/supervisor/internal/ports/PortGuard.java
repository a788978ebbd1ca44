package dev.tether.supervisor.internal.ports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.identity.Verdict;

/**
 * Decides whether a child may take its port: free, held by an orphan of ours (to be
 * stopped first), or held by anything else (the start fails; that process is never
 * signalled). What it says of a foreign holder is its pid, user and executable name only:
 * a command line can carry secrets, and this text reaches the endpoint and the health
 * details.
 */
public final class PortGuard {

	/**
	 * How a shepherd shows in {@code /proc/<pid>/stat}: the launcher stays itself in its
	 * shepherd mode.
	 */
	private static final String SHEPHERD_COMMAND = "tether-launcher";

	private final PortListeners listeners = new PortListeners();

	private final IdentityProbe probe;

	public PortGuard(IdentityProbe probe) {
		this.probe = probe;
	}

	/**
	 * Looks at who holds {@code port} now. Reads {@code /proc}: call it outside any lock.
	 * @param owner this supervisor
	 * @param kind the child's kind
	 * @param name the child's name: a holder is ours only when it carries this child's
	 * markers
	 */
	public PortClaim inspect(int port, Owner owner, ChildKind kind, String name) {
		Optional<PortListener> listener = this.listeners.find(port);
		if (listener.isPresent() && !listener.get().hasPid()) {
			// Why look again: a holder that exits between the read of /proc/net/tcp and
			// the scan of /proc/*/fd leaves a listener with no process; a second look
			// tells a closing socket from a hidden holder.
			listener = this.listeners.find(port);
		}
		if (listener.isEmpty()) {
			return new PortClaim.Free();
		}
		if (!listener.get().hasPid()) {
			return new PortClaim.Unidentified("port " + port + " is held by a process that cannot be identified");
		}
		long holder = listener.get().pid();
		Optional<ProcStat> stat = this.probe.stat(holder);
		ExpectedIdentity identity = new ExpectedIdentity(holder, owner, kind, name,
				stat.map(ProcStat::startTime).orElse(null), null);
		if (stat.isPresent() && this.probe.verify(identity) == Verdict.OURS) {
			return new PortClaim.HeldByOurs(identity);
		}
		Optional<ExpectedIdentity> shepherd = stat.flatMap((held) -> shepherdOf(held, owner, kind, name));
		if (shepherd.isPresent()) {
			return new PortClaim.HeldByOurs(shepherd.get());
		}
		return new PortClaim.HeldByOther(heldBy(port, holder, stat) + ", which is not ours");
	}

	/**
	 * Names a holder of {@code port} as this package reports it: {@code port 8080 is held
	 * by pid 4242 (user nobody, executable python3)}.
	 * @param stat the holder's {@code /proc/<pid>/stat}, if it could be read
	 */
	static String heldBy(int port, long holder, Optional<ProcStat> stat) {
		return "port " + port + " is held by pid " + holder + " (user " + owner(holder) + ", executable "
				+ stat.map(ProcStat::command).orElse("?") + ")";
	}

	/**
	 * The holder's parent when it is this child's shepherd (of this run or a previous
	 * one): the command may have cleared or rewritten its own environment, but the
	 * shepherd's keeps the markers. Stopping the shepherd stops the command.
	 */
	private Optional<ExpectedIdentity> shepherdOf(ProcStat holder, Owner owner, ChildKind kind, String name) {
		Optional<ProcStat> parent = this.probe.stat(holder.ppid());
		if (parent.isEmpty() || !parent.get().command().equals(SHEPHERD_COMMAND)) {
			return Optional.empty();
		}
		ExpectedIdentity identity = new ExpectedIdentity(holder.ppid(), owner, kind, name, parent.get().startTime(),
				null);
		return (this.probe.verify(identity) == Verdict.OURS) ? Optional.of(identity) : Optional.empty();
	}

	private static String owner(long pid) {
		try {
			return Files.getOwner(Path.of("/proc", Long.toString(pid))).getName();
		}
		catch (IOException | UnsupportedOperationException ex) {
			return "?";
		}
	}

	/** Who holds a port. */
	public sealed interface PortClaim {

		/** Nothing listens on it. */
		record Free() implements PortClaim {
		}

		/**
		 * An orphan of this child from a previous run holds it.
		 *
		 * @param holder its verified identity: the holder's, or that of the shepherd the
		 * holder runs under
		 */
		record HeldByOurs(ExpectedIdentity holder) implements PortClaim {
		}

		/**
		 * Anything else holds it.
		 *
		 * @param reason the port, the holder's pid, user and executable name
		 */
		record HeldByOther(String reason) implements PortClaim {
		}

		/**
		 * A listener that no process can be found for: a holder hidden from this
		 * supervisor (another pid namespace, descriptors it may not read, a leader thread
		 * that exited while the others hold the socket).
		 *
		 * @param reason the port, and that its holder cannot be identified
		 */
		record Unidentified(String reason) implements PortClaim {
		}

	}

}
