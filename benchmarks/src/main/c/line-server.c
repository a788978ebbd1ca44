/*
 * line-server: the child of the restart rows. It answers each connection with one line, its pid, and closes it. It
 * accepts on the listening socket it is handed (socket activation: descriptor 3, checked against LISTEN_FDS and
 * LISTEN_PID as sd_listen_fds() checks them), or, given a port, on 127.0.0.1:<port> that it binds itself: the same
 * server without socket activation. It first takes <start-ms> milliseconds to start, as a server that initialises
 * before it serves (a signal ends it meanwhile). On SIGTERM it finishes the connection in hand and exits 0 at once,
 * leaving what waits in the backlog to the next process. Once it serves it prints "serving" (its readiness for a
 * rolling restart, by readiness.log-line).
 *   line-server <start-ms>            (socket activation)
 *   line-server <start-ms> <port>     (binds its port)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void stop(int signal) {
    (void) signal;
    stopping = 1;
}

static int handed(void) {
    const char *pid = getenv("LISTEN_PID");
    const char *fds = getenv("LISTEN_FDS");
    if (pid == NULL || fds == NULL || atol(pid) != (long) getpid() || strcmp(fds, "1") != 0) {
        fprintf(stderr, "line-server: not handed a socket: LISTEN_PID=%s LISTEN_FDS=%s, pid %ld\n",
                pid ? pid : "", fds ? fds : "", (long) getpid());
        return -1;
    }
    return 3;
}

static int bound(int port) {
    int server = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short) port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* 4096: the kernel caps it at net.core.somaxconn, as it does the supervisor's socket by default. */
    if (server < 0 || setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
            || bind(server, (struct sockaddr *) &address, sizeof address) != 0 || listen(server, 4096) != 0) {
        perror("line-server");
        return -1;
    }
    return server;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: line-server <start-ms> [port]\n");
        return 2;
    }
    long start = atol(argv[1]);
    struct timespec starting = { start / 1000, (start % 1000) * 1000000L };
    nanosleep(&starting, NULL);
    int server = (argc > 2) ? bound(atoi(argv[2])) : handed();
    if (server < 0) {
        return 2;
    }
    printf("serving\n");
    fflush(stdout);
    /*
     * SIGTERM is blocked except inside ppoll(), which unblocks it atomically: a stop that comes while a connection is
     * served is seen right after it, and one that comes while waiting ends the wait at once (no polling period adds
     * to a restart's gap).
     */
    sigset_t term, waiting;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, &waiting);
    sigdelset(&waiting, SIGTERM);
    struct sigaction action = { .sa_handler = stop };
    sigaction(SIGTERM, &action, NULL);
    char line[32];
    int length = snprintf(line, sizeof line, "%ld\n", (long) getpid());
    struct pollfd listening = { .fd = server, .events = POLLIN };
    sigset_t pending;
    while (!stopping) {
        if (ppoll(&listening, 1, NULL, &waiting) <= 0) {
            continue;
        }
        if (listening.revents & (POLLERR | POLLNVAL)) {
            fprintf(stderr, "line-server: descriptor %d is not a listening socket\n", server);
            return 1;
        }
        /* Why: a ppoll() that finds a connection waiting returns without taking a pending SIGTERM. */
        sigpending(&pending);
        if (sigismember(&pending, SIGTERM)) {
            break;
        }
        int connection = accept4(server, NULL, NULL, SOCK_CLOEXEC);
        if (connection < 0) {
            continue;
        }
        ssize_t ignored = send(connection, line, (size_t) length, MSG_NOSIGNAL);
        (void) ignored;
        close(connection);
    }
    return 0;
}
