/*
 * What the launcher sets on the command itself, between fork and exec: its resource limits and its OOM score
 * adjustment. Never on the shepherd: it stays unlimited, so it can always end the tree it contains.
 *
 *   --limit <name> <soft> <hard>     name: cpu, fsize, core, nproc, nofile or as; soft and hard in the kernel's
 *                                    units (seconds, bytes, processes, descriptors) or "infinity"
 *   --oom-score-adjust <value>       -1000 to 1000, written to /proc/self/oom_score_adj
 *   --pid-env <NAME>                 the command's environment gets NAME=<its own pid> (WATCHDOG_PID, LISTEN_PID):
 *                                    only here, between fork and exec, is that pid known; at most two names
 *   --listen-socket                  the descriptor after the shepherd's held ones (3 for the launcher alone) is a
 *                                    listening socket the command gets as descriptor 3, systemd's first LISTEN_FDS
 *                                    descriptor; it is the only descriptor from 3 up that the command keeps
 *
 * Why names, not numbers: the RLIMIT_ numbers differ between architectures; the kernel's headers give the right
 * ones here.
 */
#include "tether-launcher.h"

#define SETTINGS_MAX_LIMITS 8

#define SETTINGS_MAX_PID_ENV 2

/* Why a bound: a name and its pid fit one entry of settings_execve's, on the stack. */
#define SETTINGS_MAX_NAME 40

static struct {
    int count;
    int resource[SETTINGS_MAX_LIMITS];
    unsigned long long soft[SETTINGS_MAX_LIMITS];
    unsigned long long hard[SETTINGS_MAX_LIMITS];
    int oom_set;
    long oom;
    int pid_env_count;
    const char *pid_env[SETTINGS_MAX_PID_ENV];
    int listen_fd;
} settings = { .listen_fd = -1 };

static const struct { const char *name; int resource; } resources[] = {
    { "cpu", RLIMIT_CPU },
    { "fsize", RLIMIT_FSIZE },
    { "core", RLIMIT_CORE },
    { "nproc", RLIMIT_NPROC },
    { "nofile", RLIMIT_NOFILE },
    { "as", RLIMIT_AS },
};

/* A limit's value; 0 when it is neither digits nor "infinity". */
static int limit_value(const char *text, unsigned long long *value) {
    if (text_equals(text, "infinity")) {
        *value = RLIM_INFINITY;
        return 1;
    }
    const char *end;
    long n = text_to_long(text, &end);
    if (*text < '0' || *text > '9' || *end || n < 0) return 0;
    *value = (unsigned long long) n;
    return 1;
}

int settings_option(int argc, char **argv) {
    if (argc > 4 && text_equals(argv[1], "--limit")) {
        if (settings.count == SETTINGS_MAX_LIMITS) return -1;
        for (unsigned long i = 0; i < sizeof resources / sizeof resources[0]; i++) {
            int n = settings.count;
            if (text_equals(argv[2], resources[i].name) && limit_value(argv[3], &settings.soft[n])
                    && limit_value(argv[4], &settings.hard[n])) {
                settings.resource[n] = resources[i].resource;
                settings.count++;
                return 4;
            }
        }
        say("bad --limit: ", argv[2]);
        return -1;
    }
    if (argc > 2 && text_equals(argv[1], "--oom-score-adjust")) {
        const char *end;
        settings.oom = text_to_long(argv[2], &end);
        settings.oom_set = 1;
        if (*end || settings.oom < -1000 || settings.oom > 1000) {
            say("bad --oom-score-adjust: ", argv[2]);
            return -1;
        }
        return 2;
    }
    if (argc > 2 && text_equals(argv[1], "--pid-env")) {
        const char *name = argv[2];
        unsigned long length = text_length(name);
        int valid = length > 0 && length <= SETTINGS_MAX_NAME && settings.pid_env_count < SETTINGS_MAX_PID_ENV;
        for (unsigned long i = 0; valid && i < length; i++) {
            char c = name[i];
            valid = (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
        }
        if (!valid) {
            say("bad --pid-env: ", name);
            return -1;
        }
        settings.pid_env[settings.pid_env_count++] = name;
        return 2;
    }
    if (argc > 1 && text_equals(argv[1], "--listen-socket")) {
        settings.listen_fd = SETTINGS_LISTEN_FD;
        return 1;
    }
    return 0;
}

int settings_listen_socket(int held) {
    if (settings.listen_fd >= 0) settings.listen_fd = SETTINGS_LISTEN_FD + held;
    return settings.listen_fd;
}

int settings_first_closed(void) {
    return settings.listen_fd >= 0 ? SETTINGS_LISTEN_FD + 1 : SETTINGS_LISTEN_FD;
}

/* Whether an environment entry is NAME=... */
static int is_variable(const char *entry, const char *name) {
    while (*name && *entry == *name) {
        entry++;
        name++;
    }
    return *name == 0 && *entry == '=';
}

long settings_execve(const char *executable, char **args, char **envp) {
    if (settings.pid_env_count == 0) {
        return sys_execve(executable, args, envp);
    }
    unsigned long count = 0;
    while (envp[count]) count++;
    /* Why on the stack: there is no allocator, and exec replaces this stack anyway. */
    char *env[count + SETTINGS_MAX_PID_ENV + 1];
    char entries[SETTINGS_MAX_PID_ENV][SETTINGS_MAX_NAME + 24];
    unsigned long kept = 0;
    for (unsigned long i = 0; i < count; i++) {
        int replaced = 0;
        for (int p = 0; p < settings.pid_env_count; p++) replaced |= is_variable(envp[i], settings.pid_env[p]);
        if (!replaced) env[kept++] = envp[i];
    }
    long pid = sys_getpid();
    for (int p = 0; p < settings.pid_env_count; p++) {
        char *entry = entries[p];
        unsigned long n = 0;
        for (const char *c = settings.pid_env[p]; *c; c++) entry[n++] = *c;
        entry[n++] = '=';
        n += (unsigned long) text_from_long(entry + n, pid);
        entry[n] = 0;
        env[kept++] = entry;
    }
    env[kept] = 0;
    return sys_execve(executable, args, env);
}

int settings_apply(void) {
    /* Why dup3 without flags: the copy at 3 must survive the exec; the one it came from is closed with the rest. */
    if (settings.listen_fd > SETTINGS_LISTEN_FD) {
        long moved = sys_dup3(settings.listen_fd, SETTINGS_LISTEN_FD);
        if (moved < 0) {
            say_failed("cannot hand the listening socket on as descriptor 3", moved);
            return -1;
        }
    }
    for (int i = 0; i < settings.count; i++) {
        long result = sys_set_limit(settings.resource[i], settings.soft[i], settings.hard[i]);
        if (result != 0) {
            say_failed("setrlimit failed", result);
            return -1;
        }
    }
    if (settings.oom_set) {
        long fd = sys_open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
        char text[24];
        int n = 0;
        if (settings.oom < 0) text[n++] = '-';
        n += text_from_long(text + n, settings.oom < 0 ? -settings.oom : settings.oom);
        long written = (fd < 0) ? fd : sys_write((int) fd, text, (unsigned long) n);
        if (fd >= 0) sys_close((int) fd);
        if (written < 0) {
            say_failed("cannot write /proc/self/oom_score_adj", written);
            return -1;
        }
    }
    return 0;
}
