package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.reaper.Reaper;

/**
 * One spawn handed to the spawner thread ({@link Spawner#submit}): run there once,
 * awaited by the caller. A child whose caller gave up before it learnt the pid is killed
 * here, as nobody else could ever stop it.
 */
final class SpawnTask implements Runnable, Spawner.Pending {

	private static final Logger logger = LoggerFactory.getLogger(Spawner.class);

	private final String command;

	private final Path executable;

	private final Work work;

	private final Reaper.ExitListener onExit;

	private final Reaper reaper;

	private final CompletableFuture<SpawnedChild> result = new CompletableFuture<>();

	private volatile boolean abandoned;

	/**
	 * @param command the command's first word, for messages
	 * @param work the spawn itself, given where to deliver the child's exit
	 */
	SpawnTask(String command, Path executable, Work work, Reaper.ExitListener onExit, Reaper reaper) {
		this.command = command;
		this.executable = executable;
		this.work = work;
		this.onExit = onExit;
		this.reaper = reaper;
	}

	@Override
	public void run() {
		if (this.result.isCancelled()) {
			return;
		}
		try {
			SpawnedChild child = this.work.spawn(this::deliver);
			if (!this.result.complete(child)) {
				abandon(child);
			}
		}
		catch (Throwable ex) {
			// Why every Throwable: an Error that ended the spawner thread would give each
			// child its parent-death signal and leave the caller waiting for ever; the
			// caller gets it instead, and the thread serves on.
			this.result.completeExceptionally(ex);
		}
	}

	@Override
	public SpawnedChild await() throws SpawnException {
		try {
			return this.result.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			if (!this.result.cancel(false)) {
				abandonIfSpawned();
			}
			throw new SpawnException("interrupted while spawning " + this.command, ex);
		}
		catch (ExecutionException ex) {
			throw failure(ex);
		}
	}

	@Override
	public SpawnedChild awaitUninterruptibly() throws SpawnException {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return this.result.get();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					throw failure(ex);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public void awaitDone() {
		// Why handle: the outcome, a failure too, is for awaitUninterruptibly to give;
		// join waits through interrupts and keeps them.
		this.result.handle((child, failure) -> null).join();
	}

	private SpawnException failure(ExecutionException ex) {
		Throwable cause = ex.getCause();
		if (cause instanceof ForkRefusedException refused) {
			return new ForkRefusedException(refused.getMessage(), refused);
		}
		if (cause instanceof SpawnException spawn) {
			return new SpawnException(spawn.getMessage(), spawn);
		}
		return new SpawnException("spawning " + this.command + " failed: " + cause, cause);
	}

	private void deliver(long pid, ExitStatus status) {
		if (!this.abandoned) {
			this.onExit.onExit(pid, status);
		}
	}

	/**
	 * The caller gave up after the spawn completed: nobody learnt the pid, so the child
	 * is ended here.
	 */
	private void abandonIfSpawned() {
		if (this.result.isDone() && !this.result.isCompletedExceptionally()) {
			abandon(this.result.join());
		}
	}

	private void abandon(SpawnedChild child) {
		// Why: the caller went away before it could learn the pid, so nobody would ever
		// stop this child.
		this.abandoned = true;
		logger.warn("Spawn of {} was abandoned by its caller; killing pid {}", this.executable, child.pid());
		if (child.handle() != null) {
			child.handle().destroyForcibly();
			return;
		}
		this.reaper.signalGroupUnreaped(child.pid(), Posix.SIGKILL);
		this.reaper.drain();
	}

	/** The spawn itself, run on the spawner thread. */
	@FunctionalInterface
	interface Work {

		SpawnedChild spawn(Reaper.ExitListener onExit) throws SpawnException;

	}

}
