/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture_formats.h - the header page and event formats of the fixture capture
 * (tests/fixtures/capture-tty.tar.gz, Linux 6.18 on x86-64), so that the sub-buffer
 * fuzz target decodes pages of a real capture. Generated from cap/raw/ once.
 */
#ifndef DEFERBENCH_FIXTURE_FORMATS_H
#define DEFERBENCH_FIXTURE_FORMATS_H

#include "match.h"

static const char fixture_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char *const fixture_formats[EV_NR] = {
	[EV_SOFTIRQ_RAISE] =
		"name: softirq_raise\n"
		"ID: 221\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_SOFTIRQ_ENTRY] =
		"name: softirq_entry\n"
		"ID: 223\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_SOFTIRQ_EXIT] =
		"name: softirq_exit\n"
		"ID: 222\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_WQ_QUEUE] =
		"name: workqueue_queue_work\n"
		"ID: 337\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:int req_cpu;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:int cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_WQ_ACTIVATE] =
		"name: workqueue_activate_work\n"
		"ID: 336\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_WQ_START] =
		"name: workqueue_execute_start\n"
		"ID: 335\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_WQ_END] =
		"name: workqueue_execute_end\n"
		"ID: 334\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_SCHED_SWITCH] =
		"name: sched_switch\n"
		"ID: 372\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
		"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"\"\n",
	[EV_SCHED_WAKEUP] =
		"name: sched_wakeup\n"
		"ID: 374\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"\"\n",
	/* record --stacks: the stacktrace trigger's records (Linux 6.18, ID 4) */
	[EV_KERNEL_STACK] =
		"name: kernel_stack\n"
		"ID: 4\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
		"\n"
		"print fmt: \"\"\n",
};

#define FIXTURE_START_TS 346293841983ULL
#define FIXTURE_END_TS 347104916354ULL

#endif
