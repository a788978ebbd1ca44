package dev.tether.supervisor.internal.os;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the native backend once per JVM: the Foreign Function and Memory API on JDK 22
 * and later, jnr on JDK 17 to 21 or where the FFM backend cannot be bound, none off
 * Linux.
 */
final class NativeBackends {

	/** The first JDK whose Foreign Function and Memory API is final. */
	static final int FFM_FEATURE = 22;

	// Why by name: the FFM backend is compiled for JDK 22 and shipped under
	// META-INF/versions/22, so a JDK 17 class loader never sees it, and nothing here
	// links against it.
	private static final String FFM_CALLS = "dev.tether.supervisor.internal.os.FfmCalls";

	// Why the entry, not the class: only its presence tells a jar built without a JDK 22+
	// (no FFM classes at all) from one whose FFM classes this JDK or class path does not
	// apply.
	private static final String FFM_ENTRY = "META-INF/versions/22/" + FFM_CALLS.replace('.', '/') + ".class";

	private static final Logger logger = LoggerFactory.getLogger(NativeBackends.class);

	private NativeBackends() {
	}

	static @Nullable NativeCalls load() {
		if (!Posix.isLinux()) {
			return null;
		}
		if (NativeBackends.class.getClassLoader().getResource(FFM_ENTRY) == null) {
			logger.info("This supervisor-core was built without its FFM backend (no JDK 22+ at build time): "
					+ "jnr on every JDK");
		}
		else if (Runtime.version().feature() >= FFM_FEATURE) {
			NativeCalls ffm = ffm();
			if (ffm != null) {
				return ffm;
			}
		}
		// Why only here: jnr's native layer (jffi) loads its library and uses
		// sun.misc.Unsafe as soon as it is touched, which JDK 24 and later warn about;
		// the FFM path must never reach this class.
		try {
			return new JnrCalls();
		}
		catch (LinkageError | RuntimeException ex) {
			logger.warn(
					"No native backend could bind libc ({}); children are spawned by ProcessBuilder, through the "
							+ "parent-death launcher where it runs (no native call of the JVM's is needed for it)",
					ex.toString());
			return null;
		}
	}

	private static @Nullable NativeCalls ffm() {
		try {
			return (NativeCalls) Class.forName(FFM_CALLS, true, NativeBackends.class.getClassLoader())
				.getDeclaredConstructor()
				.newInstance();
		}
		catch (ClassNotFoundException ex) {
			logger.info("The FFM backend is not on the class path (supervisor-core's multi-release classes are "
					+ "applied from its jar only); using jnr");
			return null;
		}
		catch (ReflectiveOperationException | LinkageError | RuntimeException ex) {
			// Why the cause: a failed binding (native access denied, a missing symbol)
			// surfaces wrapped, as the error of the class's initialisation or of its
			// constructor.
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			if (cause instanceof IllegalCallerException) {
				// Why its own words: access is not about to be blocked, it already is.
				logger.warn("Native access is denied to Tether (--illegal-native-access=deny, or a grant that leaves "
						+ "it out), so the FFM backend cannot bind libc ({}); trying jnr", cause.toString());
				return null;
			}
			logger.warn("The FFM backend could not bind libc ({}); trying jnr", cause.toString());
			return null;
		}
	}

}
