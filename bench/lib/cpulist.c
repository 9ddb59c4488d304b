// SPDX-License-Identifier: GPL-2.0
/*
 * cpulist.c - CPU lists as the kernel writes them (see cpulist.h).
 */
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "msg.h"

int cpulist_parse_raw(const char *s, cpu_set_t *set, char *errbuf)
{
	const char *p = s;
	char *end;

	CPU_ZERO(set);
	if (!s || !*s)
		return set_err(errbuf, "empty CPU list");
	while (*p) {
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= CPU_SETSIZE)
			return set_err(errbuf, "'%s': bad CPU range %lu-%lu", s, a, b);
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*p == ',') {
			p++;
			if (!*p)
				return set_err(errbuf, "'%s' ends with a comma", s);
		} else if (*p == '\n' && !p[1]) {
			break;
		} else if (*p) {
			return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
		}
	}
	return 0;
}

int cpulist_online(cpu_set_t *set)
{
	char buf[4096];
	int ret;

	ret = read_file("/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (cpulist_parse_raw(buf, set, NULL))
		return -EINVAL;
	return CPU_COUNT(set);
}

int cpulist_parse(const char *s, cpu_set_t *set, const char *online_override, char *errbuf)
{
	cpu_set_t online, extra;
	char list[256];
	int ret;

	ret = cpulist_parse_raw(s, set, errbuf);
	if (ret)
		return ret;
	if (online_override)
		ret = cpulist_parse_raw(online_override, &online, NULL);
	else
		ret = cpulist_online(&online) < 0 ? -EIO : 0;
	if (ret)
		return set_err(errbuf, "cannot read the online CPUs");
	CPU_XOR(&extra, set, &online);
	CPU_AND(&extra, &extra, set);
	if (CPU_COUNT(&extra))
		return set_err(errbuf, "CPU %s in '%s' is not online (online: %s)",
			       cpulist_format(&extra, list, sizeof(list)), s,
			       cpulist_format(&online, list + 128, 128));
	return 0;
}

char *cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, set))
			continue;
		for (j = i; j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, set); j++)
			;
		if (off < len)
			off += snprintf(buf + off, len - off, off ? ",%d" : "%d", i);
		if (j > i && off < len)
			off += snprintf(buf + off, len - off, "-%d", j);
		i = j;
	}
	return buf;
}
