/*
 * The shepherd: the launcher's second mode, a tiny supervising process that stays between the supervisor and the
 * command so that every descendant of the command ends with it (after s6-supervise, runsv and tini).
 *
 *   tether-launcher --shepherd <signal-number> <supervisor-pid> <executable-path> <argv0> [args...]
 *
 * - Its own parent-death signal is SHEPHERD_PARENT_DIED (armed race-free: exit 126 if the supervisor is already gone).
 * - It is a child subreaper: every orphaned descendant of the command is re-parented to it.
 * - The command runs in a process group of its own, with <signal-number> as its parent-death signal tied to the
 *   shepherd, descriptors from 3 closed and signal mask and dispositions reset (exit 127 if exec fails).
 * - Every other signal (TERM, INT, HUP, QUIT, USR1, USR2, CONT, ...) is forwarded to the command's group while
 *   the supervisor lives; SIGCHLD is the shepherd's own.
 * - SHEPHERD_KILL_TREE (signal 40, SIGRTMIN+6 under glibc) ends the whole tree at once with SIGKILL.
 * - When the command exits, or the supervisor dies, every remaining descendant gets <signal-number> (SIGTERM if 0),
 *   then SIGKILL after SHEPHERD_GRACE_SECONDS, pass after pass until the shepherd has no child left; then it exits
 *   with the command's exact status: its code, or the same signal re-raised on itself (no core file).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tether-launcher.h"

/* Why fixed numbers, not SIGRTMIN+n: the supervisor sends them by number, and glibc reserves 32 and 33. */
#define SHEPHERD_KILL_TREE 40
#define SHEPHERD_PARENT_DIED 41
#define SHEPHERD_GRACE_SECONDS 2

static pid_t command = 0;
static pid_t command_group = 0;
static int command_status = -1;
static int tree_signal = SIGTERM;

/* Why every other signal: the supervisor's stop signal is configurable (TERM, INT, HUP, QUIT, USR1, ...). */
static int forwarded(int sig) {
    return sig != SIGCHLD && sig != SHEPHERD_KILL_TREE && sig != SHEPHERD_PARENT_DIED;
}

/* Reads up to size-1 bytes of a /proc file into buf, NUL-terminated; -1 when it cannot be opened. */
static ssize_t read_proc(const char *prefix, long pid, const char *suffix, char *buf, size_t size) {
    /* Why by hand: no stdio, as in the launcher's exec mode. */
    char path[96], digits[24];
    int d = 0;
    do { digits[d++] = (char) ('0' + pid % 10); pid /= 10; } while (pid > 0);
    size_t p = strlen(prefix);
    memcpy(path, prefix, p);
    while (d > 0) path[p++] = digits[--d];
    strcpy(path + p, suffix);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = 0;
    ssize_t r;
    while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0) n += (size_t) r;
    close(fd);
    buf[n] = 0;
    return (ssize_t) n;
}

/* Reads ppid and process group from /proc/<pid>/stat (fields after the last ')': state, ppid, pgrp). */
static int proc_stat(long pid, long *ppid, long *pgrp) {
    char stat[512];
    if (read_proc("/proc/", pid, "/stat", stat, sizeof stat) < 0) return -1;
    char *close_paren = strrchr(stat, ')');
    if (!close_paren || close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ') return -1;
    char *end;
    *ppid = strtol(close_paren + 4, &end, 10);
    *pgrp = strtol(end, NULL, 10);
    return 0;
}

/* The children already asked to end with the tree signal. Why: a second SIGTERM often means "stop now" (Node, shells
 * with traps), so each child gets it once; SIGKILL goes to all. Beyond the table's size a child may get it twice. */
static pid_t asked[1024];
static size_t asked_count = 0;

static int asked_before(pid_t pid) {
    for (size_t i = 0; i < asked_count; i++) {
        if (asked[i] == pid) return 1;
    }
    return 0;
}

/* Returns 1 the first time a pid is asked (and always for SIGKILL), and remembers it. */
static int first_ask(pid_t pid, int sig) {
    if (sig == SIGKILL) return 1;
    if (asked_before(pid)) return 0;
    if (asked_count < sizeof asked / sizeof asked[0]) asked[asked_count++] = pid;
    return 1;
}

static void signal_child(pid_t pid, int sig) {
    long ppid, pgrp;
    /* Why: a member of the command's group got the tree signal with its group already. */
    if (sig != SIGKILL && asked_before(-command_group) && proc_stat(pid, &ppid, &pgrp) == 0
            && pgrp == command_group) {
        first_ask(pid, sig);
        return;
    }
    if (first_ask(pid, sig)) kill(pid, sig);
}

/* Signals the command's group, the tree signal once; only while the command is unreaped, so that its id is ours. */
static void signal_group(int sig) {
    /* The group is remembered as its negated id; its leader, the command, is asked with it. */
    if (command > 0 && first_ask(-command_group, sig)) {
        first_ask(command, sig);
        kill(-command, sig);
    }
}

static void signal_pid_list(char *list, int sig) {
    char *next = list;
    while (*next) {
        char *end;
        long pid = strtol(next, &end, 10);
        if (end == next) break;
        if (pid > 1) signal_child((pid_t) pid, sig);
        next = end;
        while (*next == ' ' || *next == '\n') next++;
    }
}

/* Why a /proc scan as fallback: /proc/<pid>/task/<tid>/children needs CONFIG_PROC_CHILDREN. */
static void signal_children_by_scan(int sig) {
    DIR *d = opendir("/proc");
    if (!d) return;
    pid_t self = getpid();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = atol(e->d_name), ppid, pgrp;
        if (pid > 1 && proc_stat(pid, &ppid, &pgrp) == 0 && ppid == self) {
            signal_child((pid_t) pid, sig);
        }
    }
    closedir(d);
}

