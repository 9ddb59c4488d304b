/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the deferbench subcommands. Each takes argc/argv with argv[0] being
 * the subcommand name and returns the process exit code:
 *   0  success
 *   1  error (bad input, missing privilege or facility, I/O failure)
 * Commands with their own codes (compare: 1 = regression, 2 = error) say so in --help.
 */
#ifndef DEFERBENCH_COMMANDS_H
#define DEFERBENCH_COMMANDS_H

#include <stdbool.h>

int cmd_record(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_knobs(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_export(int argc, char **argv);

/*
 * history_add_dir - add a finished run or record directory to the results store at db
 * (created when missing), printing what happened; 0, or -errno after an error message
 */
int history_add_dir(const char *db, const char *dir, bool replace);

#endif
