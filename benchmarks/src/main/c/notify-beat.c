/*
 * notify-beat: a child that speaks systemd's notify protocol for the benchmarks. It sends READY=1 to the socket in
 * NOTIFY_SOCKET (an abstract name when it starts with '@'), then WATCHDOG=1 every <period-ms> milliseconds, for ever.
 * Without NOTIFY_SOCKET it only waits, for ever: the same child supervised without the protocol.
 *   notify-beat <period-ms>
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *name = getenv("NOTIFY_SOCKET");
    long period = (argc > 1) ? atol(argv[1]) : 500;
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
    if (fd < 0 || sendto(fd, "READY=1", 7, 0, (struct sockaddr *) &address, size) < 0) {
        return 1;
    }
    struct timespec wait = { period / 1000, (period % 1000) * 1000000L };
    for (;;) {
        nanosleep(&wait, NULL);
        sendto(fd, "WATCHDOG=1", 10, 0, (struct sockaddr *) &address, size);
    }
}
