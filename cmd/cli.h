/* cli.h: the command line: options (getopt_long) into a struct cli, the
 * workload loaded, the run driven, outputs written, the exit code chosen.
 * The only part of gosim that talks to the user. */
#ifndef GOSIM_CLI_H
#define GOSIM_CLI_H

/* Exit statuses (README "Errors, and what is never lost"; --help). */
enum exit_code { EXIT_DONE = 0, EXIT_INVARIANT = 1, EXIT_USAGE = 2, EXIT_DIED = 3, EXIT_UNTIL = 4, EXIT_NOMEM = 5 };

int cli_main(int argc, char **argv);

#endif
