/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - commands deferbench starts for the user (record -- COMMAND, tune -- COMMAND):
 * started with the signal dispositions a shell would give them, an exec that fails
 * reported as an error rather than measured as a result, and reaped within a bound.
 */
#ifndef DEFERBENCH_PROC_H
#define DEFERBENCH_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_opts {
	bool group;		/* a process group of its own (signal it as -pid) */
	bool session;		/* a session of its own (setsid: also a group; proctree.h) */
	bool parent_death;	/* SIGTERM when deferbench dies (PR_SET_PDEATHSIG) */
	int out_fd;		/* its stdout and stderr, or -1: deferbench's */
	int err_fd;		/* > 0: its stderr apart from out_fd (a metric command's
				 * stdout is data, its stderr the reason it failed); 0: none */
};

/*
 * proc_spawn - fork and exec argv (PATH searched); an exec that fails comes back
 * through a close-on-exec pipe. 0 with *pid, or -errno with errbuf ("cannot run 'x':
 * No such file or directory").
 */
int proc_spawn(char *const *argv, const struct proc_opts *o, pid_t *pid, char *errbuf);
/* proc_reap - waitpid within timeout_ns; true once reaped, its wait status in *status */
bool proc_reap(pid_t pid, int *status, uint64_t timeout_ns);

/*
 * proc_cloexec_from - every descriptor from fd up marked close-on-exec; for a child
 * between fork and exec (async-signal-safe), so that what it runs keeps none of
 * deferbench's: above all no file of its tracefs instance, which the kernel refuses to
 * remove (EBUSY) while anyone holds one open
 */
void proc_cloexec_from(int fd);

/* proc_command_line - argv joined with spaces (journals, metadata), truncated to len */
void proc_command_line(int argc, char **argv, char *buf, size_t len);

#endif
