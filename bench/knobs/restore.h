/* SPDX-License-Identifier: GPL-2.0 */
/*
 * restore.h - `deferbench restore`: put back the settings of a run that was killed or
 * crashed (from the journal) and remove its tracefs instance and temporary files.
 */
#ifndef DEFERBENCH_RESTORE_H
#define DEFERBENCH_RESTORE_H

#include <stdbool.h>

/*
 * restore_machine - restore the journal's settings (unless its owner still runs and
 * force is false) and remove dead runs' leftovers, one line on stdout per change.
 * Returns 0 when the machine is as it was, 1 when something is left (messages said what).
 */
int restore_machine(bool force);

#endif
