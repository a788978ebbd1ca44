package dev.tether.supervisor.internal.os;

/**
 * A listening socket a spawn hands to its child ({@link ActivationSockets}).
 *
 * @param fd the socket's descriptor in this JVM
 * @param asStdin whether the child gets it as its standard input (descriptor 0, what
 * {@code System.inheritedChannel()} and inetd-style servers take); otherwise it follows
 * the descriptors the spawn keeps for the launcher, which hands it to the command as
 * descriptor 3
 */
public record HandedSocket(int fd, boolean asStdin) {

}
