package dev.tether.supervisor.internal.notify;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.os.CredentialSockets;
import dev.tether.supervisor.internal.os.Epoll;
import dev.tether.supervisor.internal.os.Posix;

/**
 * One thread that receives on every notify socket of a supervisor, through one epoll set:
 * no thread per child. Each datagram is checked against its socket's process tree and the
 * supervisor's uid ({@link ProcessTree}), kept by its {@link NotifyChannel}, and handed
 * to the listener when it changes a state.
 * <p>
 * Why the poller closes the sockets itself: a descriptor closed by another thread while
 * this one reads it could be reused at once (for a probe's connection, say) and read here
 * as if it were a notify socket.
 */
public final class NotifyPoller implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(NotifyPoller.class);

	// Why: systemd takes datagrams of up to PIPE_BUF bytes, and drops longer ones too.
	private static final int MAX_DATAGRAM = 4096;

	// Why a bound per turn: a child that floods its socket must not starve the others.
	private static final int MAX_PER_TURN = 64;

	// Why a timeout: closes and the end are picked up within it, without a wake-up
	// descriptor.
	private static final int WAIT_MILLIS = 200;

	private final Posix posix;

	private final CredentialSockets sockets;

	private final KnownSenders senders;

	private final LongSupplier clock;

	private final Listener listener;

	private final SecureRandom random = new SecureRandom();

	private final Map<Integer, NotifyChannel> channels = new ConcurrentHashMap<>();

	private final Queue<NotifyChannel> closing = new ConcurrentLinkedQueue<>();

	private final byte[] data = new byte[MAX_DATAGRAM];

	private final int uid;

	private @Nullable Epoll epoll;

	private @Nullable Thread thread;

	private volatile boolean closed;

	public NotifyPoller(IdentityProbe probe, LongSupplier clock, Listener listener) {
		this.posix = Posix.get();
		this.sockets = new CredentialSockets(this.posix);
		this.senders = new KnownSenders(new ProcessTree(probe), this.posix);
		this.clock = clock;
		this.listener = listener;
		this.uid = this.posix.isAvailable() ? this.posix.geteuid() : -1;
	}

	/**
	 * Opens the socket of a process of {@code child} about to be spawned, under a name no
	 * other process can guess (so none can take it first).
	 * @throws IOException why it could not be: no native calls here, no descriptor left
	 */
	public NotifyChannel open(String child) throws IOException {
		if (!this.posix.isAvailable()) {
			throw new IOException("the notify protocol needs Linux's native calls, and none are bound here");
		}
		ensureStarted();
		byte[] secret = new byte[12];
		this.random.nextBytes(secret);
		String name = "tether/" + ProcessHandle.current().pid() + "/" + HexFormat.of().formatHex(secret) + "/" + child;
		int fd = this.sockets.open(name);
		return new NotifyChannel(child, fd, name);
	}

	/**
	 * Starts receiving on {@code channel}: its process is {@code root} (a shepherd or
	 * not). Datagrams sent before wait in the socket until then.
	 */
	public void attach(NotifyChannel channel, long root, boolean shepherd) {
		channel.attach(root, shepherd);
		this.channels.put(channel.fd(), channel);
		Epoll set = this.epoll;
		if (set == null || !set.add(channel.fd())) {
			logger.warn("Child '{}': its notify socket could not be watched; nothing it sends will be heard",
					channel.child());
		}
	}

	/** Closes {@code channel} on the poller's thread (within a moment). */
	public void close(NotifyChannel channel) {
		this.closing.add(channel);
	}

	private synchronized void ensureStarted() throws IOException {
		if (this.thread != null) {
			return;
		}
		if (this.closed) {
			throw new IOException("the supervisor is closed");
		}
		Epoll created = Epoll.create(this.posix);
		if (created == null) {
			throw new IOException("no epoll set could be created for the notify sockets");
		}
		this.epoll = created;
		Thread started = new Thread(() -> run(created), "supervisor-notify");
		started.setDaemon(true);
		this.thread = started;
		started.start();
	}

	private void run(Epoll set) {
		while (!this.closed) {
			int ready = set.await(WAIT_MILLIS);
			for (int i = 0; i < ready; i++) {
				NotifyChannel channel = this.channels.get(set.ready(i));
				if (channel != null) {
					receive(channel);
				}
			}
			closeDropped();
		}
		this.closing.addAll(this.channels.values());
		closeDropped();
	}

	private void closeDropped() {
		for (NotifyChannel channel = this.closing.poll(); channel != null; channel = this.closing.poll()) {
			this.channels.remove(channel.fd(), channel);
			this.senders.forget(channel);
			this.posix.close(channel.fd());
		}
	}

	private void receive(NotifyChannel channel) {
		for (int i = 0; i < MAX_PER_TURN; i++) {
			CredentialSockets.Datagram datagram = this.sockets.receive(channel.fd(), this.data);
			if (datagram == null) {
				return;
			}
			if (datagram.truncated() || datagram.uid() != this.uid || !this.senders.inTree(channel, datagram.pid())) {
				channel.ignored();
				logger.debug("Child '{}': a notify datagram from pid {} (uid {}) was ignored", channel.child(),
						datagram.pid(), datagram.uid());
				continue;
			}
			NotifyMessage message = NotifyMessage.parse(this.data, datagram.length());
			channel.received(message, this.clock.getAsLong());
			if (message.actionable()) {
				this.listener.notified(channel, message);
			}
		}
	}

	/** Stops the thread; it closes every socket left. */
	@Override
	public void close() {
		Thread running;
		synchronized (this) {
			this.closed = true;
			running = this.thread;
		}
		if (running != null) {
			try {
				running.join(WAIT_MILLIS * 5L);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Receives what changes a child's state at once, on the poller's thread. */
	@FunctionalInterface
	public interface Listener {

		/**
		 * {@code channel} received {@code message}, already kept: {@code READY=1},
		 * {@code WATCHDOG=trigger}, or an error it reported.
		 */
		void notified(NotifyChannel channel, NotifyMessage message);

	}

}
