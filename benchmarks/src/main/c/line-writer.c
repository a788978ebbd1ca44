/*
 * The child of the output rows: writes numbered 100-byte lines ("<20-digit number> xxx...x\n") to its stdout, the
 * same way whether stdout is a file or a pipe, so that the child costs the same on both sides of a ratio.
 *
 *   line-writer fast <lines>        that many lines as fast as it can, through a 64 KB stdio buffer, then exits
 *   line-writer paced <period-us>   one line per period (on an absolute clock), flushed each time, until killed
 *   line-writer idle                one line, flushed, then waits until killed
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE 100
#define DIGITS 20

static char line[LINE];

static void next_number(void) {
    for (int i = DIGITS - 1; i >= 0; i--) {
        if (line[i] != '9') {
            line[i]++;
            return;
        }
        line[i] = '0';
    }
}

static void put_line(void) {
    next_number();
    if (fwrite(line, 1, LINE, stdout) != LINE) {
        exit(1);
    }
}

int main(int argc, char **argv) {
    memset(line, '0', DIGITS);
    memset(line + DIGITS, 'x', LINE - DIGITS - 1);
    line[DIGITS] = ' ';
    line[LINE - 1] = '\n';
    static char buffer[64 * 1024];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    if (argc == 3 && strcmp(argv[1], "fast") == 0) {
        long long lines = atoll(argv[2]);
        for (long long i = 0; i < lines; i++) {
            put_line();
        }
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc == 3 && strcmp(argv[1], "paced") == 0) {
        long period = atol(argv[2]) * 1000;
        struct timespec next;
        clock_gettime(CLOCK_MONOTONIC, &next);
        for (;;) {
            put_line();
            if (fflush(stdout) != 0) {
                return 1;
            }
            next.tv_nsec += period;
            while (next.tv_nsec >= 1000000000L) {
                next.tv_nsec -= 1000000000L;
                next.tv_sec++;
            }
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        }
    }
    if (argc == 2 && strcmp(argv[1], "idle") == 0) {
        put_line();
        if (fflush(stdout) != 0) {
            return 1;
        }
        for (;;) {
            pause();
        }
    }
    fprintf(stderr, "usage: line-writer fast <lines> | paced <period-us> | idle\n");
    return 2;
}
