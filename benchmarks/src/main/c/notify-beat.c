/*
 * notify-beat: a child that speaks systemd's notify protocol for the benchmarks. It sends READY=1 to the socket in
 * NOTIFY_SOCKET (an abstract name when it starts with '@'), then WATCHDOG=1 every <period-ms> milliseconds, for ever.
 * Without NOTIFY_SOCKET it only waits, for ever: the same child supervised without the protocol.
 *   notify-beat <period-ms>
 * With a stamp file, it first waits 50 ms (the supervisor is watching by then), reads CLOCK_MONOTONIC (the clock of
 * the JVM's System.nanoTime) just before it says READY=1, or with a port just before it listens on 127.0.0.1:<port>
 * instead, and writes that reading to the file once it has:
 *   notify-beat <period-ms> <stamp-file> [port]
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long) now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void stamp(const char *file, long long nanos) {
    char text[32];
    int length = snprintf(text, sizeof text, "%lld\n", nanos);
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
        write(fd, text, (size_t) length);
        close(fd);
    }
}

/* Listens on 127.0.0.1:port, stamping the time just before, then waits for ever. */
static int listen_stamped(const char *file, int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short) port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
            || bind(fd, (struct sockaddr *) &address, sizeof address) != 0) {
        return 1;
    }
    long long before = monotonic_nanos();
    if (listen(fd, 16) != 0) {
        return 1;
    }
    stamp(file, before);
    for (;;) {
        pause();
    }
}

int main(int argc, char **argv) {
    const char *name = getenv("NOTIFY_SOCKET");
    long period = (argc > 1) ? atol(argv[1]) : 500;
    const char *stamp_file = (argc > 2) ? argv[2] : NULL;
    if (stamp_file != NULL) {
        struct timespec settle = { 0, 50000000L };
        nanosleep(&settle, NULL);
        if (argc > 3 && atoi(argv[3]) > 0) {
            return listen_stamped(stamp_file, atoi(argv[3]));
        }
    }
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (name == NULL) {
        for (;;) {
            pause();
        }
    }
    size_t length = strlen(name);
    if (length == 0 || length >= sizeof address.sun_path || period <= 0) {
        return 2;
    }
    memcpy(address.sun_path, name, length);
    if (name[0] == '@') {
        address.sun_path[0] = '\0';
    }
    socklen_t size = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + length);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    long long before = monotonic_nanos();
    if (fd < 0 || sendto(fd, "READY=1", 7, 0, (struct sockaddr *) &address, size) < 0) {
        return 1;
    }
    if (stamp_file != NULL) {
        stamp(stamp_file, before);
    }
    struct timespec wait = { period / 1000, (period % 1000) * 1000000L };
    for (;;) {
        nanosleep(&wait, NULL);
        sendto(fd, "WATCHDOG=1", 10, 0, (struct sockaddr *) &address, size);
    }
}
