/* What the launcher's two modes share: tether-launcher.c (exec in place) and tether-shepherd.c (stay and shepherd). */
#ifndef TETHER_LAUNCHER_H
#define TETHER_LAUNCHER_H

#include "tether-sys.h"

/* Writes "tether-launcher: <a><b>" and a newline to standard error; b may be null. */
void say(const char *a, const char *b);

/* Writes "tether-launcher: <what>: <reason>" for a negated errno. */
void say_failed(const char *what, long error);

/* Closes every descriptor from first up. */
void close_from(int first);

unsigned long text_length(const char *s);

int text_equals(const char *a, const char *b);

/* The number a text starts with, as atol reads it (optional sign, decimal digits); 0 when there is none. */
long text_to_long(const char *s, const char **end);

/* Writes n in decimal at out (at most 20 characters, not terminated); returns the number of characters. */
int text_from_long(char *out, long n);

/* Reads one of the command's settings (--limit, --oom-score-adjust, --pid-env, --listen-socket;
 * see tether-settings.c) at argv[1]; returns how many
 * arguments it took, 0 when argv[1] is none of them, -1 when it is malformed (said on standard error). */
int settings_option(int argc, char **argv);

/* Where the command finds a --listen-socket: systemd's SD_LISTEN_FDS_START. */
#define SETTINGS_LISTEN_FD 3

/* The descriptor a --listen-socket is at in this process, 3 after <held> descriptors the shepherd holds; -1 without
 * one. Called by the shepherd before anything else reads it. */
int settings_listen_socket(int held);

/* The first descriptor the command must not inherit: 4 with a --listen-socket, else 3. */
int settings_first_closed(void);

/* Applies the settings read to the calling process; 0, or -1 after saying why on standard error. */
int settings_apply(void);

/* execve with the --pid-env variables set to this process's pid. */
long settings_execve(const char *executable, char **args, char **envp);

/* The shepherd mode; envp is the launcher's environment, passed on to the command unchanged. */
int shepherd_main(int argc, char **argv, char **envp);

#endif
