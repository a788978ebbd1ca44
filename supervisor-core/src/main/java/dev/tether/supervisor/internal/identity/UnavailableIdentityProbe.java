package dev.tether.supervisor.internal.identity;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The probe of a platform without {@code /proc}: it can prove nothing, so nothing is ever
 * ours to signal.
 */
final class UnavailableIdentityProbe implements IdentityProbe {

	@Override
	public boolean isAvailable() {
		return false;
	}

	@Override
	public Verdict verify(ExpectedIdentity expected) {
		return Verdict.UNVERIFIABLE;
	}

	@Override
	public boolean hasExited(long pid) {
		return false;
	}

	@Override
	public Optional<ProcStat> stat(long pid) {
		return Optional.empty();
	}

	@Override
	public Optional<String> bootId() {
		return Optional.empty();
	}

	@Override
	public List<MarkedProcess> scanMarked(Owner owner, Set<Long> skip) {
		return List.of();
	}

}
