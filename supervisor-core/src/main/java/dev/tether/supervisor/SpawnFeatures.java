package dev.tether.supervisor;

/**
 * How children are spawned on this machine, as probed at start: what an operator needs to
 * know when a child with a working directory cannot start on an old glibc, or when
 * descriptors are closed one by one.
 *
 * @param method {@code posix_spawnp} (Linux) or {@code ProcessBuilder} (elsewhere)
 * @param workingDirectory who puts a child in its working directory: {@code spawn-action}
 * ({@code posix_spawn_file_actions_addchdir_np}, glibc 2.29+), {@code launcher} (its
 * {@code --chdir}), or {@code unavailable}
 * @param closeDescriptors how inherited descriptors are closed: {@code closefrom}
 * ({@code posix_spawn_file_actions_addclosefrom_np}, glibc 2.34+), {@code close-each}
 * (one action per open descriptor), or {@code jdk} (ProcessBuilder's own)
 */
public record SpawnFeatures(String method, String workingDirectory, String closeDescriptors) {
}
