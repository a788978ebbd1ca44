package dev.tether.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Figures collected over several rounds; reported as median [min–max] with ratios to a
 * baseline measured in the same run.
 */
final class Results {

	/**
	 * How the name of a row's C baseline begins (the first such subject is the row's "× C
	 * limit").
	 */
	static final String C_LIMIT = "C ";

	private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();

	private final Map<String, String> units = new LinkedHashMap<>();

	private boolean recording = true;

	/** Whether {@link #add} keeps what it is given: not during warm-up rounds. */
	void recording(boolean recording) {
		this.recording = recording;
	}

	void add(String metric, String unit, String subject, double value) {
		if (!this.recording) {
			return;
		}
		this.units.put(metric, unit);
		this.figures.computeIfAbsent(metric, (key) -> new LinkedHashMap<>())
			.computeIfAbsent(subject, (key) -> new ArrayList<>())
			.add(value);
	}

	static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	static double percentile(List<Double> values, double percentile) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
		return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
	}

	/**
	 * A markdown table per metric: each subject's median and spread, and its ratio to
	 * ProcessBuilder and to the C limit.
	 */
	String toMarkdown() {
		StringBuilder out = new StringBuilder();
		for (Map.Entry<String, Map<String, List<Double>>> metric : this.figures.entrySet()) {
			String unit = this.units.get(metric.getKey());
			out.append("\n### ").append(metric.getKey()).append(" (").append(unit).append(")\n\n");
			Double processBuilder = medianOf(metric.getValue(), "ProcessBuilder");
			Double limit = metric.getValue()
				.entrySet()
				.stream()
				.filter((subject) -> subject.getKey().startsWith(C_LIMIT))
				.findFirst()
				.map((subject) -> median(subject.getValue()))
				.orElse(null);
			out.append("| subject | median | min–max | rounds | × ProcessBuilder | × C limit |\n");
			out.append("|---|---:|---:|---:|---:|---:|\n");
			for (Map.Entry<String, List<Double>> subject : metric.getValue().entrySet()) {
				List<Double> values = subject.getValue();
				double median = median(values);
				out.append("| ")
					.append(subject.getKey())
					.append(" | ")
					.append(format(median))
					.append(" | ")
					.append(format(values.stream().mapToDouble(Double::doubleValue).min().orElse(0)))
					.append("–")
					.append(format(values.stream().mapToDouble(Double::doubleValue).max().orElse(0)))
					.append(" | ")
					.append(values.size())
					.append(" | ")
					.append(ratio(median, processBuilder))
					.append(" | ")
					.append(ratio(median, limit))
					.append(" |\n");
			}
		}
		return out.toString();
	}

	private static Double medianOf(Map<String, List<Double>> subjects, String name) {
		List<Double> values = subjects.get(name);
		return (values != null) ? median(values) : null;
	}

	private static String ratio(double value, Double baseline) {
		if (baseline == null || baseline == 0) {
			return "–";
		}
		return String.format(Locale.ROOT, "%.2f", value / baseline);
	}

	private static String format(double value) {
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%.0f", value);
		}
		return String.format(Locale.ROOT, "%.3g", value);
	}

}
