package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import sun.misc.Signal;

/**
 * A process that listens on a port and accepts connections until it is killed.
 * <ul>
 * <li>{@code Listen <port>}: a child that must listen on a port it is told.</li>
 * <li>{@code Listen --record <file>}: a listening {@link Canary}: it binds a port the
 * kernel picks, handles every signal the JVM lets it handle by appending its name to the
 * file, and writes {@code READY <pid> <port>} there.</li>
 * </ul>
 */
public final class Listen {

	// Why these: the signals a JVM lets an application handle; the others (QUIT, USR1,
	// SEGV, ...) are the VM's own.
	private static final List<String> HANDLED = List.of("HUP", "INT", "TERM", "USR2", "ALRM", "CONT", "TSTP", "TTIN",
			"TTOU", "WINCH", "PWR", "URG", "PIPE", "XCPU", "XFSZ", "VTALRM", "PROF", "IO", "SYS", "TRAP", "ABRT");

	private Listen() {
	}

	public static void main(String[] args) throws Exception {
		Path record = args[0].equals("--record") ? Path.of(args[1]) : null;
		int port = (record != null) ? 0 : Integer.parseInt(args[0]);
		try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
			if (record != null) {
				for (String name : HANDLED) {
					try {
						Signal.handle(new Signal(name), (signal) -> append(record, name));
					}
					catch (IllegalArgumentException ex) {
						// Reserved by this VM: not observable from here.
					}
				}
				append(record, "READY " + ProcessHandle.current().pid() + " " + server.getLocalPort());
			}
			while (true) {
				try (Socket socket = server.accept()) {
					socket.getOutputStream().write('\n');
				}
			}
		}
	}

	private static void append(Path record, String line) {
		try {
			Files.writeString(record, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The command of a child that listens on {@code port}. */
	public static List<String> command(int port) {
		return JavaCommand.main(Listen.class, Integer.toString(port));
	}

	/** The command of a listening canary recording into {@code record}. */
	static List<String> recordingCommand(Path record) {
		return JavaCommand.main(Listen.class, "--record", record.toString());
	}

	/** Whether something accepts a connection on 127.0.0.1:{@code port} now. */
	public static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * A port nothing listens on at this moment. Only for a test that needs a port before
	 * anything may listen on it; wherever a process can bind port 0 and report its port,
	 * let it.
	 */
	public static int unusedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
