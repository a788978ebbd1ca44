package dev.tether.supervisor.internal.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.tether.supervisor.internal.os.FfmCalls.failed;

/**
 * One {@code posix_spawnp} through the FFM backend. Its native memory (file actions, attributes, signal set, argv
 * and environment) lives in one confined arena, freed when the call is closed on the spawning thread.
 */
final class FfmSpawnCall implements NativeCalls.SpawnCall {

	// Why: glibc's opaque types are 80 (file actions), 336 (attributes) and 128 (sigset) bytes on 64-bit Linux;
	// the room is larger so that no layout change can make glibc write past it.
	private static final long OPAQUE_SIZE = 1024;

	private final Arena arena = Arena.ofConfined();

	private final MemorySegment actions = this.arena.allocate(OPAQUE_SIZE, 16);

	private final MemorySegment attributes = this.arena.allocate(OPAQUE_SIZE, 16);

	private final MemorySegment signals = this.arena.allocate(OPAQUE_SIZE, 16);

	private boolean actionsInitialised;

	private boolean attributesInitialised;

	@Override
	public int initActions() {
		try {
			int error = (int) FfmCalls.ACTIONS_INIT.invokeExact(this.actions);
			this.actionsInitialised = (error == 0);
			return error;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int initAttributes() {
		try {
			int error = (int) FfmCalls.ATTR_INIT.invokeExact(this.attributes);
			this.attributesInitialised = (error == 0);
			return error;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int addOpen(int fd, String path, int flags, int mode) {
		try {
			return (int) FfmCalls.ADD_OPEN.invokeExact(this.actions, fd, this.arena.allocateFrom(path), flags, mode);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int addDup2(int fd, int newFd) {
		try {
			return (int) FfmCalls.ADD_DUP2.invokeExact(this.actions, fd, newFd);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int addClose(int fd) {
		try {
			return (int) FfmCalls.ADD_CLOSE.invokeExact(this.actions, fd);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int addClosefrom(int from) {
		try {
			return (int) FfmCalls.ADD_CLOSEFROM.invokeExact(this.actions, from);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int addChdir(String path) {
		try {
			return (int) FfmCalls.ADD_CHDIR.invokeExact(this.actions, this.arena.allocateFrom(path));
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int emptySignalMask() {
		try {
			int ignored = (int) FfmCalls.SIGEMPTYSET.invokeExact(this.signals);
			return (int) FfmCalls.ATTR_SETSIGMASK.invokeExact(this.attributes, this.signals);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int defaultSignalsBut(int... kept) {
		try {
			int ignored = (int) FfmCalls.SIGFILLSET.invokeExact(this.signals);
			for (int signal : kept) {
				ignored = (int) FfmCalls.SIGDELSET.invokeExact(this.signals, signal);
			}
			return (int) FfmCalls.ATTR_SETSIGDEFAULT.invokeExact(this.attributes, this.signals);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int setFlags(short flags) {
		try {
			return (int) FfmCalls.ATTR_SETFLAGS.invokeExact(this.attributes, flags);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int spawnp(String file, List<String> argv, List<String> env, int[] pid) {
		MemorySegment child = this.arena.allocate(ValueLayout.JAVA_INT);
		try {
			int error = (int) FfmCalls.SPAWNP.invokeExact(child, this.arena.allocateFrom(file), this.actions,
					this.attributes, cStrings(argv), cStrings(env));
			pid[0] = child.get(ValueLayout.JAVA_INT, 0);
			return error;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	/**
	 * A NULL-terminated array of C strings in a single allocation (a spawn with a large environment costs one
	 * allocation instead of one per variable); the arena's memory comes zeroed, so each string ends in its NUL.
	 */
	private MemorySegment cStrings(List<String> values) {
		long size = ValueLayout.ADDRESS.byteSize();
		byte[][] encoded = new byte[values.size()][];
		long total = (values.size() + 1) * size;
		for (int i = 0; i < values.size(); i++) {
			encoded[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
			total += encoded[i].length + 1;
		}
		MemorySegment array = this.arena.allocate(total, size);
		long offset = (values.size() + 1) * size;
		for (int i = 0; i < encoded.length; i++) {
			MemorySegment.copy(encoded[i], 0, array, ValueLayout.JAVA_BYTE, offset, encoded[i].length);
			array.setAtIndex(ValueLayout.ADDRESS, i, array.asSlice(offset));
			offset += encoded[i].length + 1;
		}
		return array;
	}

	@Override
	public void close() {
		try {
			if (this.attributesInitialised) {
				int ignored = (int) FfmCalls.ATTR_DESTROY.invokeExact(this.attributes);
			}
			if (this.actionsInitialised) {
				int ignored = (int) FfmCalls.ACTIONS_DESTROY.invokeExact(this.actions);
			}
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
		finally {
			this.arena.close();
		}
	}

}
