package dev.tether.supervisor.internal.supervision;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;

/**
 * Writes the registry when something changed, once per batch of changes rather than once
 * per child. A failed save (a full disk) is said once, kept as the {@link #problem()} the
 * health shows, retried on the next tick, and its recovery is said once too.
 * <p>
 * Why a lock of its own: two savers racing could write an older set of rows after a newer
 * one; rows are taken and written under this lock. The rows are taken under the
 * supervisor's lock too, inside this one (never the reverse order); the file is written
 * outside the supervisor's.
 */
final class RegistrySaver {

	private static final Logger logger = LoggerFactory.getLogger(RegistrySaver.class);

	private final ChildRegistry registry;

	private final Supplier<List<RegistryRow>> rows;

	private final AtomicBoolean dirty = new AtomicBoolean();

	private final Object saveLock = new Object();

	private volatile @Nullable String problem;

	/**
	 * @param rows the rows to save, taken under the supervisor's lock
	 */
	RegistrySaver(ChildRegistry registry, Supplier<List<RegistryRow>> rows) {
		this.registry = registry;
		this.rows = rows;
	}

	/** Something that the registry records changed. */
	void changed() {
		this.dirty.set(true);
	}

	/** Saves the rows if anything changed since the last successful save. */
	void saveIfChanged() {
		synchronized (this.saveLock) {
			if (!this.dirty.getAndSet(false)) {
				return;
			}
			try {
				this.registry.save(this.rows.get());
			}
			catch (RuntimeException ex) {
				this.dirty.set(true);
				// Why not getMessage() alone: an exception without one would read as no
				// problem, and be logged again at every tick.
				String reason = (ex.getMessage() != null) ? ex.getMessage() : ex.toString();
				if (this.problem == null) {
					logger.error("Registry could not be saved: {}; retrying at every tick", reason);
				}
				this.problem = reason;
				return;
			}
			if (this.problem != null) {
				logger.info("Registry is saved again");
				this.problem = null;
			}
		}
	}

	/** Why the last save failed, while saving fails. */
	Optional<String> problem() {
		return Optional.ofNullable(this.problem);
	}

}
