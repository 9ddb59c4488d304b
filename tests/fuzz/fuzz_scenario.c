// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_scenario.c - libFuzzer target for the scenario parser (issue 10): any bytes as
 * an INI file, parsed and planned as 'deferbench run --dry-run' would. Seeds:
 * tests/fuzz/corpus/scenario/ (the scenarios of the repository). Built by 'make fuzz'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "msg.h"

static const char *const types[] = { "net", "timer", "audio", "tty", "block", "hog", NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scn_parse_opts o = { .workloads = types, .online = "0-1" };
	struct scenario *s = malloc(sizeof(*s));
	struct scn_cell *cells;
	char err[ERRBUF_LEN], *text = malloc(size + 1);
	int n;

	if (s && text) {
		memcpy(text, data, size);
		text[size] = '\0';
		if (!scenario_parse(text, "fuzz.ini", &o, s, err) &&
		    !scenario_plan(s, &cells, &n))
			free(cells);
	}
	free(text);
	free(s);
	return 0;
}
