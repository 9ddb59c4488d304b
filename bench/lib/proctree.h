/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proctree.h - a command's whole process tree, for the commands deferbench watches for
 * the user (tune -- COMMAND): the command runs in a session of its own (proc_spawn's
 * session), and deferbench is its descendants' subreaper (PR_SET_CHILD_SUBREAPER), so
 * that a process that double-forks or calls setsid() stays in view: it is a member when
 * it is in the command's session, descends from a member, or is an orphan handed to
 * deferbench from another session than deferbench's own (deferbench's own children -
 * a probe's cyclictest - stay in its session). A member outside the command's session
 * has detached from it.
 *
 * Return convention: 0 or -errno.
 */
#ifndef DEFERBENCH_PROCTREE_H
#define DEFERBENCH_PROCTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proctree_proc {
	pid_t pid, ppid, sid;
	char comm[16];
	bool zombie;
	bool ours;			/* deferbench's child: deferbench reaps it */
	bool detached;			/* a member outside the command's session */
};

/* proctree_subreaper - make this process the subreaper of its descendants' orphans */
int proctree_subreaper(void);
/*
 * proctree_scan - the members of the tree of the session sid (its leader's pid) now, at
 * most max into out (*n how many there are); /proc is read once. The leader itself is
 * left out once reaped.
 */
int proctree_scan(pid_t sid, struct proctree_proc *out, size_t max, size_t *n);
/*
 * proctree_stop - end every member but the leader (which the caller reaps with its status):
 * SIGTERM, then SIGKILL for what is left after timeout_ns, the orphans handed to
 * deferbench reaped. Returns how many members are left (0: the tree is gone).
 */
int proctree_stop(pid_t sid, uint64_t timeout_ns);
/* proctree_signal - sig to every member (the session's group and each detached member) */
void proctree_signal(pid_t sid, int sig);

#endif
