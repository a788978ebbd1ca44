/*
 * The floor the resources view is measured against: the same /proc reads as Tether's tree sampler, with no runtime in
 * between. For each command pid given, its tree is walked from the command's parent (its shepherd) through each
 * process's children list: the shepherd's stat and children; each descendant's stat, memory file and children; the
 * command's fd directory by fstat. Files are opened once and read again at offset 0 (pread), as the sampler keeps
 * them. Unlike the sampler, it keeps every file, however many: it is the floor, not what a budget of descriptors
 * allows.
 *
 *   proc-floor <status|statm> <passes> <pause-ms> <command-pid>...
 *       prints "pass <microseconds per tree>" for each pass after one untimed pass that opens the files, and
 *       "processes <n>" (the processes the last pass found under the shepherds, the shepherds not counted); sleeps
 *       pause-ms before each pass, as the Java row waits out the view's cache (after an idle pause a walk costs up to
 *       three times what it costs back to back: the caches have gone cold)
 *
 * The memory file is statm (its second field, the resident pages), which the sampler reads, or status (VmRSS, a line
 * among some fifty), which it read before: the kernel fills both from the same counters, and the pair of runs shows
 * what the choice is worth.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEPT 65536
#define MAX_PID 4194304

struct kept {
    long pid;
    int stat, memory, children, fd;
};

static struct kept kept[MAX_KEPT];
static int kept_count;
/* Why an index by pid: a lookup must cost nothing next to a read, as the sampler's hash map does. */
static int slot[MAX_PID + 1];
static const char *memory_file;
static char buffer[65536];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int open_at(long pid, const char *name) {
    char path[96];
    snprintf(path, sizeof path, "/proc/%ld/%s", pid, name);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* The kept files of pid, opened at its first sight. */
static struct kept *find(long pid, int memory) {
    if (pid <= 0 || pid > MAX_PID) {
        fprintf(stderr, "proc-floor: pid %ld out of range\n", pid);
        exit(1);
    }
    if (slot[pid] > 0) {
        return &kept[slot[pid] - 1];
    }
    if (kept_count == MAX_KEPT) {
        fprintf(stderr, "proc-floor: more than %d processes\n", MAX_KEPT);
        exit(1);
    }
    struct kept *k = &kept[kept_count++];
    slot[pid] = kept_count;
    char children[64];
    snprintf(children, sizeof children, "task/%ld/children", pid);
    k->pid = pid;
    k->stat = open_at(pid, "stat");
    k->memory = memory ? open_at(pid, memory_file) : -1;
    k->children = open_at(pid, children);
    k->fd = -1;
    return k;
}

/*
 * The CPU ticks of a stat line in the buffer, in one pass as the sampler parses it: utime, stime, cutime and cstime
 * (fields 14 to 17 of proc(5)), with or without the process's own; its thread count (field 20) is parsed too.
 */
static long ticks_of(int own, long *threads) {
    char *p = strrchr(buffer, ')') + 2;
    long ticks = 0;
    for (int field = 3; field <= 20; field++) {
        char *end;
        long value = strtol(p, &end, 10);
        if ((field == 14 || field == 15) && own) {
            ticks += value;
        }
        else if (field == 16 || field == 17) {
            ticks += value;
        }
        else if (field == 20) {
            *threads = value;
        }
        p = strchr(end, ' ') + 1;
    }
    return ticks;
}

static ssize_t read_whole(int fd) {
    return (fd < 0) ? -1 : pread(fd, buffer, sizeof buffer - 1, 0);
}

/* Appends the pids of a kept children list to pending, up to its 4,096 entries; returns the new count. */
static int add_children(int fd, long *pending, int count) {
    ssize_t length = read_whole(fd);
    for (char *p = buffer; length > 0 && p < buffer + length && count < 4096;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p) {
            break;
        }
        pending[count++] = pid;
        p = end + 1;
    }
    return count;
}

/* Walks one tree from its shepherd; returns the processes found under it, their sums kept in the totals. */
static int walk(struct kept **cache, long shepherd, long command, long *ticks, long *resident) {
    long pending[4096];
    int count = 0;
    int found = 0;
    struct kept *root = cache[0] ? cache[0] : (cache[0] = find(shepherd, 0));
    ssize_t length = read_whole(root->stat);
    if (length > 0) {
        buffer[length] = 0;
        long threads;
        *ticks += ticks_of(0, &threads);
    }
    count = add_children(root->children, pending, count);
    for (int i = 0; i < count; i++) {
        struct kept *k = find(pending[i], 1);
        if ((length = read_whole(k->stat)) <= 0) {
            continue;
        }
        buffer[length] = 0;
        long threads;
        *ticks += ticks_of(1, &threads);
        if ((length = read_whole(k->memory)) > 0) {
            buffer[length] = 0;
            long kilobytes = 0;
            if (strcmp(memory_file, "statm") == 0) {
                kilobytes = strtol(strchr(buffer, ' ') + 1, NULL, 10) * (sysconf(_SC_PAGESIZE) / 1024);
            }
            else {
                char *line = strstr(buffer, "VmRSS:");
                kilobytes = line ? atol(line + 6) : 0;
            }
            *resident += kilobytes;
        }
        found++;
        count = add_children(k->children, pending, count);
        if (pending[i] == command) {
            if (k->fd < 0) {
                k->fd = open_at(command, "fd");
            }
            struct stat directory;
            fstat(k->fd, &directory);
        }
    }
    return found;
}

static long parent_of(long pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *file = fopen(path, "r");
    if (file == NULL || fread(buffer, 1, sizeof buffer - 1, file) == 0) {
        fprintf(stderr, "proc-floor: cannot read %s\n", path);
        exit(1);
    }
    fclose(file);
    long parent = 0;
    sscanf(strrchr(buffer, ')') + 2, "%*c %ld", &parent);
    return parent;
}

int main(int argc, char **argv) {
    if (argc < 5 || (strcmp(argv[1], "status") != 0 && strcmp(argv[1], "statm") != 0)) {
        fprintf(stderr, "usage: proc-floor <status|statm> <passes> <pause-ms> <command-pid>...\n");
        return 2;
    }
    memory_file = argv[1];
    /* Why: four descriptors per process of a thousand trees pass the usual soft limit of 1,024. */
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    int passes = atoi(argv[2]);
    struct timespec pause = { atoi(argv[3]) / 1000, (atoi(argv[3]) % 1000) * 1000000L };
    int trees = argc - 4;
    long *commands = calloc(trees, sizeof(long));
    long *shepherds = calloc(trees, sizeof(long));
    struct kept **roots = calloc(trees, sizeof(struct kept *));
    for (int t = 0; t < trees; t++) {
        commands[t] = atol(argv[t + 4]);
        shepherds[t] = parent_of(commands[t]);
    }
    long ticks = 0, resident = 0;
    int processes = 0;
    for (int pass = 0; pass <= passes; pass++) {
        nanosleep(&pause, NULL);
        double started = now();
        processes = 0;
        for (int t = 0; t < trees; t++) {
            processes += walk(&roots[t], shepherds[t], commands[t], &ticks, &resident);
        }
        if (pass > 0) {
            printf("pass %.2f\n", (now() - started) * 1e6 / trees);
        }
    }
    printf("processes %d\n", processes);
    return 0;
}
