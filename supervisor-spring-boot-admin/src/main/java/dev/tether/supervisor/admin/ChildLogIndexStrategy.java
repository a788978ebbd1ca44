package dev.tether.supervisor.admin;

import java.util.ArrayList;
import java.util.List;

import de.codecentric.boot.admin.server.domain.values.Endpoint;
import de.codecentric.boot.admin.server.domain.values.Endpoints;
import de.codecentric.boot.admin.server.services.ApiMediaTypeHandler;
import de.codecentric.boot.admin.server.services.endpoints.QueryIndexEndpointStrategy;
import de.codecentric.boot.admin.server.web.client.InstanceWebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an instance's actuator index as the server does, and also keeps Tether's
 * {@code childlog} endpoint, whose only link is templated.
 * <p>
 * Why: {@code childlog} has no operation without a child's name, so the index links it as
 * {@code childlog-name} ({@code .../childlog/{name}}, templated), which the server leaves
 * out; its proxy then refuses every request for the endpoint. Kept here under its id with
 * the name's segment removed, the proxy forwards {@code childlog/<name>} to the instance.
 */
class ChildLogIndexStrategy extends QueryIndexEndpointStrategy {

	static final String ENDPOINT_ID = "childlog";

	private static final String LINK = ENDPOINT_ID + "-name";

	private static final String NAME_SEGMENT = "/{name}";

	ChildLogIndexStrategy(InstanceWebClient instanceWebClient) {
		super(instanceWebClient, new ApiMediaTypeHandler());
	}

	// Why a copy of the link: the server's link type is protected in its response type,
	// out of this class's reach.
	private static final JsonMapper LINKS = JsonMapper.builder().build();

	@Override
	protected Mono<Endpoints> convertResponse(Response response) {
		Mono<Endpoints> endpoints = super.convertResponse(response);
		Object childLog = response.getLinks().get(LINK);
		if (childLog == null) {
			return endpoints;
		}
		Link link = LINKS.convertValue(childLog, Link.class);
		if (!link.templated() || !link.href().endsWith(NAME_SEGMENT)) {
			return endpoints;
		}
		String href = link.href().substring(0, link.href().length() - NAME_SEGMENT.length());
		return endpoints.map((detected) -> withChildLog(detected, href));
	}

	private static Endpoints withChildLog(Endpoints detected, String href) {
		if (detected.isPresent(ENDPOINT_ID)) {
			return detected;
		}
		List<Endpoint> all = new ArrayList<>(detected.stream().toList());
		all.add(Endpoint.of(ENDPOINT_ID, href));
		return Endpoints.of(all);
	}

	record Link(String href, boolean templated) {

	}

}
