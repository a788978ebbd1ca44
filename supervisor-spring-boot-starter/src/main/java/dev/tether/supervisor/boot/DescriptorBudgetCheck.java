package dev.tether.supervisor.boot;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.Supervisor;

/**
 * Checks {@code supervisor.descriptor-reserve}, and that the autostarted children fit in
 * the descriptor budget unless {@code supervisor.descriptor-budget} lets startup start
 * what fits.
 */
final class DescriptorBudgetCheck {

	private DescriptorBudgetCheck() {
	}

	static Optional<Long> reserve(SupervisorProperties properties) {
		Long reserve = properties.getDescriptorReserve();
		if (reserve != null && reserve < 0) {
			throw new InvalidSupervisorConfigurationException("supervisor.descriptor-reserve",
					"must not be negative (was " + reserve + ")", null);
		}
		return Optional.ofNullable(reserve);
	}

	/**
	 * Returns the supervisor when its autostarted children fit, or when the policy starts
	 * what fits; otherwise closes it and fails with the numbers.
	 */
	static Supervisor fits(Supervisor supervisor, List<ChildSpec> children, DescriptorBudgetPolicy policy) {
		long autostarted = children.stream().filter(ChildSpec::autostart).count();
		DescriptorUse use = supervisor.descriptors();
		if (policy == DescriptorBudgetPolicy.START_WHAT_FITS || autostarted <= use.room()) {
			return supervisor;
		}
		supervisor.close();
		throw new InvalidSupervisorConfigurationException("supervisor.children",
				String.format(Locale.ROOT,
						"need more descriptors than the application can spare: %,d children to start, but the limit of "
								+ "%,d less the %,d in use and the reserve of %,d leaves room for %,d (at up to %d "
								+ "descriptors each); raise the limit (ulimit -n, LimitNOFILE=), lower "
								+ "supervisor.descriptor-reserve, or set supervisor.descriptor-budget=start-what-fits",
						autostarted, use.limit(), use.used(), use.reserve(), use.room(), use.perChild()),
				null);
	}

}