static void signal_children(int sig) {
    static char list[65536];
    pid_t self = getpid();
    ssize_t n = read_proc("/proc/self/task/", self, "/children", list, sizeof list);
    if (n < 0 || (size_t) n == sizeof list - 1) {
        /* Why: the children file is missing, or more children than the buffer holds; the scan sees them all. */
        signal_children_by_scan(sig);
        return;
    }
    signal_pid_list(list, sig);
}

/* Reaps every exited child; returns 1 when no child is left. The command's group is signalled while its zombie
 * still holds the group id, so the id cannot name anyone else's group. */
static int reap(int ending_signal) {
    if (command > 0) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, command, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == command) {
            signal_group(ending_signal);
            int status;
            if (waitpid(command, &status, 0) == command) {
                command_status = status;
            }
            command = 0;
        }
    }
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0 && pid == command) {
            command_status = status;
            command = 0;
        }
        if (pid > 0) continue;
        return pid < 0 && errno == ECHILD;
    }
}

static int exit_like(int status) {
    if (status == -1) {
        return 125;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        signal(sig, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        kill(getpid(), sig);
        return 128 + sig;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}

static pid_t start_command(pid_t shepherd, int sig, char *executable, char **args, const sigset_t *original) {
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0) setpgid(pid, pid);
        return pid;
    }
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, sig) != 0 || getppid() != shepherd) {
        _exit(126);
    }
    for (int s = 1; s < NSIG; s++) {
        signal(s, SIG_DFL);
    }
    sigprocmask(SIG_SETMASK, original, NULL);
    execv(executable, args);
    say("exec failed: ", strerror(errno));
    _exit(127);
}

int shepherd_main(int argc, char **argv) {
    if (argc < 5) {
        say("usage: tether-launcher --shepherd <signal> <supervisor-pid> <executable> <argv0> [args...]", NULL);
        return 125;
    }
    int sig = atoi(argv[1]);
    pid_t supervisor = (pid_t) atol(argv[2]);
    tree_signal = (sig > 0) ? sig : SIGTERM;
    /* Why block first: every signal is then taken in the loop, none is lost between arming and waiting. */
    sigset_t all, empty;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    sigemptyset(&empty);
    sigprocmask(SIG_BLOCK, &all, NULL);
    if (prctl(PR_SET_PDEATHSIG, SHEPHERD_PARENT_DIED) != 0) {
        say("prctl(PR_SET_PDEATHSIG) failed: ", strerror(errno));
        return 125;
    }
    if (getppid() != supervisor) {
        say("supervisor is gone, not starting ", argv[3]);
        return 126;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        say("prctl(PR_SET_CHILD_SUBREAPER) failed: ", strerror(errno));
        return 125;
    }
    close_from_3();
    command = start_command(getpid(), tree_signal, argv[3], &argv[4], &empty);
    command_group = command;
    if (command < 0) {
        say("fork failed: ", strerror(errno));
        return 125;
    }
    int ending = 0;
    int killing = 0;
    struct timespec deadline = { 0, 0 };
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (ending && !killing && (now.tv_sec > deadline.tv_sec
                || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))) {
            killing = 1;
        }
        if (ending) {
            /* Why every pass: orphans are re-parented to us only once their own parent has exited. */
            int s = killing ? SIGKILL : tree_signal;
            signal_group(s);
            signal_children(s);
            if (reap(s)) {
                return exit_like(command_status);
            }
        }
        siginfo_t info;
        int received;
        if (ending) {
            /* Why a short wait: an orphan that appears is not announced, and SIGKILL is due at the deadline. */
            struct timespec wait = { 0, killing ? 20000000 : 100000000 };
            received = sigtimedwait(&all, &info, &wait);
        }
        else {
            received = sigwaitinfo(&all, &info);
        }
        int parent_alive = getppid() == supervisor;
        if (received == SHEPHERD_KILL_TREE) {
            killing = 1;
        }
        else if (received > 0 && forwarded(received) && parent_alive && command > 0 && !ending) {
            kill(-command, received);
        }
        if (!ending && (received == SIGCHLD || !parent_alive || killing)) {
            reap(killing ? SIGKILL : tree_signal);
            if (command == 0 || !parent_alive || killing) {
                ending = 1;
                clock_gettime(CLOCK_MONOTONIC, &deadline);
                deadline.tv_sec += SHEPHERD_GRACE_SECONDS;
            }
        }
    }
}
