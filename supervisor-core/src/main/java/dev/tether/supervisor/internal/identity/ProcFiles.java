package dev.tether.supervisor.internal.identity;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads small {@code /proc} files. Why not {@link Files#readAllBytes}: procfs reports
 * every size as 0, so that path sizes, allocates and copies for nothing, once or twice
 * per process in reconciliation and every marker scan; one reused buffer per thread
 * avoids it.
 */
final class ProcFiles {

	private static final int INITIAL_CAPACITY = 16 * 1024;

	private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal
		.withInitial(() -> ByteBuffer.allocate(INITIAL_CAPACITY));

	private ProcFiles() {
	}

	/**
	 * The whole content of a file.
	 * @throws java.nio.file.NoSuchFileException when it does not exist (the process is
	 * gone)
	 * @throws java.nio.file.AccessDeniedException when it may not be read
	 */
	static byte[] read(Path file) throws IOException {
		ByteBuffer buffer = BUFFER.get();
		buffer.clear();
		try (SeekableByteChannel channel = Files.newByteChannel(file)) {
			while (channel.read(buffer) >= 0) {
				if (!buffer.hasRemaining()) {
					ByteBuffer larger = ByteBuffer.allocate(buffer.capacity() * 2);
					buffer.flip();
					larger.put(buffer);
					buffer = larger;
					BUFFER.set(buffer);
				}
			}
		}
		return Arrays.copyOf(buffer.array(), buffer.position());
	}

}
