package dev.tether.supervisor;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * The stdin and stdout of one process of a child spawned with {@link ChildSpec#stdio()}:
 * whoever talks to the child writes its requests to {@link #stdin()} and reads its
 * replies from {@link #stdout()}. Its stderr goes to the child's output sinks, as other
 * children's output does.
 * <p>
 * Each process of the child has its own: a restarted child has a new one
 * ({@link Supervisor#stdio(String)} then returns it), and the previous one reads end of
 * file once its process and every process that shares its stdout have ended. Under a
 * shepherd the read end of the stdout pipe is held by the shepherd as well, so that after
 * the death of the JVM a server that writes while it ends is not killed by
 * {@code SIGPIPE}. The streams block; reads happen on the caller's thread (the supervisor
 * starts none), and a read blocked on {@link #stdout()} ends when {@link #close()} is
 * called from another thread.
 */
public interface ChildStdio extends AutoCloseable {

	/** What the process reads as its stdin. */
	OutputStream stdin();

	/** What the process writes to its stdout. */
	InputStream stdout();

	/**
	 * Closes this JVM's ends: the process reads end of file on its stdin. The supervisor
	 * closes them too when the child is started again or removed.
	 */
	@Override
	void close();

}
