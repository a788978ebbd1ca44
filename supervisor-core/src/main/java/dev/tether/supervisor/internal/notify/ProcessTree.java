package dev.tether.supervisor.internal.notify;

import java.util.Optional;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.ProcStat;

/**
 * Whether a sender is a process of a child's tree: the child's process itself (its
 * command, or its shepherd), or a descendant, found by walking the sender's parents in
 * {@code /proc}; without a shepherd, also any process of the command's group (a
 * descendant that was re-parented when its parent ended). Why no more: a datagram's
 * credentials name its sender's pid, and only a process of the tree is the child.
 */
final class ProcessTree {

	// Why a bound: a parent chain is as deep as the tree, and a loop in a racing read of
	// /proc must not spin.
	private static final int MAX_DEPTH = 1024;

	private final IdentityProbe probe;

	ProcessTree(IdentityProbe probe) {
		this.probe = probe;
	}

	/**
	 * Whether {@code sender} is {@code root} or below it.
	 * @param root the child's process: its command's pid, which is its group, or its
	 * shepherd's
	 * @param shepherd whether {@code root} is a shepherd, which keeps every descendant
	 * below itself
	 */
	boolean contains(long root, boolean shepherd, long sender) {
		long pid = sender;
		for (int depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
			if (pid == root) {
				return true;
			}
			Optional<ProcStat> stat = this.probe.stat(pid);
			if (stat.isEmpty()) {
				return false;
			}
			if (!shepherd && stat.get().pgrp() == root) {
				return true;
			}
			pid = stat.get().ppid();
		}
		return false;
	}

}
