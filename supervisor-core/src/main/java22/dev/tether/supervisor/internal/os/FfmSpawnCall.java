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

	// Why: glibc's opaque types are 80 (file actions), 336 (attributes) and 128 (sigset)
	// bytes on 64-bit Linux; the room is larger so that no layout change can make glibc
	// write past it.
	private static final long OPAQUE_SIZE = 1024;

	private final Arena arena = Arena.ofConfined();

	private final MemorySegment opaque = this.arena.allocate(3 * OPAQUE_SIZE, 16);

	private final MemorySegment actions = this.opaque.asSlice(0, OPAQUE_SIZE);

	private final MemorySegment attributes = this.opaque.asSlice(OPAQUE_SIZE, OPAQUE_SIZE);

	private final MemorySegment signals = this.opaque.asSlice(2 * OPAQUE_SIZE, OPAQUE_SIZE);

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
	 * allocation instead of one per variable); the arena's memory comes zeroed, so each string ends in its NUL and
	 * the array in its NULL.
	 * <p>
	 * Why two bulk copies, not a store per string and per pointer: each access through the API checks bounds and
	 * liveness, and until the JIT has compiled this path runs through its var-handle machinery; laid out in Java
	 * arrays first (the pointers computed as addresses), an environment of fifty variables costs two such accesses,
	 * not a hundred.
	 */
	private MemorySegment cStrings(List<String> values) {
		byte[][] encoded = new byte[values.size()][];
		int length = 0;
		for (int i = 0; i < encoded.length; i++) {
			encoded[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
			length += encoded[i].length + 1;
		}
		byte[] strings = new byte[length];
		long[] pointers = new long[encoded.length];
		long pointersSize = (encoded.length + 1L) * Long.BYTES;
		MemorySegment array = this.arena.allocate(pointersSize + length, Long.BYTES);
		int offset = 0;
		for (int i = 0; i < encoded.length; i++) {
			System.arraycopy(encoded[i], 0, strings, offset, encoded[i].length);
			pointers[i] = array.address() + pointersSize + offset;
			offset += encoded[i].length + 1;
		}
		MemorySegment.copy(pointers, 0, array, ValueLayout.JAVA_LONG, 0, pointers.length);
		MemorySegment.copy(strings, 0, array, ValueLayout.JAVA_BYTE, pointersSize, strings.length);
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
