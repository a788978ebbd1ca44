/*
 * The shepherd: the launcher's second mode, a tiny supervising process that stays between the supervisor and the
 * command so that every descendant of the command ends with it (after s6-supervise, runsv and tini).
 *
 *   tether-launcher --shepherd [--hold-output <count>] <signal-number> <supervisor-pid> <executable-path> <argv0>
 *                   [args...]
 *
 * - Its own parent-death signal is SIGCONT (armed race-free: exit 126 if the supervisor is already gone). Why SIGCONT:
 *   its descendants can stop it (kill -STOP $PPID), and a stopped process acts on no signal but SIGKILL and SIGCONT;
 *   SIGCONT resumes it even while blocked, and the loop then sees that its parent has changed. A SIGCONT while the
 *   supervisor lives (the stop ladder's) is forwarded like any other signal.
 * - It is a child subreaper: every orphaned descendant of the command is re-parented to it.
 * - The command runs in a process group of its own, with SIGKILL as its parent-death signal tied to the shepherd (a
 *   command cannot outlive a shepherd killed by someone else, even one that ignores the tree signal), descriptors
 *   from 3 closed, signal mask and dispositions reset, and the launcher's settings (limits, OOM score) applied
 *   (exit 125 if they cannot be, 127 if exec fails).
 * - Every other signal (TERM, INT, HUP, QUIT, USR1, USR2, CONT, ...) is forwarded to the command's group while
 *   the supervisor lives; SIGCHLD is the shepherd's own.
 * - Once the command runs, the shepherd's own standard input and output are /dev/null: it holds no end of the
 *   command's stdin and stdout, so that the supervisor sees the end of a stdout the command closes.
 * - With --listen-socket (a setting, see tether-settings.c), the descriptor after the held ones is a listening socket:
 *   the command gets it as descriptor 3, and the shepherd closes its own copy once the command runs.
 * - With --hold-output, descriptors 3 up to 3 + <count> - 1 (count 1 or 2) are the read ends of the command's output
 *   pipes: the shepherd keeps them open without reading, and the command does not get them. Why: once the supervisor
 *   is dead nothing reads the pipes, and a command that writes while it ends would die of SIGPIPE at that write
 *   instead of finishing; its last lines wait in the pipe (up to its capacity) until the tree is gone.
 * - SHEPHERD_KILL_TREE (signal 40, SIGRTMIN+6 under glibc) ends the whole tree at once with SIGKILL.
 * - When the command exits, or the supervisor dies, every remaining descendant gets <signal-number> (SIGTERM if 0),
 *   then SIGKILL after SHEPHERD_GRACE_SECONDS, pass after pass until the shepherd has no child left; then it exits
 *   with the command's exact status: its code, or the same signal re-raised on itself (no core file).
 */
#include "tether-launcher.h"

/* Why a fixed number, not SIGRTMIN+n: the supervisor sends it by number, and glibc reserves 32 and 33. */
#define SHEPHERD_KILL_TREE 40
#define SHEPHERD_GRACE_SECONDS 2

/* Why one structure, the table last: its fields keep this order, so those used on every pass and the table's first
 * entries share one page of memory, instead of the compiler placing them after the table's 4 KB. */
static struct {
    int command;
    int command_group;
    int command_status;
    int tree_signal;
    /* The children already asked to end with the tree signal. Why: a second SIGTERM often means "stop now" (Node,
     * shells with traps), so each child gets it once; SIGKILL goes to all. Beyond the table's size a child may get
     * it twice. */
    unsigned long asked_count;
    int asked[1024];
} shepherd = { 0, 0, -1, SIGTERM, 0, { 0 } };

/* Why every other signal: the supervisor's stop signal is configurable (TERM, INT, HUP, QUIT, USR1, ...). */
static int forwarded(int sig) {
    return sig != SIGCHLD && sig != SHEPHERD_KILL_TREE;
}

/* Opens <prefix><pid><suffix> for reading; a negated errno when it cannot. */
static long open_proc(const char *prefix, long pid, const char *suffix) {
    char path[96];
    int p = 0;
    while (*prefix) path[p++] = *prefix++;
    p += text_from_long(path + p, pid);
    while ((path[p++] = *suffix++) != 0) {}
    return sys_open(path, O_RDONLY | O_CLOEXEC);
}

