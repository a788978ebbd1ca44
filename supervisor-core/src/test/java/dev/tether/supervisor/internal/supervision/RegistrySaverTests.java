package dev.tether.supervisor.internal.supervision;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;

import static org.assertj.core.api.Assertions.assertThat;

class RegistrySaverTests {

	@Test
	void failureWithoutAMessageIsStillAProblemAndIsRetriedUntilSaved() {
		FlakyRegistry registry = new FlakyRegistry();
		RegistrySaver saver = new RegistrySaver(registry, List::of);
		saver.changed();
		saver.saveIfChanged();
		assertThat(saver.problem()).hasValue("java.lang.IllegalStateException");
		registry.failing = false;
		saver.saveIfChanged();
		assertThat(saver.problem()).isEmpty();
		assertThat(registry.saves).hasSize(1);
		saver.saveIfChanged();
		assertThat(registry.saves).as("nothing changed since the last save").hasSize(1);
	}

	/**
	 * A registry whose saves fail with an exception that carries no message, until told
	 * otherwise.
	 */
	private static final class FlakyRegistry implements ChildRegistry {

		private final List<List<RegistryRow>> saves = new ArrayList<>();

		private boolean failing = true;

		@Override
		public String instanceId() {
			return "flaky";
		}

		@Override
		public List<RegistryRow> load() {
			return List.of();
		}

		@Override
		public void save(List<RegistryRow> rows) {
			if (this.failing) {
				throw new IllegalStateException();
			}
			this.saves.add(rows);
		}

		@Override
		public void close() {
		}

	}

}
