package dev.tether.supervisor.testsupport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import com.sun.net.httpserver.HttpServer;

/**
 * An HTTP server for probes.
 * <ul>
 * <li>{@code HttpHealth <port> <file>}: every path answers 200 while {@code <file>} does
 * not exist, 500 once it does.</li>
 * <li>{@code HttpHealth <port> --hang}: the port accepts connections (the kernel's
 * backlog) but nothing is ever read or answered.</li>
 * </ul>
 */
public final class HttpHealth {

	private HttpHealth() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		if (args[1].equals("--hang")) {
			try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
				new CountDownLatch(1).await();
			}
			return;
		}
		Path failing = Path.of(args[1]);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
		server.createContext("/", (exchange) -> {
			int status = Files.exists(failing) ? 500 : 200;
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		server.start();
	}

	/** The command of a server on {@code port} that fails once {@code failing} exists. */
	public static List<String> command(int port, Path failing) {
		return JavaCommand.main(HttpHealth.class, Integer.toString(port), failing.toString());
	}

	/**
	 * The command of a server on {@code port} that accepts connections and never answers.
	 */
	public static List<String> hanging(int port) {
		return JavaCommand.main(HttpHealth.class, Integer.toString(port), "--hang");
	}

}
