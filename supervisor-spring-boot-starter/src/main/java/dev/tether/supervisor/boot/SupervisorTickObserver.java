package dev.tether.supervisor.boot;

import java.time.Duration;

/**
 * Told how long each supervision tick took (the metrics record it).
 */
@FunctionalInterface
public interface SupervisorTickObserver {

	void ticked(Duration duration);

}
