/* What the launcher's two modes share: tether-launcher.c (exec in place) and tether-shepherd.c (stay and shepherd). */
#ifndef TETHER_LAUNCHER_H
#define TETHER_LAUNCHER_H

void say(const char *a, const char *b);

void close_from_3(void);

int shepherd_main(int argc, char **argv);

#endif
