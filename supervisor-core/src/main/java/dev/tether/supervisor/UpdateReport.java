package dev.tether.supervisor;

import java.util.List;

/**
 * What {@link Supervisor#update} changed, by child name.
 *
 * @param added children the new configuration names that were not supervised (started per
 * {@code autostart})
 * @param removed configured children it no longer names (stopped, then forgotten)
 * @param changed children whose settings changed (stopped, then started again with the
 * new ones if they were running)
 * @param unchanged children left as they were, process and pid included
 */
public record UpdateReport(List<String> added, List<String> removed, List<String> changed, List<String> unchanged) {

	public UpdateReport {
		added = List.copyOf(added);
		removed = List.copyOf(removed);
		changed = List.copyOf(changed);
		unchanged = List.copyOf(unchanged);
	}

}
