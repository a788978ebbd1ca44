package dev.tether.sample.mcp;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools of the supervised MCP servers, through Spring AI's
 * {@link ToolCallbackProvider}: {@code GET /tools} lists them, {@code POST /tools/{name}}
 * (a JSON object of arguments as body) calls one.
 */
@RestController
class ToolsController {

	private final ToolCallbackProvider tools;

	private final JsonMapper json = JsonMapper.builder().build();

	ToolsController(ToolCallbackProvider tools) {
		this.tools = tools;
	}

	@GetMapping("/tools")
	List<Map<String, Object>> list() {
		return Arrays.stream(this.tools.getToolCallbacks())
			.map(ToolCallback::getToolDefinition)
			.map(this::describe)
			.toList();
	}

	@PostMapping("/tools/{name}")
	Map<String, Object> call(@PathVariable String name, @RequestBody(required = false) Map<String, Object> arguments) {
		ToolCallback tool = Arrays.stream(this.tools.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().equals(name))
			.findFirst()
			.orElseThrow(
					() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no tool '" + name + "' (GET /tools)"));
		String input = this.json.writeValueAsString((arguments != null) ? arguments : Map.of());
		return Map.of("tool", name, "result", tool.call(input));
	}

	private Map<String, Object> describe(ToolDefinition definition) {
		return Map.of("name", definition.name(), "description", definition.description(), "inputSchema",
				this.json.readTree(definition.inputSchema()));
	}

}
