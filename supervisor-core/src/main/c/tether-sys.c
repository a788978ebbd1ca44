/*
 * The launcher's system-call layer (see tether-sys.h) and its entry point.
 *
 * With TETHER_NOLIBC: one inline-assembly system call per architecture (x86_64, aarch64) and an _start that reads
 * argc, argv and the environment off the initial stack. Why no libc: a shepherd stays alive for as long as its child,
 * one per child, and a static glibc gives each one ~50 KB more of its own (its writable data, a heap for thread-local
 * storage, and the page tables of both); without it a shepherd holds its stack and a page of data.
 *
 * Without it (any other architecture): the same calls through libc's syscall(), and main() as the entry point.
 */
#include <linux/time.h>

#include "tether-sys.h"

#ifdef TETHER_NOLIBC

#if defined(__x86_64__)

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long result;
    __asm__ volatile ("syscall"
            : "=a"(result)
            : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
            : "rcx", "r11", "memory");
    return result;
}

/* The kernel starts us with the stack pointer at argc; the ABI wants it 16-byte aligned at a call. */
__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  xor %rbp, %rbp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call start_c\n"
        "  hlt\n");

#elif defined(__aarch64__)

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile ("svc 0"
            : "+r"(x0)
            : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
            : "memory");
    return x0;
}

/* The kernel starts us with sp (16-byte aligned) at argc. */
__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  mov x29, #0\n"
        "  mov x30, #0\n"
        "  mov x0, sp\n"
        "  bl start_c\n"
        "  brk #0\n");

#else
#error "TETHER_NOLIBC: no system-call layer for this architecture; build without it (build-launcher.sh does)"
#endif

void start_c(long *stack) __attribute__((noreturn, used));

void start_c(long *stack) {
    int argc = (int) stack[0];
    char **argv = (char **) (stack + 1);
    sys_exit(launcher_main(argc, argv, argv + argc + 1));
}

/* Why: the compiler may emit calls to these for struct copies and zeroing even in freestanding code. */
void *memset(void *dest, int c, unsigned long n) {
    unsigned char *d = dest;
    while (n--) *d++ = (unsigned char) c;
    return dest;
}

void *memcpy(void *dest, const void *src, unsigned long n) {
    unsigned char *d = dest;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dest;
}

long sys_fork(void) {
    /* Why clone: aarch64 has no fork call; clone with only the exit signal is fork. */
    return sys6(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
}

#else

#include <errno.h>
#include <unistd.h>

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
    long result = syscall(n, a, b, c, d, e, f);
    return result == -1 ? -errno : result;
}

int main(int argc, char **argv, char **envp) {
    return launcher_main(argc, argv, envp);
}

long sys_fork(void) {
    /* Why libc's fork: clone's arguments are in a different order on some architectures. */
    long pid = fork();
    return pid < 0 ? -errno : pid;
}

#endif

#define L(x) ((long) (x))

long sys_write(int fd, const void *buf, unsigned long count) {
    return sys6(__NR_write, fd, L(buf), L(count), 0, 0, 0);
}

long sys_open(const char *path, int flags) {
    return sys6(__NR_openat, AT_FDCWD, L(path), flags, 0, 0, 0);
}

long sys_read(int fd, void *buf, unsigned long count) {
    return sys6(__NR_read, fd, L(buf), L(count), 0, 0, 0);
}

long sys_close(int fd) {
    return sys6(__NR_close, fd, 0, 0, 0, 0, 0);
}

long sys_dup3(int old_fd, int new_fd) {
    return sys6(__NR_dup3, old_fd, new_fd, 0, 0, 0, 0);
}

long sys_close_from(int first) {
#ifdef __NR_close_range
    return sys6(__NR_close_range, first, ~0U, 0, 0, 0, 0);
#else
    return -ENOSYS;
#endif
}

long sys_getdents(int fd, void *buf, unsigned long count) {
    return sys6(__NR_getdents64, fd, L(buf), L(count), 0, 0, 0);
}

long sys_chdir(const char *path) {
    return sys6(__NR_chdir, L(path), 0, 0, 0, 0, 0);
}

long sys_execve(const char *path, char **argv, char **envp) {
    return sys6(__NR_execve, L(path), L(argv), L(envp), 0, 0, 0);
}

void sys_exit(int status) {
    for (;;) sys6(__NR_exit_group, status, 0, 0, 0, 0, 0);
}

long sys_getpid(void) {
    return sys6(__NR_getpid, 0, 0, 0, 0, 0, 0);
}

long sys_getppid(void) {
    return sys6(__NR_getppid, 0, 0, 0, 0, 0, 0);
}

long sys_setpgid(int pid, int pgid) {
    return sys6(__NR_setpgid, pid, pgid, 0, 0, 0, 0);
}

long sys_prctl(int option, unsigned long arg) {
    return sys6(__NR_prctl, option, L(arg), 0, 0, 0, 0);
}

long sys_kill(int pid, int sig) {
    return sys6(__NR_kill, pid, sig, 0, 0, 0, 0);
}

long sys_wait(int pid, int *status, int options) {
    return sys6(__NR_wait4, pid, L(status), options, 0, 0, 0);
}

long sys_waitid_pid(int pid, sys_siginfo *info, int options) {
    return sys6(__NR_waitid, P_PID, pid, L(info), options, 0, 0);
}

long sys_sigprocmask(int how, const sys_sigset *set) {
    return sys6(__NR_rt_sigprocmask, how, L(set), 0, sizeof(sys_sigset), 0, 0);
}

long sys_sigtimedwait(const sys_sigset *set, sys_siginfo *info, const sys_timespec *timeout) {
    return sys6(__NR_rt_sigtimedwait, L(set), L(info), L(timeout), sizeof(sys_sigset), 0, 0);
}

long sys_default_action(int sig) {
    /* Why all zeros: SIG_DFL, no flags, no restorer and an empty mask, whatever order the fields have here. */
    struct { unsigned long words[3]; sys_sigset mask; } action = { { 0, 0, 0 }, { { 0 } } };
    return sys6(__NR_rt_sigaction, sig, L(&action), 0, sizeof(sys_sigset), 0, 0);
}

long sys_no_core_files(void) {
    struct { unsigned long long current, maximum; } none = { 0, 0 };
    return sys6(__NR_prlimit64, 0, RLIMIT_CORE, L(&none), 0, 0, 0);
}

long sys_set_limit(int resource, unsigned long long soft, unsigned long long hard) {
    struct { unsigned long long current, maximum; } limit = { soft, hard };
    return sys6(__NR_prlimit64, 0, resource, L(&limit), 0, 0, 0);
}

long sys_monotonic(sys_timespec *now) {
    return sys6(__NR_clock_gettime, CLOCK_MONOTONIC, L(now), 0, 0, 0, 0);
}
