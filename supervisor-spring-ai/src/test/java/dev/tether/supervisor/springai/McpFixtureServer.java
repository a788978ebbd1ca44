package dev.tether.supervisor.springai;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * An MCP server over stdio with two tools, {@code echo} and {@code pid}, built on the MCP
 * Java SDK. Like the servers behind the orphan reports it never exits on its own: a
 * periodic timer keeps it alive after its stdin closes. Given a file, it offers a third
 * tool named by that file's content as it starts, which answers its own name: a file
 * changed before a restart is a new version of the server, with a renamed tool. Given
 * {@value #ADDS_TOOLS}, it also offers {@code add_tool}, whose call adds a tool named by
 * its {@code name} argument while the server runs, announced with
 * {@code notifications/tools/list_changed}.
 */
public final class McpFixtureServer {

	/** The argument that makes the server offer {@code add_tool}. */
	static final String ADDS_TOOLS = "--adds-tools";

	private McpFixtureServer() {
	}

	public static void main(String[] args) throws Exception {
		// Why: stdout is the MCP channel; anything a library prints there (a logger's
		// console) goes to stderr.
		PrintStream channel = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
		System.setOut(System.err);
		ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
		timer.scheduleAtFixedRate(() -> System.err.println("fixture alive"), 1, 1, TimeUnit.SECONDS);
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				new FileInputStream(FileDescriptor.in), channel);
		List<SyncToolSpecification> tools = new ArrayList<>(List.of(echo(), pid()));
		List<String> arguments = new ArrayList<>(List.of(args));
		boolean addsTools = arguments.remove(ADDS_TOOLS);
		if (!arguments.isEmpty()) {
			tools.add(named(Files.readString(Path.of(arguments.get(0))).strip()));
		}
		AtomicReference<McpSyncServer> server = new AtomicReference<>();
		// Why immediate execution: the SDK's stdio server transport takes one message
		// at a time into its outbound queue; handlers run on other threads (its
		// default) may hand it two at once, and one reply is then held back until the
		// next message, or lost. Here every handler runs on the thread that reads stdin.
		McpServer.SyncSpecification<?> spec = McpServer.sync(transport)
			.immediateExecution(true)
			.serverInfo("fixture", "1.0");
		if (addsTools) {
			tools.add(addTool(server));
			// Why listChanged: with it, the SDK's addTool announces the new tool to
			// the client.
			spec.capabilities(McpSchema.ServerCapabilities.builder().tools(true).build());
		}
		server.set(spec.tools(tools).build());
		System.err.println("fixture ready");
		new CountDownLatch(1).await();
	}

	static SyncToolSpecification echo() {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("echo")
				.description("Returns its text")
				.inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent("echo: " + request.arguments().get("text"))
				.build())
			.build();
	}

	static SyncToolSpecification named(String name) {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name(name)
				.description("Returns its name")
				.inputSchema(Map.of("type", "object", "properties", Map.of()))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder().addTextContent(name).build())
			.build();
	}

	static SyncToolSpecification addTool(AtomicReference<McpSyncServer> server) {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("add_tool")
				.description("Adds a tool that returns its name")
				.inputSchema(Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string"))))
				.build())
			.callHandler((exchange, request) -> {
				String name = String.valueOf(request.arguments().get("name"));
				server.get().addTool(named(name));
				return McpSchema.CallToolResult.builder().addTextContent("added: " + name).build();
			})
			.build();
	}

	static SyncToolSpecification pid() {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("pid")
				.description("Returns the server's pid")
				.inputSchema(Map.of("type", "object", "properties", Map.of()))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent(Long.toString(ProcessHandle.current().pid()))
				.build())
			.build();
	}

}
