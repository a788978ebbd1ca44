package dev.tether.supervisor.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Assumptions;

/**
 * A TCP listener on 127.0.0.1 in Python ({@code /usr/bin/python3 -c}), as a squatter on a
 * child's port or as a child itself. {@link Mode#ACCEPT} accepts and closes every
 * connection; {@link Mode#FULL} listens with a backlog of 0 and fills it with a
 * connection of its own, so that the kernel drops every further handshake and a
 * connection to it never completes (unless one comes within the microseconds between its
 * {@code listen} and its own connection); {@link Mode#CLOSE_ON_USR1} stops listening when
 * told. Why {@code /usr/bin/python3}: another user can run it, where a per-user
 * installation is not readable to it.
 */
public final class PythonListener implements AutoCloseable {

	private static final Path PYTHON = Path.of("/usr/bin/python3");

	private static final String SCRIPT = """
			import signal, socket, sys
			port, mode = int(sys.argv[1]), sys.argv[2]
			signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
			server = socket.socket()
			server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
			server.bind(('127.0.0.1', port))
			own = socket.socket()
			server.listen(0 if mode == 'full' else 16)
			if mode == 'full':
			    own.connect(('127.0.0.1', port))
			print('READY', flush=True)
			if mode == 'full':
			    signal.pause()
			if mode == 'close_on_usr1':
			    signal.sigwait({signal.SIGUSR1})
			    server.close()
			    signal.pause()
			while True:
			    server.accept()[0].close()
			""";

	private final Process process;

	private PythonListener(Process process) {
		this.process = process;
	}

	/** Skips the calling test, saying why, where there is no {@code /usr/bin/python3}. */
	public static void assumeAvailable() {
		if (!Files.isExecutable(PYTHON)) {
			System.out.println("Skipped: needs " + PYTHON);
			Assumptions.abort("needs " + PYTHON);
		}
	}

	/** The command of a listener on {@code port}. */
	public static List<String> command(int port, Mode mode) {
		return List.of(PYTHON.toString(), "-c", SCRIPT, Integer.toString(port), mode.name().toLowerCase());
	}

	/**
	 * The command of an HTTP server on {@code port} that answers 200 to {@code GET /}.
	 */
	public static List<String> httpServer(int port) {
		return httpServer("127.0.0.1", port);
	}

	/**
	 * The command of an HTTP server on {@code address} alone ({@code ::1}: IPv6 only),
	 * port {@code port}, that answers 200 to {@code GET /}.
	 */
	public static List<String> httpServer(String address, int port) {
		return List.of(PYTHON.toString(), "-m", "http.server", "--bind", address, Integer.toString(port));
	}

	/**
	 * Starts a listener on {@code port}, its command wrapped by {@code wrapper} (e.g. to
	 * run it as another user), and returns once it listens.
	 */
	public static PythonListener start(int port, Mode mode, UnaryOperator<List<String>> wrapper) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(wrapper.apply(new ArrayList<>(command(port, mode))));
		builder.redirectErrorStream(true);
		Process process = builder.start();
		PythonListener listener = new PythonListener(process);
		try {
			BufferedReader output = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = CompletableFuture.supplyAsync(() -> {
				try {
					return output.readLine();
				}
				catch (IOException ex) {
					return null;
				}
			}).get(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS);
			if (!"READY".equals(line)) {
				throw new IllegalStateException("the listener on port " + port + " did not start: " + line);
			}
			return listener;
		}
		catch (Exception ex) {
			listener.close();
			throw ex;
		}
	}

	public long pid() {
		return this.process.pid();
	}

	/** Its executable's name as {@code /proc/<pid>/stat} gives it. */
	public String executable() {
		return LiveProcesses.stat(pid()).orElseThrow().command();
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(30, TimeUnit.SECONDS);
	}

	/** What the listener does with connections. */
	public enum Mode {

		/** Accepts and closes each. */
		ACCEPT,

		/** Never lets one complete its handshake. */
		FULL,

		/**
		 * Accepts none, and closes its listener, staying alive, once it receives SIGUSR1.
		 */
		CLOSE_ON_USR1

	}

}
