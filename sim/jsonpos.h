/* jsonpos.h: the line and column of a value in JSON text (see jsonpos.c). */
#ifndef GOSIM_JSONPOS_H
#define GOSIM_JSONPOS_H

#include <stddef.h>

struct jsonpos_step {
	const char *key; /* object member, or NULL for an array index */
	int index;
	int want_key;    /* stop at the member's key rather than its value */
};

void jsonpos_find(const char *text, size_t len, const struct jsonpos_step *path, int n, int *line, int *col);

#endif
