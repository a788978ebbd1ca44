package dev.tether.supervisor;

import java.time.Instant;

/**
 * The last result of a child's readiness or liveness probe.
 *
 * @param passed whether it passed
 * @param detail what it saw: {@code HTTP 200}, {@code connection refused},
 * {@code no answer within PT1S}
 * @param at when it ended
 * @param failures how many probes in a row have failed, this one included (0 when it
 * passed)
 */
public record ProbeResult(boolean passed, String detail, Instant at, int failures) {
}
