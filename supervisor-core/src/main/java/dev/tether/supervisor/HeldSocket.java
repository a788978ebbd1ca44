package dev.tether.supervisor;

/**
 * The listening socket the supervisor holds for a socket-activated child (see
 * {@link SocketActivation}): while it is held, the child's port is this application's,
 * whichever process of the child accepts on it.
 *
 * @param address the address it is bound to
 * @param port its port
 * @param fd the descriptor the child's processes find it at: 3 or 0
 * @param backlog the backlog it listens with
 */
public record HeldSocket(String address, int port, int fd, int backlog) {

}
