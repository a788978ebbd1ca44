/*
 * tether-launcher: arms the parent-death signal between fork and exec, then becomes the command.
 *
 *   tether-launcher [--chdir <directory>] [settings] <signal-number> <supervisor-pid> <executable-path> <argv0>
 *                   [args...]
 *   tether-launcher --self-test          exits 0 (the supervisor's check that this binary runs here)
 *   tether-launcher [--chdir <directory>] --shepherd ...   stays as the command's shepherd (see tether-shepherd.c)
 *
 * The settings (--limit, --oom-score-adjust, --pid-env, --listen-socket; see tether-settings.c) are applied to the command just before its exec,
 * in either mode; a shepherd keeps its own limits.
 *
 * --chdir changes directory before the command runs, for a glibc without posix_spawn_file_actions_addchdir_np
 * (older than 2.29).
 *
 * Exit codes when the command never starts: 125 bad usage, the directory cannot be entered or a setting cannot be
 * applied, 126 the supervisor died before the signal was armed (the command is not run), 127 exec failed.
 */
#include "tether-launcher.h"

unsigned long text_length(const char *s) {
    unsigned long n = 0;
    while (s[n]) n++;
    return n;
}

int text_equals(const char *a, const char *b) {
    while (*a && *a == *b) { a++; b++; }
    return *a == *b;
}

long text_to_long(const char *s, const char **end) {
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
    int negative = *s == '-';
    if (*s == '-' || *s == '+') s++;
    long n = 0;
    while (*s >= '0' && *s <= '9') n = n * 10 + (*s++ - '0');
    if (end) *end = s;
    return negative ? -n : n;
}

int text_from_long(char *out, long n) {
    char digits[20];
    int d = 0;
    do { digits[d++] = (char) ('0' + n % 10); n /= 10; } while (n > 0);
    for (int i = 0; i < d; i++) out[i] = digits[d - 1 - i];
    return d;
}

static void say_parts(const char *a, const char *b, const char *c) {
    /* Why one write per piece and no buffer: nothing is buffered across exec, and there is no stdio. */
    sys_write(2, "tether-launcher: ", 17);
    sys_write(2, a, text_length(a));
    if (b) sys_write(2, b, text_length(b));
    if (c) sys_write(2, c, text_length(c));
    sys_write(2, "\n", 1);
}

void say(const char *a, const char *b) {
    say_parts(a, b, 0);
}

/* The reasons an exec, a chdir or a prctl can give, worded as strerror words them. */
static const struct { int error; const char *text; } reasons[] = {
    { ENOENT, "No such file or directory" },
    { EACCES, "Permission denied" },
    { ENOEXEC, "Exec format error" },
    { ENOTDIR, "Not a directory" },
    { ENOMEM, "Cannot allocate memory" },
    { E2BIG, "Argument list too long" },
    { ELOOP, "Too many levels of symbolic links" },
    { ENAMETOOLONG, "File name too long" },
    { ETXTBSY, "Text file busy" },
    { EPERM, "Operation not permitted" },
    { EINVAL, "Invalid argument" },
    { EAGAIN, "Resource temporarily unavailable" },
};

void say_failed(const char *what, long error) {
    for (unsigned long i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (reasons[i].error == -error) {
            say_parts(what, ": ", reasons[i].text);
            return;
        }
    }
    char other[32] = "errno ";
    other[6 + text_from_long(other + 6, -error)] = 0;
    say_parts(what, ": ", other);
}

void close_from(int first) {
    if (sys_close_from(first) == 0) {
        return;
    }
    /* Why: kernels before 5.9 lack close_range; walk our own descriptor table instead. */
    long dir = sys_open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
        for (int fd = first; fd < 65536; fd++) sys_close(fd);
        return;
    }
    char entries[512];
    long n;
    while ((n = sys_getdents(dir, entries, sizeof entries)) > 0) {
        for (long at = 0; at < n; at += ((struct sys_dirent *) (entries + at))->reclen) {
            const char *name = ((struct sys_dirent *) (entries + at))->name;
            long fd = text_to_long(name, 0);
            if (fd >= first && fd != dir) sys_close((int) fd);
        }
    }
    sys_close(dir);
}

static int enter(const char *directory) {
    long result = sys_chdir(directory);
    if (result == 0) {
        return 0;
    }
    say("cannot change directory to ", directory);
    say_failed("chdir", result);
    return -1;
}

int launcher_main(int argc, char **argv, char **envp) {
    if (argc == 2 && text_equals(argv[1], "--self-test")) {
        return 0;
    }
    const char *directory = 0;
    for (;;) {
        int taken = settings_option(argc, argv);
        if (taken == 0 && argc > 2 && text_equals(argv[1], "--chdir")) {
            directory = argv[2];
            taken = 2;
        }
        if (taken < 0) return 125;
        if (taken == 0) break;
        argv += taken;
        argc -= taken;
    }
    if (argc >= 2 && text_equals(argv[1], "--shepherd")) {
        /* Why before the shepherd starts: its command inherits the directory. */
        if (directory && enter(directory) != 0) {
            return 125;
        }
        return shepherd_main(argc - 1, &argv[1], envp);
    }
    if (argc < 5) {
        say("usage: tether-launcher [--chdir <directory>] <signal> <supervisor-pid> <executable> <argv0> [args...]",
            0);
        return 125;
    }
    int sig = (int) text_to_long(argv[1], 0);
    long supervisor = text_to_long(argv[2], 0);
    long armed = sig > 0 ? sys_prctl(PR_SET_PDEATHSIG, (unsigned long) sig) : 0;
    if (armed != 0) {
        say_failed("prctl(PR_SET_PDEATHSIG) failed", armed);
        return 125;
    }
    /* Why: the supervisor may have died between fork and prctl; the signal would then never come. */
    if (sys_getppid() != supervisor) {
        say("supervisor is gone, not starting ", argv[3]);
        return 126;
    }
    if (directory && enter(directory) != 0) {
        return 125;
    }
    if (settings_apply() != 0) {
        return 125;
    }
    close_from(settings_first_closed());
    say_failed("exec failed", settings_execve(argv[3], &argv[4], envp));
    return 127;
}
