package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.notify.NotifyChannel;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.output.LineWatch;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.stop.AdoptedProcess;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * The process a child runs as: one we spawned (our unreaped child, its identity proven by
 * the kernel), or one adopted from a previous run (proven by its markers, start time and
 * boot id, and watched through {@code /proc}).
 *
 * @param pid its pid, which is also its process group: the command's, or its shepherd's
 * when it has one
 * @param handle the JDK's handle where {@link ProcessBuilder} spawned it (no native spawn
 * here), else {@code null}
 * @param adopted whether it was adopted rather than spawned by this JVM
 * @param shepherd whether {@code pid} is a shepherd that runs the command and contains
 * its descendants
 * @param startTime its start time in clock ticks, when readable
 * @param bootId the boot id it was recorded under, when readable
 * @param startedAt when it was spawned
 * @param startedNanos the supervisor clock's reading then
 * @param notifyChannel its notify socket (see {@link dev.tether.supervisor.SelfReport}),
 * or {@code null} without one
 * @param lineWatch the watch of its output for {@code readiness.log-line}, or
 * {@code null} without one
 */
record ChildProcess(long pid, @Nullable ProcessHandle handle, boolean adopted, boolean shepherd,
		@Nullable Long startTime, @Nullable String bootId, Instant startedAt, long startedNanos,
		@Nullable NotifyChannel notifyChannel, @Nullable LineWatch lineWatch) {

	/**
	 * An orphan of a previous run, taken over: its age is counted from the spawn its
	 * registry row recorded.
	 */
	static ChildProcess adopted(Reconciler.Adoption adoption, long nowNanos) {
		Instant spawnedAt = (adoption.row().spawnedAt() != null) ? adoption.row().spawnedAt() : Instant.now();
		long uptimeNanos = Math.max(0, Duration.between(spawnedAt, Instant.now()).toNanos());
		return new ChildProcess(adoption.identity().pid(), null, true, false, adoption.identity().startTime(),
				adoption.identity().bootId(), spawnedAt, nowNanos - uptimeNanos, null, null);
	}

	/**
	 * A reload was asked: with {@code readiness.notify}, it waits for the next
	 * {@code READY=1}.
	 */
	void reloadAsked(ChildSpec spec, long nowNanos) {
		if (this.notifyChannel != null && spec.selfReport().notifyReady()) {
			this.notifyChannel.reloadAsked(nowNanos);
		}
	}

	ExpectedIdentity identity(Owner owner, ChildSpec spec) {
		return new ExpectedIdentity(this.pid, owner, spec.kind(), spec.name(), this.startTime, this.bootId);
	}

	/**
	 * How this process is signalled and its end observed. Our own child is signalled
	 * through the reaper, which proves it unreaped (its pid cannot have been reused); an
	 * adopted one, verified by its markers when it was adopted, by its pid and start time
	 * through a pidfd. The end of our own child is its reaped exit, which the reaper
	 * delivers; an adopted one's is seen in /proc.
	 */
	StopTarget stopTarget(Reaper reaper, ProcessSignaller signaller, Owner owner, ChildSpec spec) {
		if (this.adopted) {
			return new AdoptedProcess(identity(owner, spec), signaller);
		}
		return new OwnChild(this.pid, this.handle, this.shepherd, reaper);
	}

	/**
	 * Our own, not yet reaped child. A shepherd forwards every signal to its command's
	 * group, except SIGKILL, which it cannot catch: the ladder's SIGKILL becomes the
	 * shepherd's request to kill the whole tree, and only a shepherd that does not end
	 * after it is killed itself (its command then gets its parent-death signal).
	 */
	private record OwnChild(long pid, @Nullable ProcessHandle handle, boolean shepherd,
			Reaper reaper) implements StopTarget {

		@Override
		public Verdict signal(int signal) {
			ProcessHandle jdkHandle = this.handle;
			if (jdkHandle == null) {
				int sent = (this.shepherd && signal == Posix.SIGKILL) ? Shepherd.KILL_TREE_SIGNAL : signal;
				return this.reaper.signalGroupUnreaped(this.pid, sent) ? Verdict.OURS : Verdict.GONE;
			}
			// Why: without the native path (not Linux) the JDK's handle of our unreaped
			// child is the proof, and it can only ask (TERM) or force (KILL).
			if (signal == Posix.SIGCONT) {
				return jdkHandle.isAlive() ? Verdict.OURS : Verdict.GONE;
			}
			boolean sent = (signal == Posix.SIGKILL) ? jdkHandle.destroyForcibly() : jdkHandle.destroy();
			return (sent || jdkHandle.isAlive()) ? Verdict.OURS : Verdict.GONE;
		}

		@Override
		public boolean killHarder() {
			return this.shepherd && this.reaper.signalGroupUnreaped(this.pid, Posix.SIGKILL);
		}

		/** Never seen here: the reaper delivers our child's exit to its owner. */
		@Override
		public boolean hasEnded() {
			return false;
		}

	}

}