/* Reads ppid and process group from /proc/<pid>/stat (fields after the last ')': state, ppid, pgrp). */
static int proc_stat(long pid, long *ppid, long *pgrp) {
    char stat[512];
    long fd = open_proc("/proc/", pid, "/stat");
    if (fd < 0) return -1;
    unsigned long n = 0;
    long r;
    while (n < sizeof stat - 1 && (r = sys_read((int) fd, stat + n, sizeof stat - 1 - n)) > 0) n += (unsigned long) r;
    sys_close((int) fd);
    stat[n] = 0;
    char *close_paren = 0;
    for (char *c = stat; *c; c++) {
        if (*c == ')') close_paren = c;
    }
    if (!close_paren || close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ') return -1;
    const char *end;
    *ppid = text_to_long(close_paren + 4, &end);
    *pgrp = text_to_long(end, 0);
    return 0;
}

static int asked_before(int pid) {
    for (unsigned long i = 0; i < shepherd.asked_count; i++) {
        if (shepherd.asked[i] == pid) return 1;
    }
    return 0;
}

/* Returns 1 the first time a pid is asked (and always for SIGKILL), and remembers it. */
static int first_ask(int pid, int sig) {
    if (sig == SIGKILL) return 1;
    if (asked_before(pid)) return 0;
    if (shepherd.asked_count < sizeof shepherd.asked / sizeof shepherd.asked[0]) {
        shepherd.asked[shepherd.asked_count++] = pid;
    }
    return 1;
}

static void signal_child(int pid, int sig) {
    long ppid, pgrp;
    /* Why: a member of the command's group got the tree signal with its group already. */
    if (sig != SIGKILL && asked_before(-shepherd.command_group) && proc_stat(pid, &ppid, &pgrp) == 0
            && pgrp == shepherd.command_group) {
        first_ask(pid, sig);
        return;
    }
    if (first_ask(pid, sig)) sys_kill(pid, sig);
}

/* Signals the command's group, the tree signal once; only while the command is unreaped, so that its id is ours. */
static void signal_group(int sig) {
    /* The group is remembered as its negated id; its leader, the command, is asked with it. */
    if (shepherd.command > 0 && first_ask(-shepherd.command_group, sig)) {
        first_ask(shepherd.command, sig);
        sys_kill(-shepherd.command, sig);
    }
}

/* Why a /proc scan as fallback: /proc/<pid>/task/<tid>/children needs CONFIG_PROC_CHILDREN. */
static void signal_children_by_scan(int sig) {
    long dir = sys_open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return;
    long self = sys_getpid();
    char entries[512];
    long n;
    while ((n = sys_getdents((int) dir, entries, sizeof entries)) > 0) {
        for (long at = 0; at < n; at += ((struct sys_dirent *) (entries + at))->reclen) {
            long pid = text_to_long(((struct sys_dirent *) (entries + at))->name, 0), ppid, pgrp;
            if (pid > 1 && proc_stat(pid, &ppid, &pgrp) == 0 && ppid == self) {
                signal_child((int) pid, sig);
            }
        }
    }
    sys_close((int) dir);
}

static void signal_children(int sig) {
    long self = sys_getpid();
    long fd = open_proc("/proc/self/task/", self, "/children");
    if (fd < 0) {
        signal_children_by_scan(sig);
        return;
    }
    /* Why in small reads: a pid cut at a read's end is carried into the next, so no list is held whole. */
    char chunk[256];
    long pid = 0, r;
    while ((r = sys_read((int) fd, chunk, sizeof chunk)) > 0) {
        for (long i = 0; i < r; i++) {
            if (chunk[i] >= '0' && chunk[i] <= '9') {
                pid = pid * 10 + (chunk[i] - '0');
            }
            else {
                if (pid > 1) signal_child((int) pid, sig);
                pid = 0;
            }
        }
    }
    if (pid > 1) signal_child((int) pid, sig);
    sys_close((int) fd);
}

/* Reaps every exited child; returns 1 when no child is left. The command's group is signalled while its zombie
 * still holds the group id, so the id cannot name anyone else's group. */
static int reap(int ending_signal) {
    if (shepherd.command > 0) {
        sys_siginfo info = { .bytes = { 0 } };
        if (sys_waitid_pid(shepherd.command, &info, WEXITED | WNOHANG | WNOWAIT) == 0
                && info.info.fields.child.pid == shepherd.command) {
            signal_group(ending_signal);
            int status;
            if (sys_wait(shepherd.command, &status, 0) == shepherd.command) {
                shepherd.command_status = status;
            }
            shepherd.command = 0;
        }
    }
    for (;;) {
        int status;
        long pid = sys_wait(-1, &status, WNOHANG);
        if (pid > 0 && pid == shepherd.command) {
            shepherd.command_status = status;
            shepherd.command = 0;
        }
        if (pid > 0) continue;
        return pid == -ECHILD;
    }
}

static int exit_like(int status) {
    if (status == -1) {
        return 125;
    }
    int sig = status_signal(status);
    if (sig != 0) {
        sys_no_core_files();
        sys_default_action(sig);
        sys_sigset only;
        sigset_clear(&only);
        sigset_add(&only, sig);
        sys_sigprocmask(SIG_UNBLOCK, &only);
        sys_kill((int) sys_getpid(), sig);
        return 128 + sig;
    }
    return status_exited(status) ? status_code(status) : 125;
}

static long start_command(long shepherd_pid, char *executable, char **args, char **envp) {
    long pid = sys_fork();
    if (pid != 0) {
        if (pid > 0) sys_setpgid((int) pid, (int) pid);
        return pid;
    }
    sys_setpgid(0, 0);
    if (sys_prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || sys_getppid() != shepherd_pid) {
        sys_exit(126);
    }
    for (int s = 1; s <= SYS_SIGNALS; s++) {
        sys_default_action(s);
    }
    sys_sigset none;
    sigset_clear(&none);
    sys_sigprocmask(SIG_SETMASK, &none);
    if (settings_apply() != 0) {
        sys_exit(125);
    }
    close_from(settings_first_closed());
    say_failed("exec failed", settings_execve(executable, args, envp));
    sys_exit(127);
}

static int reached(const sys_timespec *deadline) {
    sys_timespec now;
    sys_monotonic(&now);
    return now.sec > deadline->sec || (now.sec == deadline->sec && now.nsec >= deadline->nsec);
}

int shepherd_main(int argc, char **argv, char **envp) {
    int held = 0;
    if (argc > 2 && text_equals(argv[1], "--hold-output")) {
        held = (int) text_to_long(argv[2], 0);
        argv += 2;
        argc -= 2;
    }
    if (argc < 5 || held < 0 || held > 2) {
        say("usage: tether-launcher --shepherd [--hold-output 1|2] <signal> <supervisor-pid> <executable> <argv0> "
            "[args...]", 0);
        return 125;
    }
    int sig = (int) text_to_long(argv[1], 0);
    long supervisor = text_to_long(argv[2], 0);
    shepherd.tree_signal = (sig > 0) ? sig : SIGTERM;
    /* Why block first: every signal is then taken in the loop, none is lost between arming and waiting. */
    sys_sigset all;
    sigset_fill(&all);
    sigset_remove(&all, SIGSEGV);
    sigset_remove(&all, SIGBUS);
    sigset_remove(&all, SIGFPE);
    sigset_remove(&all, SIGILL);
    long result = sys_sigprocmask(SIG_BLOCK, &all);
    if (result != 0) {
        say_failed("rt_sigprocmask failed", result);
        return 125;
    }
    result = sys_prctl(PR_SET_PDEATHSIG, SIGCONT);
    if (result != 0) {
        say_failed("prctl(PR_SET_PDEATHSIG) failed", result);
        return 125;
    }
    if (sys_getppid() != supervisor) {
        say("supervisor is gone, not starting ", argv[3]);
        return 126;
    }
    result = sys_prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (result != 0) {
        say_failed("prctl(PR_SET_CHILD_SUBREAPER) failed", result);
        return 125;
    }
    int listening = settings_listen_socket(held);
    close_from(3 + held + (listening >= 0));
    long started = start_command(sys_getpid(), argv[3], &argv[4], envp);
    if (started < 0) {
        say_failed("fork failed", started);
        return 125;
    }
    /* Why close it: the command has its copy; held here it would keep accepting into a backlog nobody reads once the
     * command is gone, while the supervisor's own copy is what keeps the socket between processes. */
    if (listening >= 0) sys_close(listening);
    shepherd.command = shepherd.command_group = (int) started;
    /* Why: the command has its own copies of standard input and output. Were the shepherd to keep its own, it would
     * hold the write end of the command's stdout pipe, and the supervisor would never see the end of a stdout that the
     * command closed while it runs on (an MCP server over stdio whose session is over); and the read end of its stdin,
     * so that a write to a command that closed its stdin would fill the pipe instead of failing. /dev/null takes their
     * place; standard error stays, for the shepherd's own messages. */
    long null_fd = sys_open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd >= 0) {
        sys_dup3((int) null_fd, 0);
        sys_dup3((int) null_fd, 1);
        sys_close((int) null_fd);
    }
    int ending = 0;
    int killing = 0;
    sys_timespec deadline = { 0, 0 };
    for (;;) {
        if (ending && !killing && reached(&deadline)) {
            killing = 1;
        }
        if (ending) {
            /* Why every pass: orphans are re-parented to us only once their own parent has exited. */
            int s = killing ? SIGKILL : shepherd.tree_signal;
            signal_group(s);
            signal_children(s);
            if (reap(s)) {
                return exit_like(shepherd.command_status);
            }
        }
        sys_siginfo info;
        /* Why a short wait once ending: an orphan that appears is not announced, and SIGKILL is due at the deadline. */
        sys_timespec wait = { 0, killing ? 20000000 : 100000000 };
        long received = sys_sigtimedwait(&all, &info, ending ? &wait : 0);
        int parent_alive = sys_getppid() == supervisor;
        if (received == SHEPHERD_KILL_TREE) {
            killing = 1;
        }
        else if (received > 0 && forwarded((int) received) && parent_alive && shepherd.command > 0 && !ending) {
            sys_kill(-shepherd.command, (int) received);
        }
        if (!ending && (received == SIGCHLD || !parent_alive || killing)) {
            reap(killing ? SIGKILL : shepherd.tree_signal);
            if (shepherd.command == 0 || !parent_alive || killing) {
                ending = 1;
                sys_monotonic(&deadline);
                deadline.sec += SHEPHERD_GRACE_SECONDS;
            }
        }
    }
}
