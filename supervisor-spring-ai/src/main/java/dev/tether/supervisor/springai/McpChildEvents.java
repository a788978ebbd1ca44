package dev.tether.supervisor.springai;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.SupervisorListener;

/**
 * Wakes an MCP server's transport at each event of its child, so that a call waiting for
 * the supervisor to see the server's process end fails as soon as the exit is seen, not
 * at the next tick (up to {@code tick-interval} later).
 * <p>
 * Why the transports handed over later, not the MCP children as a bean: the supervisor
 * takes its listeners when it is made, and the MCP children are made from the supervisor.
 */
final class McpChildEvents implements SupervisorListener {

	private volatile @Nullable Map<String, ChildTransport> transports;

	void attach(Map<String, ChildTransport> transports) {
		this.transports = Map.copyOf(transports);
	}

	@Override
	public void onEvent(ChildEvent event) {
		Map<String, ChildTransport> attached = this.transports;
		ChildTransport transport = (attached != null) ? attached.get(event.child().name()) : null;
		if (transport != null) {
			transport.changed();
		}
	}

}
