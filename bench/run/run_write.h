/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_write.h - run.json (RUN_SCHEMA) and cell.json (CELL_SCHEMA) as the run goes;
 * rundir.h's run_load() reads them back.
 */
#ifndef DEFERBENCH_RUN_WRITE_H
#define DEFERBENCH_RUN_WRITE_H

#include "rundir.h"
#include "run_state.h"

/*
 * run_json_write - run.json, rewritten atomically after every cell, so that an
 * interrupted or killed run leaves a valid file listing the cells that finished;
 * "complete" becomes true only once every planned cell is in it.
 */
int run_json_write(const struct run_state *r);
/* run_cell_json_write - dir/cell.json of cell (or segment) cell, with its status and error */
int run_cell_json_write(const struct run_state *r, const struct scn_cell *cell, const char *dir,
		    const char *status, const char *error);

#endif
