// SPDX-License-Identifier: GPL-2.0
/*
 * restore.c - undo what a killed or crashed run left behind.
 *
 * It writes back every setting saved in the journal and reads it back, then removes
 * what dead runs leave elsewhere (leftovers.h): what their owned files journaled
 * (tracefs instance and mount, staging and temporary directories), and the tracefs
 * instances and /tmp directories named after a dead pid. A journal is deleted only
 * once every setting in it is restored.
 */
#include "restore.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "leftovers.h"
#include "msg.h"

/* restore_journal - 0: nothing to do or all restored; 1: something is left */
static int restore_journal(bool force)
{
	const char *path = journal_path();
	char err[ERRBUF_LEN] = "";
	struct journal j;
	int ret, failed;

	ret = journal_load(&j, path, err);
	if (ret == -ENOENT) {
		printf("no journal at %s: no kernel settings to restore\n", path);
		return 0;
	}
	if (ret) {
		err_msg("%s", err[0] ? err : strerror(-ret));
		return 1;
	}
	if (journal_owner_alive(&j) && !force) {
		err_msg("deferbench pid %d is still running and restores on exit; stop it with "
			"'kill -INT %d' (or use --force)", j.pid, j.pid);
		journal_free(&j);
		return 1;
	}
	printf("restoring %d setting(s) saved by pid %d (%s, %s):\n", j.n, j.pid, j.started,
	       j.command);
	failed = journal_restore(&j, stdout);
	if (failed) {
		err_msg("%d setting(s) could not be restored; %s is kept", failed, path);
	} else if ((ret = journal_remove(&j))) {
		err_msg("removing %s: %s", path, strerror(-ret));
		failed = 1;
	} else {
		printf("every setting is back; %s removed\n", path);
	}
	journal_free(&j);
	return failed ? 1 : 0;
}

int restore_machine(bool force)
{
	int ret = restore_journal(force);

	if (leftovers_remove(stdout))
		ret = 1;
	return ret;
}
