package dev.tether.supervisor.internal.supervision;

/**
 * Why a child's start was refused although nothing is wrong with the child itself: the
 * application had no room for it. Such a child is {@code FAILED} and started again when
 * room frees up, never in a loop.
 */
enum Refusal {

	/**
	 * Starting it would have cut into the descriptor reserve; retried once descriptors
	 * are counted free.
	 */
	DESCRIPTORS,

	/**
	 * The kernel made no process (a limit that counts processes is reached); retried once
	 * for each process of this supervisor that ends.
	 */
	PROCESSES

}
