package dev.tether.supervisor.boot.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import dev.tether.supervisor.boot.actuate.ChildrenEndpoint.ChildDescriptor;

/**
 * Over HTTP, an action on an unknown child answers 404 (not an empty 204).
 */
@EndpointWebExtension(endpoint = ChildrenEndpoint.class)
public class ChildrenWebEndpointExtension {

	private final ChildrenEndpoint endpoint;

	public ChildrenWebEndpointExtension(ChildrenEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	@WriteOperation
	public WebEndpointResponse<ChildDescriptor> control(@Selector String name, @Nullable String action) {
		ChildDescriptor child = this.endpoint.control(name, action);
		return (child != null) ? new WebEndpointResponse<>(child)
				: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
