package dev.tether.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time so far, in seconds: the whole JVM's, and each {@code supervisor-output}
 * thread's (the pump's), in all and in user mode.
 */
record CpuTime(double jvm, Map<Long, double[]> threads) {

	static CpuTime now() {
		ThreadMXBean mx = ManagementFactory.getThreadMXBean();
		Map<Long, double[]> threads = new HashMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			long total = mx.getThreadCpuTime(thread.getId());
			long user = mx.getThreadUserTime(thread.getId());
			if (thread.getName().startsWith("supervisor-output") && total >= 0 && user >= 0) {
				threads.put(thread.getId(), new double[] { total / 1e9, user / 1e9 });
			}
		}
		return new CpuTime(jvmNow(), threads);
	}

	/**
	 * The whole JVM's CPU time so far, in seconds: every thread's, the JIT's and the
	 * collector's included.
	 */
	static double jvmNow() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime() / 1e9;
	}

	/**
	 * The supervisor-output threads' CPU since {@code before} (they live as long as the
	 * JVM).
	 */
	double pump(CpuTime before) {
		return pumpSince(before, 0);
	}

	/**
	 * The part of {@link #pump(CpuTime)} in user mode: the Java side, without the system
	 * calls.
	 */
	double pumpUser(CpuTime before) {
		return pumpSince(before, 1);
	}

	private double pumpSince(CpuTime before, int kind) {
		double sum = 0;
		for (Map.Entry<Long, double[]> thread : this.threads.entrySet()) {
			double[] earlier = before.threads.get(thread.getKey());
			sum += thread.getValue()[kind] - ((earlier != null) ? earlier[kind] : 0);
		}
		return sum;
	}

}
