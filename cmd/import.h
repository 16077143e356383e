/* import.h: gosim import, a Go execution trace into a workload (import.c). */
#ifndef GOSIM_IMPORT_H
#define GOSIM_IMPORT_H

#include <stddef.h>
#include <stdint.h>

/* argv[0] is "import". Returns the exit status. */
int import_main(int argc, char **argv);
/* The workload imported from n bytes of trace, as gosim import writes it
 * (malloc'd), or NULL if the trace is refused. For the fuzz target. */
char *import_text(const uint8_t *buf, size_t n, int merge);

#endif
