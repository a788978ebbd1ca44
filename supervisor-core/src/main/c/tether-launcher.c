/*
 * tether-launcher: arms the parent-death signal between fork and exec, then becomes the command.
 *
 *   tether-launcher [--chdir <directory>] <signal-number> <supervisor-pid> <executable-path> <argv0> [args...]
 *   tether-launcher --self-test          exits 0 (the supervisor's check that this binary runs here)
 *   tether-launcher [--chdir <directory>] --shepherd ...   stays as the command's shepherd (see tether-shepherd.c)
 *
 * --chdir changes directory before the command runs, for a glibc without posix_spawn_file_actions_addchdir_np
 * (older than 2.29).
 *
 * Exit codes when the command never starts: 125 bad usage or the directory cannot be entered, 126 the supervisor
 * died before the signal was armed (the command is not run), 127 exec failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>

#include "tether-launcher.h"

void say(const char *a, const char *b) {
    /* Why: no stdio, so the static binary stays small and nothing is buffered across exec. */
    write(2, "tether-launcher: ", 17);
    write(2, a, strlen(a));
    if (b) { write(2, b, strlen(b)); }
    write(2, "\n", 1);
}

void close_from_3(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) {
        return;
    }
#endif
    /* Why: kernels before 5.9 lack close_range; walk our own descriptor table instead. */
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        for (int fd = 3; fd < 65536; fd++) close(fd);
        return;
    }
    int self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (fd >= 3 && fd != self) close(fd);
    }
    closedir(d);
}

static int enter(const char *directory) {
    if (chdir(directory) == 0) {
        return 0;
    }
    const char *reason = strerror(errno);
    say("cannot change directory to ", directory);
    say("chdir: ", reason);
    return -1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--self-test") == 0) {
        return 0;
    }
    const char *directory = NULL;
    if (argc > 2 && strcmp(argv[1], "--chdir") == 0) {
        directory = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc >= 2 && strcmp(argv[1], "--shepherd") == 0) {
        /* Why before the shepherd starts: its command inherits the directory. */
        if (directory && enter(directory) != 0) {
            return 125;
        }
        return shepherd_main(argc - 1, &argv[1]);
    }
    if (argc < 5) {
        say("usage: tether-launcher [--chdir <directory>] <signal> <supervisor-pid> <executable> <argv0> [args...]",
            NULL);
        return 125;
    }
    int sig = atoi(argv[1]);
    pid_t supervisor = (pid_t) atol(argv[2]);
    if (sig > 0 && prctl(PR_SET_PDEATHSIG, sig) != 0) {
        say("prctl(PR_SET_PDEATHSIG) failed: ", strerror(errno));
        return 125;
    }
    /* Why: the supervisor may have died between fork and prctl; the signal would then never come. */
    if (getppid() != supervisor) {
        say("supervisor is gone, not starting ", argv[3]);
        return 126;
    }
    if (directory && enter(directory) != 0) {
        return 125;
    }
    close_from_3();
    execv(argv[3], &argv[4]);
    say("exec failed: ", strerror(errno));
    return 127;
}
