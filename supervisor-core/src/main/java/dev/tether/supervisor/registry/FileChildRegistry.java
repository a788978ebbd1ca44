package dev.tether.supervisor.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.internal.files.PrivateDirectory;

/**
 * The default registry: {@code <state-directory>/registry.json}, written atomically
 * (temporary file, fsync, rename, fsync of the directory) with mode 0600, under an
 * exclusive lock on {@code registry.lock} held for the supervisor's life. A file that
 * does not parse is moved aside, never deleted.
 */
public final class FileChildRegistry implements ChildRegistry {

	private static final Logger logger = LoggerFactory.getLogger(FileChildRegistry.class);

	static final int VERSION = 1;

	private static final String FILE = "registry.json";

	private static final String LOCK = "registry.lock";

	private static final String TEMPORARY = FILE + ".tmp";

	private final Path directory;

	private final Path file;

	// Why shared: a mapper is thread-safe and caches what it learns of the row type.
	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final FileChannel lockChannel;

	private final FileLock lock;

	private volatile Path movedAside;

	private final String instanceId;

	private FileChildRegistry(Path directory, FileChannel lockChannel, FileLock lock, String instanceId) {
		this.directory = directory;
		this.instanceId = instanceId;
		this.file = directory.resolve(FILE);
		this.lockChannel = lockChannel;
		this.lock = lock;
	}

	/**
	 * Opens the registry of a state directory, creating it (mode 0700) if needed, and
	 * takes its lock.
	 * @throws RegistryLockedException when another supervisor holds it
	 * @throws UnsafeDirectoryException when another user could change the directory or
	 * one above it
	 * @throws IllegalStateException naming the directory when it cannot be created or
	 * written
	 */
	public static FileChildRegistry open(Path stateDirectory) {
		Path directory = stateDirectory.toAbsolutePath().normalize();
		try {
			PrivateDirectory.check(directory);
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"cannot check the owners and modes of state directory " + directory + ": " + describe(ex), ex);
		}
		try {
			if (!Files.isDirectory(directory)) {
				Files.createDirectories(directory,
						PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot create state directory " + directory + ": " + describe(ex), ex);
		}
		FileChannel channel;
		try {
			// Why no links: a link planted as the lock would have the supervisor truncate
			// whatever it points to.
			channel = FileChannel.open(directory.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ,
					StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot open " + directory.resolve(LOCK) + ": the state directory "
					+ directory + " is not writable, or the lock is a symbolic link (never followed): " + describe(ex),
					ex);
		}
		FileLock lock;
		try {
			lock = tryLock(channel);
			if (lock == null) {
				String holder = readHolder(channel);
				channel.close();
				// Why compare pids: the lock is per JVM, so a second supervisor in this
				// JVM (a second Spring context, e.g. a cached test context) reads its own
				// pid as the holder and must be told it is not another process.
				boolean sameJvm = holder.equals(Long.toString(ProcessHandle.current().pid()));
				throw new RegistryLockedException(directory, holder, sameJvm);
			}
			channel.truncate(0);
			channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
					0);
			channel.force(true);
			removeStaleTemporary(directory);
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new IllegalStateException("cannot lock " + directory.resolve(LOCK) + ": " + describe(ex), ex);
		}
		try {
			return new FileChildRegistry(directory, channel, lock, InstanceIdFile.readOrCreate(directory));
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new IllegalStateException("cannot read the instance id of " + directory + ": " + describe(ex), ex);
		}
	}

	/**
	 * Why: a supervisor killed in the middle of a save leaves its half-written temporary
	 * file; the registry itself is whole (the rename never happened), and the next save
	 * must not trip over the leftover.
	 */
	private static void removeStaleTemporary(Path directory) throws IOException {
		Path temporary = directory.resolve(TEMPORARY);
		if (Files.deleteIfExists(temporary)) {
			logger.warn("Removed {}, left by a save that was interrupted; {} is intact", temporary,
					directory.resolve(FILE));
		}
	}

	private static FileLock tryLock(FileChannel channel) throws IOException {
		try {
			return channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			// Another supervisor in this very JVM holds it.
			return null;
		}
	}

	private static String readHolder(FileChannel channel) {
		try {
			ByteBuffer buffer = ByteBuffer.allocate(32);
			channel.read(buffer, 0);
			String holder = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
			return holder.isEmpty() ? "unknown" : holder;
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	@Override
	public String instanceId() {
		return this.instanceId;
	}

	/** Where a corrupt file was moved by the last {@link #load()}, or {@code null}. */
	public Path movedAside() {
		return this.movedAside;
	}

	@Override
	public List<RegistryRow> load() {
		if (!Files.exists(this.file, LinkOption.NOFOLLOW_LINKS)) {
			return List.of();
		}
		try {
			if (Files.isRegularFile(this.file, LinkOption.NOFOLLOW_LINKS)) {
				byte[] bytes;
				try (InputStream in = Files.newInputStream(this.file, LinkOption.NOFOLLOW_LINKS)) {
					bytes = in.readAllBytes();
				}
				try (JsonParser parser = JSON.createParser(bytes)) {
					return List.copyOf(RegistryFileReader.read(parser, VERSION));
				}
			}
		}
		catch (JacksonException ex) {
			logger.debug("Registry {} does not parse", this.file, ex);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read registry " + this.file + ": " + describe(ex), ex);
		}
		moveAside();
		return List.of();
	}

	private void moveAside() {
		Path aside = this.directory.resolve(FILE + ".corrupt-" + Instant.now().toEpochMilli());
		try {
			Files.move(this.file, aside);
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"registry " + this.file + " is corrupt and cannot be moved aside: " + describe(ex), ex);
		}
		this.movedAside = aside;
		logger.warn("Registry {} was not a readable registry; moved aside to {}. Live children are still found by "
				+ "their environment markers.", this.file, aside);
	}

	@Override
	public synchronized void save(List<RegistryRow> rows) {
		Path temporary = this.directory.resolve(TEMPORARY);
		try {
			byte[] content = JSON.writerWithDefaultPrettyPrinter()
				.writeValueAsBytes(new RegistryFile(VERSION, List.copyOf(rows)));
			Files.deleteIfExists(temporary);
			Files.createFile(temporary,
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
			try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
				ByteBuffer buffer = ByteBuffer.wrap(content);
				while (buffer.hasRemaining()) {
					channel.write(buffer);
				}
				channel.force(true);
			}
			Files.move(temporary, this.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			// Why: the rename is durable only once the directory entry itself is on disk.
			try (FileChannel directoryChannel = FileChannel.open(this.directory, StandardOpenOption.READ)) {
				directoryChannel.force(true);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot write registry " + this.file + ": " + describe(ex), ex);
		}
	}

	@Override
	public void close() {
		if (!this.lockChannel.isOpen()) {
			return;
		}
		try {
			this.lock.release();
		}
		catch (IOException ex) {
			logger.debug("Releasing {} failed", this.directory.resolve(LOCK), ex);
		}
		closeQuietly(this.lockChannel);
	}

	private static void closeQuietly(FileChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			// Nothing left to release.
		}
	}

	private static String describe(IOException ex) {
		if (ex instanceof AccessDeniedException) {
			return "permission denied";
		}
		if (ex instanceof FileSystemException fs && fs.getReason() != null) {
			return fs.getReason();
		}
		return ex.toString();
	}

	record RegistryFile(int version, List<RegistryRow> rows) {
	}

}
