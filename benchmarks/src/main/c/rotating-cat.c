/*
 * The floor of the rotated output row: what a plain C reader costs that does what the pump does with a file sink
 * rotated by size, and nothing else (no line count, no cut of long lines, no logger).
 *
 *   rotating-cat <file> <max-size> <max-history>
 *
 * Reads its stdin in 128 KB reads (the pump's read size) and appends whole lines to <file>. Where the lines read do
 * not fit within <max-size>, those that fit are written, and the file is rotated as Tether rotates it: <file>.N is
 * deleted for N = max-history, each <file>.N moved to <file>.N+1, <file> to <file>.1, and a new <file> created
 * (owner-only, exclusively). The line left incomplete at the end of a read goes before the next read, in the same
 * write; lines up to 4 KB long. The deletion frees the file's pages on this thread, as any single-threaded rotating writer does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (128 * 1024)
#define HEADROOM 4096

static const char *file;
static long long max_size;
static int max_history;
static int out = -1;
static long long size;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static void open_file(void) {
    out = open(file, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (out < 0) {
        fail(file);
    }
    size = 0;
}

static void rotated(char *name, size_t length, int index) {
    snprintf(name, length, "%s.%d", file, index);
}

static void rotate(void) {
    char older[4096];
    char newer[4096];
    close(out);
    rotated(older, sizeof older, max_history);
    if (unlink(older) != 0 && errno != ENOENT) {
        fail(older);
    }
    for (int index = max_history - 1; index >= 1; index--) {
        rotated(older, sizeof older, index);
        rotated(newer, sizeof newer, index + 1);
        if (rename(older, newer) != 0 && errno != ENOENT) {
            fail(older);
        }
    }
    rotated(newer, sizeof newer, 1);
    if (rename(file, newer) != 0) {
        fail(file);
    }
    open_file();
}

static void write_fully(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(out, bytes, length);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail("write");
        }
        bytes += written;
        length -= (size_t) written;
        size += written;
    }
}

/* The length of the lines of bytes[0..length) that end within room bytes, or 0. */
static size_t lines_within(const char *bytes, size_t length, long long room) {
    size_t end = (room < (long long) length) ? (size_t) room : length;
    const char *newline = memrchr(bytes, '\n', end);
    return (newline == NULL) ? 0 : (size_t) (newline - bytes) + 1;
}

/* Appends whole lines, rotating first where they do not fit. */
static void append(const char *bytes, size_t length) {
    while (length > 0) {
        if ((long long) length <= max_size - size) {
            write_fully(bytes, length);
            return;
        }
        size_t fitting = lines_within(bytes, length, max_size - size);
        if (fitting == 0 && size == 0) {
            const char *newline = memchr(bytes, '\n', length);
            fitting = (newline == NULL) ? length : (size_t) (newline - bytes) + 1;
        }
        write_fully(bytes, fitting);
        bytes += fitting;
        length -= fitting;
        rotate();
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: rotating-cat <file> <max-size> <max-history>\n");
        return 2;
    }
    file = argv[1];
    max_size = atoll(argv[2]);
    max_history = atoi(argv[3]);
    static char buffer[HEADROOM + CHUNK];
    size_t carried = 0;
    open_file();
    for (;;) {
        ssize_t got = read(STDIN_FILENO, buffer + carried, CHUNK);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail("read");
        }
        if (got == 0) {
            break;
        }
        size_t length = carried + (size_t) got;
        const char *newline = memrchr(buffer, '\n', length);
        size_t whole = (newline == NULL) ? 0 : (size_t) (newline - buffer) + 1;
        append(buffer, whole);
        carried = length - whole;
        if (carried > HEADROOM) {
            fprintf(stderr, "rotating-cat: a line longer than %d bytes\n", HEADROOM);
            return 1;
        }
        memmove(buffer, buffer + whole, carried);
    }
    append(buffer, carried);
    return close(out) == 0 ? 0 : 1;
}
