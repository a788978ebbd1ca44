package dev.tether.supervisor.registry;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;

/**
 * Reads {@code registry.json} token by token. Why not data binding: its first use in a
 * JVM introspects the row type and builds deserializers, and reconciliation reads the
 * file once, at startup, in a cold JVM; reading the tokens about halves the load of 1,000
 * rows (see docs/benchmarks.md). Unknown properties are skipped (a newer writer may add
 * some); anything else that is not a registry of this version is an error, so the file is
 * moved aside. The row's nullness is kept: {@code startTime}, {@code bootId},
 * {@code spawnedAt} and {@code port} may be null.
 */
final class RegistryFileReader {

	private RegistryFileReader() {
	}

	/**
	 * The rows of a registry of this version.
	 * @throws JacksonException when the content is not well-formed JSON, or not a
	 * registry of this version (another version, a row without one of its required
	 * properties, a value of the wrong type, a malformed time)
	 */
	static List<RegistryRow> read(JsonParser parser, int version) {
		expect(parser, parser.nextToken() == JsonToken.START_OBJECT, "a registry is an object");
		Long foundVersion = null;
		List<RegistryRow> rows = null;
		String property;
		while ((property = parser.nextName()) != null) {
			parser.nextToken();
			switch (property) {
				case "version" -> foundVersion = integer(parser);
				case "rows" -> rows = rows(parser);
				default -> parser.skipChildren();
			}
		}
		expect(parser, parser.nextToken() == null, "nothing may follow the registry");
		expect(parser, foundVersion != null && foundVersion == version,
				"version " + foundVersion + " is not " + version);
		expect(parser, rows != null, "rows are missing");
		return rows;
	}

	private static List<RegistryRow> rows(JsonParser parser) {
		expect(parser, parser.currentToken() == JsonToken.START_ARRAY, "rows are an array");
		List<RegistryRow> rows = new ArrayList<>();
		while (parser.nextToken() != JsonToken.END_ARRAY) {
			expect(parser, parser.currentToken() == JsonToken.START_OBJECT, "a row is an object");
			rows.add(row(parser));
		}
		return rows;
	}

	private static RegistryRow row(JsonParser parser) {
		String name = null;
		String kind = null;
		String installationId = null;
		Long pid = null;
		Long pgid = null;
		Long startTime = null;
		String bootId = null;
		String state = null;
		Instant spawnedAt = null;
		Long restarts = null;
		Long port = null;
		String property;
		while ((property = parser.nextName()) != null) {
			parser.nextToken();
			switch (property) {
				case "name" -> name = text(parser);
				case "kind" -> kind = text(parser);
				case "installationId" -> installationId = text(parser);
				case "pid" -> pid = integer(parser);
				case "pgid" -> pgid = integer(parser);
				case "startTime" -> startTime = integer(parser);
				case "bootId" -> bootId = text(parser);
				case "state" -> state = text(parser);
				case "spawnedAt" -> spawnedAt = instant(parser);
				case "restarts" -> restarts = integer(parser);
				case "port" -> port = integer(parser);
				default -> parser.skipChildren();
			}
		}
		expect(parser,
				name != null && kind != null && installationId != null && state != null && pid != null && pgid != null
						&& restarts != null,
				"a row needs its name, kind, installationId, state, pid, pgid and restarts");
		expect(parser, fitsInt(restarts) && (port == null || fitsInt(port)), "restarts and port fit an int");
		return new RegistryRow(name, kind, installationId, pid, pgid, startTime, bootId, state, spawnedAt,
				restarts.intValue(), (port != null) ? port.intValue() : null);
	}

	private static boolean fitsInt(long value) {
		return value == (int) value;
	}

	private static @Nullable String text(JsonParser parser) {
		JsonToken token = parser.currentToken();
		expect(parser, token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_NULL,
				parser.currentName() + " is text");
		return (token == JsonToken.VALUE_NULL) ? null : parser.getString();
	}

	private static @Nullable Long integer(JsonParser parser) {
		JsonToken token = parser.currentToken();
		expect(parser, token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NULL,
				parser.currentName() + " is a whole number");
		return (token == JsonToken.VALUE_NULL) ? null : parser.getLongValue();
	}

	private static @Nullable Instant instant(JsonParser parser) {
		String text = text(parser);
		try {
			return (text != null) ? Instant.parse(text) : null;
		}
		catch (DateTimeException ex) {
			throw new StreamReadException(parser, parser.currentName() + " is not an instant", ex);
		}
	}

	private static void expect(JsonParser parser, boolean condition, String what) {
		if (!condition) {
			throw new StreamReadException(parser, "not a registry: " + what);
		}
	}

}
