package dev.tether.supervisor.internal.identity;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Run in a JVM of its own with a low descriptor limit: verifies and signals (signal 0) a
 * live process of ours once with descriptors to spare, once with none left (so
 * {@code pidfd_open} fails with EMFILE) and once more after they were given back,
 * printing each verdict. Arguments: pid, installation id, name, start time, boot id.
 */
public final class PidfdExhaustionCheck {

	private PidfdExhaustionCheck() {
	}

	public static void main(String[] args) throws IOException {
		ExpectedIdentity identity = new ExpectedIdentity(Long.parseLong(args[0]), new Owner(args[1], args[2]),
				ChildKind.AGENT, args[3], Long.parseLong(args[4]), args[5]);
		ProcessSignaller signaller = new ProcessSignaller(IdentityProbe.forPlatform());
		System.out.println("PIDFD " + Posix.get().isPidfdAvailable());
		System.out.println("BEFORE " + signaller.signal(identity, 0));
		List<FileInputStream> held = new ArrayList<>();
		String failure = null;
		while (failure == null) {
			try {
				held.add(new FileInputStream("/dev/null"));
			}
			catch (IOException ex) {
				failure = ex.getMessage();
			}
		}
		Verdict during = signaller.signal(identity, 0);
		for (FileInputStream in : held) {
			in.close();
		}
		System.out.println("EXHAUSTED " + failure);
		System.out.println("DURING " + during);
		System.out.println("AFTER " + signaller.signal(identity, 0));
	}

}
