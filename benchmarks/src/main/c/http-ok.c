/*
 * The child of the probe rows: an HTTP server that answers every request with "200 OK" and closes the connection,
 * one connection at a time, so that 500 of them cost little more than their page tables.
 *
 *   http-ok <port>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char ANSWER[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: http-ok <port>\n");
        return 2;
    }
    int server = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short) atoi(argv[1])) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (server < 0 || bind(server, (struct sockaddr *) &address, sizeof(address)) != 0 || listen(server, 16) != 0) {
        perror("http-ok");
        return 1;
    }
    char request[4096];
    for (;;) {
        int connection = accept4(server, NULL, NULL, SOCK_CLOEXEC);
        if (connection < 0) {
            continue;
        }
        /* One read holds a probe's whole request: it is a few dozen bytes. */
        if (read(connection, request, sizeof(request)) > 0) {
            ssize_t ignored = write(connection, ANSWER, sizeof(ANSWER) - 1);
            (void) ignored;
        }
        close(connection);
    }
}
