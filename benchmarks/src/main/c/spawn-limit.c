/*
 * The physical limit the Java libraries are measured against: posix_spawn + waitpid, no runtime in between.
 *
 *   spawn-limit long <n>      spawns n `sleep 600`, prints "long <spawns-per-second>", then kills and reaps them
 *   spawn-limit short <n>     spawns n `true` one after the other, waiting for each: prints "short <per-second>"
 *   spawn-limit latency <n>   for each of n `sleep 600`: SIGKILL then a blocking waitpid; prints
 *                             "latency <microseconds>..." (kill to waitpid return)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static pid_t spawn(char *const argv[]) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", 0, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1, 0);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int error = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        fprintf(stderr, "posix_spawn: %s\n", strerror(error));
        exit(1);
    }
    return pid;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: spawn-limit long|short|latency <n>\n");
        return 2;
    }
    int n = atoi(argv[2]);
    char *sleeper[] = {"/bin/sleep", "600", NULL};
    char *quick[] = {"/bin/true", NULL};
    pid_t *pids = calloc(n, sizeof(pid_t));
    int status;
    if (strcmp(argv[1], "long") == 0) {
        double start = now();
        for (int i = 0; i < n; i++) pids[i] = spawn(sleeper);
        double took = now() - start;
        printf("long %.1f\n", n / took);
        for (int i = 0; i < n; i++) kill(pids[i], SIGKILL);
        for (int i = 0; i < n; i++) waitpid(pids[i], &status, 0);
    } else if (strcmp(argv[1], "short") == 0) {
        double start = now();
        for (int i = 0; i < n; i++) waitpid(spawn(quick), &status, 0);
        printf("short %.1f\n", n / (now() - start));
    } else if (strcmp(argv[1], "latency") == 0) {
        for (int i = 0; i < n; i++) pids[i] = spawn(sleeper);
        printf("latency");
        for (int i = 0; i < n; i++) {
            double start = now();
            kill(pids[i], SIGKILL);
            waitpid(pids[i], &status, 0);
            printf(" %.1f", (now() - start) * 1e6);
        }
        printf("\n");
    } else {
        return 2;
    }
    free(pids);
    return 0;
}
