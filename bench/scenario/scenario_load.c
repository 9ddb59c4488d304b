// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_load.c - a scenario from its file to what the runner plans from: the file's
 * sections (scenario_ini.c), the command line's settings over its [global] (a layer, as
 * git's -c over its config files), names resolved and the matrix checked
 * (scenario_plan.c), the alternating design's checks (scenario_alt.c), and --quick.
 */
#include "scenario.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"
#include "msg.h"
#include "file.h"

int scenario_parse(const char *text, const char *file, const struct scn_parse_opts *o,
		   struct scenario *s, char *errbuf)
{
	char e[ERRBUF_LEN] = "";
	int line = 0;

	if (scn_ini_read(text, file, o, s, errbuf))
		return -EINVAL;
	/* the command line over the file, as git's -c over its config files */
	if (scn_global_layer(s, o->set, errbuf))
		return -EINVAL;
	if (scenario_finish(s, o->workloads, e, &line))
		return line ? set_err(errbuf, "%s:%d: %s", file, line, e)
			    : set_err(errbuf, "%s: %s", file, e);
	if (scn_alternate_finish(s, o, e))
		return set_err(errbuf, "%s: %s", file, e);
	if (s->quick && scenario_given(s, "blocks") < 0)
		return set_err(errbuf, "%s: --blocks with quick = yes: a quick run has the "
			       "scenario's quick_blocks; drop one of them", file);
	if (s->quick)
		scenario_quick(s);
	return 0;
}

struct scenario *scenario_load(const char *path, const struct scn_parse_opts *o, char *errbuf)
{
	struct scenario *s;
	size_t len;
	char *text;
	int ret;

	ret = read_input(path, INPUT_MAX_TEXT, &text, &len, errbuf);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	if (strlen(text) != len) {
		set_err(errbuf, "%s holds a NUL byte: a scenario is plain text", path);
		free(text);
		errno = EINVAL;
		return NULL;
	}
	s = malloc(sizeof(*s));
	if (!s) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	ret = scenario_parse(text, path, o, s, errbuf);
	free(text);
	if (ret) {
		free(s);
		errno = -ret;
		return NULL;
	}
	return s;
}
