/*
 * What the launcher sets on the command itself, between fork and exec: its resource limits and its OOM score
 * adjustment. Never on the shepherd: it stays unlimited, so it can always end the tree it contains.
 *
 *   --limit <name> <soft> <hard>     name: cpu, fsize, core, nproc, nofile or as; soft and hard in the kernel's
 *                                    units (seconds, bytes, processes, descriptors) or "infinity"
 *   --oom-score-adjust <value>       -1000 to 1000, written to /proc/self/oom_score_adj
 *
 * Why names, not numbers: the RLIMIT_ numbers differ between architectures; the kernel's headers give the right
 * ones here.
 */
#include "tether-launcher.h"

#define SETTINGS_MAX_LIMITS 8

static struct {
    int count;
    int resource[SETTINGS_MAX_LIMITS];
    unsigned long long soft[SETTINGS_MAX_LIMITS];
    unsigned long long hard[SETTINGS_MAX_LIMITS];
    int oom_set;
    long oom;
} settings;

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
    return 0;
}

int settings_apply(void) {
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
