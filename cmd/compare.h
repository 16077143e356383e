/* compare.h: gosim compare A.json B.json (see compare.c). */
#ifndef GOSIM_COMPARE_H
#define GOSIM_COMPARE_H

/* argv[0] is "compare"; returns an exit code. */
int compare_main(int argc, char **argv);

#endif
