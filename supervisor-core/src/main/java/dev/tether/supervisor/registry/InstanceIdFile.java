package dev.tether.supervisor.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The instance id of a state directory: a random id written once to
 * {@code <state-directory>/instance-id} and read by every later run, so the orphans of
 * earlier runs of this instance are recognised and those of any other instance (even with
 * the same installation id) never are.
 */
final class InstanceIdFile {

	private static final String FILE = "instance-id";

	// Why room beyond the 32 digits: a newline, and whitespace an editor may have added.
	private static final int MAX_LENGTH = 128;

	private static final Pattern VALID = Pattern.compile("[0-9a-f]{32}");

	private InstanceIdFile() {
	}

	/**
	 * Reads the instance id, creating it on first use. Call it holding the state
	 * directory's lock.
	 * @throws IOException naming the file when it cannot be read or written, or holds
	 * something else than an id
	 */
	static String readOrCreate(Path directory) throws IOException {
		Path file = directory.resolve(FILE);
		if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			String created = UUID.randomUUID().toString().replace("-", "");
			Path temporary = Files.createTempFile(directory, FILE, ".tmp",
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
			Files.writeString(temporary, created + "\n", StandardCharsets.US_ASCII);
			try {
				Files.move(temporary, file);
				return created;
			}
			catch (FileAlreadyExistsException ex) {
				Files.deleteIfExists(temporary);
			}
		}
		if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
			throw new IOException(file + " is not a regular file");
		}
		String id = readPrefix(file).trim();
		if (!VALID.matcher(id).matches()) {
			throw new IOException(file + " does not hold an instance id (32 hexadecimal digits); move it aside to start"
					+ " a new instance, which will not recognise the children of the old one");
		}
		return id;
	}

	/**
	 * The file's text, read no further than an id could reach. Why a bound: a huge file
	 * planted or grown there must fail with its name, not with an
	 * {@code OutOfMemoryError} that names nothing.
	 */
	private static String readPrefix(Path file) throws IOException {
		byte[] bytes;
		try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
			bytes = in.readNBytes(MAX_LENGTH + 1);
		}
		if (bytes.length > MAX_LENGTH) {
			throw new IOException(file + " is longer than an instance id (" + Files.size(file) + " bytes); move it"
					+ " aside to start a new instance, which will not recognise the children of the old one");
		}
		return new String(bytes, StandardCharsets.US_ASCII);
	}

}
