/*
 * The launcher's system-call layer: the few Linux calls it makes, each returning its result or a negated errno as
 * the kernel does. Built with TETHER_NOLIBC (x86_64, aarch64) the calls are raw and the binary has no libc at all,
 * so a shepherd holds little more than its stack; otherwise they go through libc's syscall() (see tether-sys.c).
 * Numbers and constants come from the kernel's headers, not from a libc.
 */
#ifndef TETHER_SYS_H
#define TETHER_SYS_H

#include <asm/signal.h>
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/prctl.h>
#include <linux/resource.h>
#include <linux/wait.h>

/* Why 64: the kernel's sigset on every architecture the launcher is built for (the size rt_sig* calls check). */
#define SYS_SIGNALS 64
#define SYS_WORD_BITS (8 * (int) sizeof(unsigned long))

typedef struct {
    unsigned long bits[SYS_SIGNALS / SYS_WORD_BITS];
} sys_sigset;

/* The kernel's timespec for clock_gettime and rt_sigtimedwait (not the 64-bit time variants). */
typedef struct {
    long sec;
    long nsec;
} sys_timespec;

/* The kernel's siginfo: 128 bytes; of its fields only the signal number and a child's pid are read. */
typedef union {
    struct {
        int signo;
        int error;
        int code;
        union {
            long align;
            struct { int pid; int uid; int status; } child;
        } fields;
    } info;
    char bytes[128];
} sys_siginfo;

/* One entry of getdents64. */
struct sys_dirent {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* The program, called by the entry point of either build with the process's arguments and environment. */
int launcher_main(int argc, char **argv, char **envp);

long sys_write(int fd, const void *buf, unsigned long count);
long sys_open(const char *path, int flags);
long sys_read(int fd, void *buf, unsigned long count);
long sys_close(int fd);
long sys_close_from(int first);
/* Makes new_fd a copy of old_fd (dup3 without flags: new_fd is not close-on-exec). */
long sys_dup3(int old_fd, int new_fd);
long sys_getdents(int fd, void *buf, unsigned long count);
long sys_chdir(const char *path);
long sys_execve(const char *path, char **argv, char **envp);
long sys_fork(void);
void sys_exit(int status) __attribute__((noreturn));
long sys_getpid(void);
long sys_getppid(void);
long sys_setpgid(int pid, int pgid);
long sys_prctl(int option, unsigned long arg);
long sys_kill(int pid, int sig);
long sys_wait(int pid, int *status, int options);
long sys_waitid_pid(int pid, sys_siginfo *info, int options);
long sys_sigprocmask(int how, const sys_sigset *set);
long sys_sigtimedwait(const sys_sigset *set, sys_siginfo *info, const sys_timespec *timeout);
long sys_default_action(int sig);
long sys_no_core_files(void);
long sys_set_limit(int resource, unsigned long long soft, unsigned long long hard);
long sys_monotonic(sys_timespec *now);

static inline void sigset_fill(sys_sigset *set) {
    for (int i = 0; i < SYS_SIGNALS / SYS_WORD_BITS; i++) set->bits[i] = ~0UL;
}

static inline void sigset_clear(sys_sigset *set) {
    for (int i = 0; i < SYS_SIGNALS / SYS_WORD_BITS; i++) set->bits[i] = 0;
}

static inline void sigset_add(sys_sigset *set, int sig) {
    set->bits[(sig - 1) / SYS_WORD_BITS] |= 1UL << ((sig - 1) % SYS_WORD_BITS);
}

static inline void sigset_remove(sys_sigset *set, int sig) {
    set->bits[(sig - 1) / SYS_WORD_BITS] &= ~(1UL << ((sig - 1) % SYS_WORD_BITS));
}

/* A wait status as the kernel encodes it: exit code in bits 8-15, or the terminating signal in bits 0-6. */
static inline int status_signal(int status) {
    int sig = status & 0x7f;
    return sig == 0x7f ? 0 : sig;
}

static inline int status_exited(int status) {
    return (status & 0x7f) == 0;
}

static inline int status_code(int status) {
    return (status >> 8) & 0xff;
}

#endif
