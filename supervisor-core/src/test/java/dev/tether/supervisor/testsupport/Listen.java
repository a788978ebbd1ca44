package dev.tether.supervisor.testsupport;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A process that listens on a port and accepts connections until it is killed: {@code Listen <port>}.
 */
public final class Listen {

	private Listen() {
	}

	public static void main(String[] args) throws Exception {
		try (ServerSocket server = new ServerSocket(Integer.parseInt(args[0]), 50, InetAddress.getLoopbackAddress())) {
			while (true) {
				try (Socket socket = server.accept()) {
					socket.getOutputStream().write('\n');
				}
			}
		}
	}

	/** The command that runs this class in a new JVM. */
	public static java.util.List<String> command(int port) {
		return JavaCommand.main(Listen.class, Integer.toString(port));
	}

	/** A port that was free a moment ago. */
	public static int freePort() throws java.io.IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
