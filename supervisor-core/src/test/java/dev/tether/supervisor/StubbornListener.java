package dev.tether.supervisor;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

import sun.misc.Signal;

import dev.tether.supervisor.testsupport.JavaCommand;

/**
 * A process that listens on a port and ignores SIGTERM, so that only SIGKILL ends it:
 * {@code StubbornListener <port>}.
 */
public final class StubbornListener {

	private StubbornListener() {
	}

	public static void main(String[] args) throws Exception {
		Signal.handle(new Signal("TERM"), (signal) -> {
		});
		try (ServerSocket server = new ServerSocket(Integer.parseInt(args[0]), 50, InetAddress.getLoopbackAddress())) {
			while (true) {
				try (Socket socket = server.accept()) {
					socket.getOutputStream().write('\n');
				}
			}
		}
	}

	static List<String> command(int port) {
		return JavaCommand.main(StubbornListener.class, Integer.toString(port));
	}

}
