package dev.tether.supervisor.testsupport;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;

/**
 * A real registry whose saves fail while {@link #failing} is set (as on a full disk,
 * which a test cannot make portably) and which counts how often it is closed.
 */
public final class ObservedRegistry implements ChildRegistry {

	private final ChildRegistry delegate;

	private final AtomicInteger closes = new AtomicInteger();

	private volatile boolean failing;

	public ObservedRegistry(ChildRegistry delegate) {
		this.delegate = delegate;
	}

	/**
	 * Makes every save fail with "No space left on device" until called with
	 * {@code false}.
	 */
	public void failSaves(boolean failing) {
		this.failing = failing;
	}

	/** How often it was closed. */
	public int closes() {
		return this.closes.get();
	}

	@Override
	public String instanceId() {
		return this.delegate.instanceId();
	}

	@Override
	public List<RegistryRow> load() {
		return this.delegate.load();
	}

	@Override
	public void save(List<RegistryRow> rows) {
		if (this.failing) {
			throw new IllegalStateException("No space left on device");
		}
		this.delegate.save(rows);
	}

	@Override
	public void close() {
		this.closes.incrementAndGet();
		this.delegate.close();
	}

}
