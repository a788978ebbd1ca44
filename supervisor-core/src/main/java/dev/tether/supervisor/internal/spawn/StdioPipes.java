package dev.tether.supervisor.internal.spawn;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildStdio;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.os.NativeSpawnException;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.internal.output.OutputPump;

/**
 * The JVM's ends of a process's stdin and stdout, for a child that talks over them (an
 * MCP stdio server). Its stderr is not here: it goes to the child's output sinks.
 * <p>
 * Why channels: a blocked read of a {@link FileChannel} ends when the channel is closed
 * from another thread, so the one thread that reads a child's stdout is never left
 * behind. Why no thread here: the reader is whoever talks to the child; the pipes are
 * blocking, so it reads in order and nothing is dropped.
 */
public final class StdioPipes implements ChildStdio {

	private final OutputStream stdin;

	private final InputStream stdout;

	private StdioPipes(OutputStream stdin, InputStream stdout) {
		this.stdin = stdin;
		this.stdout = stdout;
	}

	/** The JDK's pipes of a process started by {@link ProcessBuilder}. */
	static StdioPipes of(Process process) {
		return new StdioPipes(process.getOutputStream(), process.getInputStream());
	}

	/**
	 * A {@link ProcessBuilder}'s process talks over the JDK's pipes; its stderr alone is
	 * appended to its log.
	 */
	static void redirect(ProcessBuilder builder, Path logFile) {
		builder.redirectErrorStream(false)
			.redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
			.redirectOutput(ProcessBuilder.Redirect.PIPE)
			.redirectInput(ProcessBuilder.Redirect.PIPE);
	}

	/** What the process reads as its stdin. */
	@Override
	public OutputStream stdin() {
		return this.stdin;
	}

	/** What the process writes to its stdout. */
	@Override
	public InputStream stdout() {
		return this.stdout;
	}

	/**
	 * Closes both ends: the process reads end of file, and a read blocked on its stdout
	 * ends.
	 */
	@Override
	public void close() {
		closeQuietly(this.stdin);
		closeQuietly(this.stdout);
	}

	private static void closeQuietly(Closeable closeable) {
		try {
			closeable.close();
		}
		catch (IOException ex) {
			// Why ignored: a pipe whose reader is gone fails its last flush; the
			// descriptor is released regardless.
		}
	}

	/**
	 * The two pipes of a native spawn, made before it: the child's ends go to the spawn,
	 * the JVM's are opened as channels at once (through {@code /proc/self/fd}, which
	 * gives each a blocking description of its own), so that nothing can fail after the
	 * child exists.
	 */
	static final class Ends {

		private final Posix posix = Posix.get();

		private final int[] stdin;

		private final int[] stdout;

		private final List<Closeable> opened = new ArrayList<>(2);

		private @Nullable StdioPipes pipes;

		private Ends(int[] stdin, int[] stdout) {
			this.stdin = stdin;
			this.stdout = stdout;
		}

		static Ends open() throws SpawnException {
			Posix posix = Posix.get();
			int[] stdin;
			int[] stdout;
			try {
				stdin = posix.blockingPipe();
			}
			catch (NativeSpawnException ex) {
				throw new SpawnException("cannot open the stdin pipe: " + ex.getMessage(), ex);
			}
			try {
				stdout = posix.blockingPipe();
			}
			catch (NativeSpawnException ex) {
				posix.close(stdin[0]);
				posix.close(stdin[1]);
				throw new SpawnException("cannot open the stdout pipe: " + ex.getMessage(), ex);
			}
			Ends ends = new Ends(stdin, stdout);
			try {
				// Why while both ends are ours: opening a pipe through /proc waits for
				// the other end otherwise.
				FileChannel in = ends.channel(stdin[1], StandardOpenOption.WRITE);
				FileChannel out = ends.channel(stdout[0], StandardOpenOption.READ);
				ends.pipes = new StdioPipes(Channels.newOutputStream(in), Channels.newInputStream(unseekable(out)));
				return ends;
			}
			catch (IOException | RuntimeException ex) {
				ends.discard();
				throw new SpawnException("cannot open the stdio pipes: " + ex.getMessage(), ex);
			}
		}

		/**
		 * Why not the channel itself: a stream over a seekable channel answers
		 * {@code available()} from its size and position, and a pipe has no position:
		 * each line a reader decodes would cost a failed {@code lseek} and its exception.
		 */
		private static ReadableByteChannel unseekable(FileChannel pipe) {
			return new ReadableByteChannel() {

				@Override
				public int read(ByteBuffer destination) throws IOException {
					return pipe.read(destination);
				}

				@Override
				public boolean isOpen() {
					return pipe.isOpen();
				}

				@Override
				public void close() throws IOException {
					pipe.close();
				}

			};
		}

		private FileChannel channel(int fd, StandardOpenOption option) throws IOException {
			FileChannel channel = FileChannel.open(Path.of("/proc/self/fd/" + fd), option);
			this.opened.add(channel);
			return channel;
		}

		/**
		 * The read ends a shepherd holds (see {@code tether-shepherd.c}): a stdio child's
		 * stdout first, then its captured output's.
		 */
		static List<Integer> held(@Nullable Ends stdio, OutputPump.@Nullable Pipes pipes) {
			List<Integer> held = new ArrayList<>(2);
			if (stdio != null) {
				held.add(stdio.stdout[0]);
			}
			if (pipes != null) {
				held.addAll(pipes.readEnds());
			}
			return held;
		}

		/**
		 * A child's descriptors: a stdio child reads and writes these pipes, and only its
		 * stderr is captured.
		 */
		static PosixSpawn.Output output(@Nullable Ends stdio, OutputPump.Pipes pipes, List<Integer> held) {
			return (stdio != null)
					? new PosixSpawn.Output.Descriptors(stdio.stdout[1], pipes.stderrWriteEnd(), held, stdio.stdin[0])
					: new PosixSpawn.Output.Descriptors(pipes.stdoutWriteEnd(), pipes.stderrWriteEnd(), held);
		}

		/**
		 * After the spawn: the JVM keeps only its channels, so each pipe ends with its
		 * last user.
		 */
		StdioPipes spawned() {
			closeDescriptors();
			return Objects.requireNonNull(this.pipes);
		}

		/** After a failed spawn: closes everything. */
		void discard() {
			closeDescriptors();
			this.opened.forEach(StdioPipes::closeQuietly);
		}

		private void closeDescriptors() {
			this.posix.close(this.stdin[0]);
			this.posix.close(this.stdin[1]);
			this.posix.close(this.stdout[0]);
			this.posix.close(this.stdout[1]);
		}

	}

}
