package dev.tether.supervisor.testsupport;

import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A Java server on the socket it inherits as its standard input
 * ({@code System.inheritedChannel()}, socket activation with {@code fd: 0}): each
 * connection gets one line, the pid that served it. Exits 2 when its standard input is no
 * listening socket.
 */
public final class InheritedChannelServer {

	private InheritedChannelServer() {
	}

	public static void main(String[] args) throws Exception {
		Channel inherited = System.inheritedChannel();
		if (!(inherited instanceof ServerSocketChannel server)) {
			System.err.println("standard input is no listening socket: " + inherited);
			System.exit(2);
			return;
		}
		byte[] line = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
		while (true) {
			try (SocketChannel connection = server.accept()) {
				connection.write(ByteBuffer.wrap(line));
			}
		}
	}

}
