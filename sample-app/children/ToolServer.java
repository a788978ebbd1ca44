import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for an MCP server: it answers JSON-RPC "tools/list" on http://127.0.0.1:<port>/mcp.
 * Run with the JDK's launcher: java ToolServer.java <port>
 */
public class ToolServer {

	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(args[0]);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		server.createContext("/mcp", (exchange) -> {
			byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"echo\","
					+ "\"description\":\"Echoes its input\"}]}}").getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		System.out.println("tools: listening on 127.0.0.1:" + port + " as pid " + ProcessHandle.current().pid());
	}

}
