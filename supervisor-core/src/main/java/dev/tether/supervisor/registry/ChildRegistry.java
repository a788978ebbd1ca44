package dev.tether.supervisor.registry;

import java.util.List;

/**
 * Where the supervisor records its live children, so that a later run can find (and end)
 * what a crash left behind. The default is {@link FileChildRegistry}; a JDBC store can
 * implement the same contract.
 */
public interface ChildRegistry extends AutoCloseable {

	/**
	 * The id of the supervisor instance this store belongs to: created with the store and
	 * the same for every run that uses it. Children carry it, so that only this
	 * instance's processes are ever recognised as its own.
	 */
	String instanceId();

	/** The rows last saved (empty when none, or when the store had to be recovered). */
	List<RegistryRow> load();

	/** Replaces every row, durably. */
	void save(List<RegistryRow> rows);

	/** Releases the store (and its lock). */
	@Override
	void close();

}
