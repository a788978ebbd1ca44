package dev.tether.supervisor.boot.actuate;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;

import org.springframework.core.io.AbstractResource;

import dev.tether.supervisor.output.CapturedOutput;

/**
 * A child's current log file as a {@link org.springframework.core.io.Resource}, so that
 * HTTP {@code Range} requests work as for any file. Every read opens it anew through
 * {@link CapturedOutput#openLog()}, under the writer's rule: a link, a FIFO or another
 * user's file planted at the path between two reads fails the read, and is never
 * followed, waited on or served.
 */
final class ChildLogResource extends AbstractResource {

	private final CapturedOutput output;

	ChildLogResource(CapturedOutput output) {
		this.output = output;
	}

	@Override
	public InputStream getInputStream() throws IOException {
		return Channels.newInputStream(open());
	}

	@Override
	public long contentLength() throws IOException {
		try (SeekableByteChannel channel = open()) {
			return channel.size();
		}
	}

	@Override
	public boolean exists() {
		return true;
	}

	@Override
	public long lastModified() {
		// Why none: a log grows by the second, and a time would only let a client cache a
		// stale one.
		return -1;
	}

	@Override
	public String getDescription() {
		return "log of child '" + this.output.child() + "'";
	}

	private SeekableByteChannel open() throws IOException {
		return this.output.openLog()
			.orElseThrow(() -> new FileNotFoundException("the log of child '" + this.output.child() + "' is gone"));
	}

}
