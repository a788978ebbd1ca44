package dev.tether.benchmarks;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The MCP server of the MCP rows, on the MCP Java SDK over stdio, with the tools
 * {@code echo}, {@code pid} (its process id, so that a row can kill it by pid) and
 * {@code close-stdout} (closes its stdout a moment after its answer, runs on, and writes
 * the {@link System#nanoTime()} of the close to the file named by its argument
 * {@code file}: the JVMs of one machine share that clock, {@code CLOCK_MONOTONIC}). Both
 * transports measured run this same server.
 */
public final class McpBenchServer {

	private McpBenchServer() {
	}

	public static void main(String[] args) throws Exception {
		// Why: stdout is the MCP channel; anything a library prints there goes to stderr
		// instead.
		PrintStream channel = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
		System.setOut(System.err);
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				new FileInputStream(FileDescriptor.in), channel);
		SyncToolSpecification echo = tool("echo", (arguments) -> String.valueOf(arguments.get("text")));
		SyncToolSpecification pid = tool("pid", (arguments) -> Long.toString(ProcessHandle.current().pid()));
		SyncToolSpecification closeStdout = tool("close-stdout", (arguments) -> {
			Path file = Path.of(String.valueOf(arguments.get("file")));
			Thread closer = new Thread(() -> closeAfterAnswer(channel, file), "close-stdout");
			closer.setDaemon(true);
			closer.start();
			return "closing";
		});
		McpServer.sync(transport).serverInfo("bench", "1.0").tools(echo, pid, closeStdout).build();
		new CountDownLatch(1).await();
	}

	private static SyncToolSpecification tool(String name, Function<Map<String, Object>, String> answer) {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name(name)
				.description(name)
				.inputSchema(Map.of("type", "object", "properties",
						Map.of("text", Map.of("type", "string"), "file", Map.of("type", "string"))))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent(answer.apply(request.arguments()))
				.build())
			.build();
	}

	/**
	 * Closes stdout once the answer that asked for it is out, then says when. Why a
	 * pause: the answer is sent after the handler returns; the client is idle by the end
	 * of it. The JDK does not release descriptor 1 on close but points it at
	 * {@code /dev/null}: the pipe's write end is released all the same, as by a server
	 * that closes its stdout.
	 */
	private static void closeAfterAnswer(PrintStream channel, Path file) {
		try {
			Thread.sleep(200);
			channel.close();
			long closed = System.nanoTime();
			Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), Long.toString(closed));
			Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (Exception ex) {
			ex.printStackTrace();
		}
	}

}
