package dev.tether.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A port the kernel gives for the sample's HTTP MCP server ({@code tools}), so that a
 * test context runs next to a started sample, and next to the other test contexts Spring
 * keeps, without sharing the machine's port 18765.
 */
final class FreeToolsPort {

	private FreeToolsPort() {
	}

	static void register(DynamicPropertyRegistry registry) {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			int port = socket.getLocalPort();
			registry.add("supervisor.children.tools.port", () -> port);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
