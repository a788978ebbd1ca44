package dev.tether.supervisor.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The actuator of an application that runs in a JVM of its own
 * ({@link DescriptorLimitApp}), over HTTP: JSON read, a child started or stopped through
 * the children endpoint, the children in a state of the {@code supervisor} health.
 */
final class Actuator {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	private final URI base;

	Actuator(String port) {
		this.base = URI.create("http://localhost:" + port + "/actuator/");
	}

	/** The JSON of an endpoint, such as {@code health/supervisor} or {@code children}. */
	JsonNode get(String path) throws Exception {
		return this.json.readTree(this.http
			.send(HttpRequest.newBuilder(this.base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString())
			.body());
	}

	/**
	 * The first measurement of a meter (a counter's count, a timer's count), such as
	 * {@code supervisor.spawn?tag=outcome:failure}.
	 */
	long measurement(String meter) throws Exception {
		return get("metrics/" + meter).path("measurements").path(0).path("value").asLong();
	}

	/** Sends {@code action} ({@code start}, {@code stop}) to a child; the HTTP status. */
	int control(String child, String action) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(this.base.resolve("children/" + child))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"" + action + "\"}"))
				.build(), HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	/** The children of the {@code supervisor} health that are in {@code state}. */
	static List<String> names(JsonNode health, String state) {
		return health.path("components")
			.properties()
			.stream()
			.filter((child) -> child.getValue().path("details").path("state").asString().equals(state))
			.map(Map.Entry::getKey)
			.toList();
	}

	/** A log file's content so far; empty before it exists. */
	static String read(Path file) {
		try {
			return Files.exists(file) ? Files.readString(file) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
