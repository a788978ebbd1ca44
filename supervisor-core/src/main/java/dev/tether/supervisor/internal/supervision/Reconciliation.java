package dev.tether.supervisor.internal.supervision;

import java.util.Set;
import java.util.function.LongSupplier;

import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.ReconciliationReport;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.registry.ChildRegistry;

/**
 * Settles a previous run into a supervisor's children: the processes they hold now are
 * never taken for orphans, a name may adopt only while its child holds no process, and
 * each adoption becomes its child's process. Launches wait while it runs (see
 * {@link ChildTable#claimLaunches()}). The scan runs outside the supervisor's lock.
 */
final class Reconciliation {

	private final Reconciler reconciler;

	private final ChildTable children;

	private final Owner owner;

	private final ChildRegistry registry;

	private final OrphanPolicy policy;

	private final OrphanStops orphans;

	private final LongSupplier clock;

	Reconciliation(Reconciler reconciler, ChildTable children, Owner owner, ChildRegistry registry, OrphanPolicy policy,
			OrphanStops orphans, LongSupplier clock) {
		this.reconciler = reconciler;
		this.children = children;
		this.owner = owner;
		this.registry = registry;
		this.policy = policy;
		this.orphans = orphans;
		this.clock = clock;
	}

	ReconciliationReport run() {
		Set<Long> ownPids;
		synchronized (this.children) {
			this.children.reconciling(true);
			ownPids = this.children.pids();
		}
		try {
			Reconciler.Result result = this.reconciler.reconcile(this.owner, this.registry.load(), this.policy,
					this::mayAdopt, this.orphans::stopRequest, ownPids);
			synchronized (this.children) {
				for (Reconciler.Adoption adoption : result.adoptions()) {
					this.children.require(adoption.identity().name()).adopt(adoption, this.clock.getAsLong());
				}
			}
			return result.report();
		}
		finally {
			synchronized (this.children) {
				this.children.reconciling(false);
			}
		}
	}

	private boolean mayAdopt(String name) {
		synchronized (this.children) {
			SupervisedChild child = this.children.find(name);
			return child != null && child.process() == null;
		}
	}

}
