package dev.tether.supervisor.internal.supervision;

import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.internal.resources.ThisProcess;

/**
 * Says who killed a child that ended by a SIGKILL Tether did not send. Tether sends
 * SIGKILL only at the end of a stop (its ladder, a failed check, a stopped shepherd), and
 * every one of those leaves the child {@code STOPPING}; a SIGKILL seen otherwise came
 * from someone else: most often the kernel's OOM killer, which is taken as the sender
 * when the kernel counted an OOM kill ({@code oom_kill} of {@code /proc/vmstat}) while
 * the process lived. That count is the host's, so another process's OOM kill meanwhile
 * reads the same: hence "most likely". Used under the supervisor's lock.
 */
final class KillCauses {

	// Why weak keys: a process that never exits through here (adopted, abandoned) is
	// forgotten with its child.
	private final Map<ChildProcess, Long> oomKillsAtStart = new WeakHashMap<>();

	/** The OOM kills counted so far, to be given to {@link #started}. */
	OptionalLong oomKillsNow() {
		return ThisProcess.oomKills();
	}

	/**
	 * Remembers the OOM kills counted when {@code process} had just started.
	 * @param oomKills a reading of {@link #oomKillsNow()} taken then (one serves a whole
	 * window of spawns)
	 */
	void started(ChildProcess process, OptionalLong oomKills) {
		oomKills.ifPresent((count) -> this.oomKillsAtStart.put(process, count));
	}

	/** {@code status}, with who sent its SIGKILL when that was not Tether. */
	ExitStatus explain(SupervisedChild child, ChildProcess process, ExitStatus status) {
		Long atStart = this.oomKillsAtStart.remove(process);
		Integer signal = status.signal();
		if (signal == null || signal != 9 || child.state() == ChildState.STOPPING) {
			return status;
		}
		OptionalLong now = ThisProcess.oomKills();
		boolean oomKill = atStart != null && now.isPresent() && now.getAsLong() > atStart;
		return status.withKiller(oomKill ? ExitStatus.OOM_KILLER : ExitStatus.OTHER);
	}

}
