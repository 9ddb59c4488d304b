// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_value.c - knob values: hex cpumasks in the kernel's format, scheduling
 * policies, and the canonical form that lets a value written and a value read back
 * be compared ("default (cache)" is "default", "03" is "3").
 */
#include "knobs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "parse.h"

static const struct {
	const char *name;
	int policy;
} sched_policies[] = {
	{ "other", SCHED_OTHER },
	{ "fifo", SCHED_FIFO },
	{ "rr", SCHED_RR },
	{ "batch", SCHED_BATCH },
	{ "idle", SCHED_IDLE },
};

/* hexval - one hex digit, or -1 */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* mask_group - hex digits [s, e) into set, least significant digit at bit base */
static int mask_group(const char *s, const char *e, int base, cpu_set_t *set)
{
	int bit = base;

	if (e == s)
		return -EINVAL;
	for (; e > s; bit += 4) {
		int v = hexval(*--e), i;

		if (v < 0)
			return -EINVAL;
		for (i = 0; i < 4; i++) {
			if (!(v & (1 << i)))
				continue;
			if (bit + i >= CPU_SETSIZE)
				return -ERANGE;
			CPU_SET(bit + i, set);
		}
	}
	return 0;
}

int knob_cpumask_parse_hex(const char *s, cpu_set_t *set, char *errbuf)
{
	const char *p, *end;
	int base = 0, groups = 1, ret;

	CPU_ZERO(set);
	if (!s)
		s = "";
	p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	end = p + strlen(p);
	if (end > p && end[-1] == '\n')
		end--;
	for (const char *q = p; q < end; q++)
		groups += *q == ',';
	/* right to left: each comma-separated group is 32 bits, as the kernel prints */
	for (;;) {
		const char *g = end;

		while (g > p && g[-1] != ',')
			g--;
		if (groups > 1 && end - g > 8)
			return set_err(errbuf, "'%s': a comma-separated group has more than 8 digits", s);
		ret = mask_group(g, end, base, set);
		if (ret == -ERANGE)
			return set_err(errbuf, "'%s' selects CPUs beyond %d", s, CPU_SETSIZE - 1);
		if (ret)
			return set_err(errbuf, "'%s' is not a hex CPU mask (examples: 1 = CPU 0, 3 = CPUs 0-1)", s);
		if (g == p)
			break;
		end = g - 1;
		base += 32;
	}
	return 0;
}

char *knob_cpumask_format_hex(const cpu_set_t *set, char *buf, size_t len)
{
	int hi = -1, g, cpu;
	size_t off = 0;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			hi = cpu;
	if (hi < 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	buf[0] = '\0';
	for (g = hi / 32; g >= 0 && off < len; g--) {
		unsigned int v = 0;

		for (cpu = 0; cpu < 32; cpu++)
			if (CPU_ISSET(g * 32 + cpu, set))
				v |= 1U << cpu;
		off += snprintf(buf + off, len - off, off ? ",%08x" : "%x", v);
	}
	return buf;
}

int knob_sched_spec_parse(const char *s, struct sched_spec *sp, char *errbuf)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	size_t n = colon ? (size_t)(colon - s) : (s ? strlen(s) : 0);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sched_policies); i++)
		if (strlen(sched_policies[i].name) == n && !strncmp(s, sched_policies[i].name, n))
			break;
	if (i == ARRAY_SIZE(sched_policies))
		return set_err(errbuf, "'%s' is not a policy (fifo:PRIO, rr:PRIO, other[:NICE], "
			       "batch[:NICE], idle)", s ? s : "");
	memset(sp, 0, sizeof(*sp));
	sp->policy = sched_policies[i].policy;
	if (sp->policy == SCHED_FIFO || sp->policy == SCHED_RR) {
		if (!colon)
			return set_err(errbuf, "'%s' needs a priority: %s:1..99", s, sched_policies[i].name);
		if (parse_int(colon + 1, 1, 99, &sp->prio, errbuf))
			return -EINVAL;
		return 0;
	}
	if (colon && parse_int(colon + 1, -20, 19, &sp->nice, errbuf))
		return -EINVAL;
	return 0;
}

char *knob_sched_spec_format(const struct sched_spec *sp, char *buf, size_t len)
{
	const char *name = "unknown";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sched_policies); i++)
		if (sched_policies[i].policy == sp->policy)
			name = sched_policies[i].name;
	if (sp->policy == SCHED_FIFO || sp->policy == SCHED_RR)
		snprintf(buf, len, "%s:%d", name, sp->prio);
	else
		snprintf(buf, len, "%s:%d", name, sp->nice);
	return buf;
}

/* canon_int - strict decimal (the kernel prints these in decimal) */
static int canon_int(const char *in, char *out, size_t len, char *errbuf)
{
	long long v;
	char *end;

	if (!*in || isspace((unsigned char)*in))
		return set_err(errbuf, "'%s' is not an integer", in);
	errno = 0;
	v = strtoll(in, &end, 10);
	if (errno || *end)
		return set_err(errbuf, "'%s' is not an integer", in);
	snprintf(out, len, "%lld", v);
	return 0;
}

/* canon_scope - "default (cache)" as the kernel prints it is "default" */
static int canon_scope(const char *in, char *out, size_t len, char *errbuf)
{
	size_t n = 0;

	while (in[n] && (islower((unsigned char)in[n]) || in[n] == '_'))
		n++;
	if (!n || (in[n] && in[n] != ' '))
		return set_err(errbuf, "'%s' is not an affinity scope", in);
	if (n >= len)
		return set_err(errbuf, "'%s' is too long", in);
	memcpy(out, in, n);
	out[n] = '\0';
	return 0;
}

int knob_value_canon(const struct knob_type *t, const char *in, char *out, size_t len,
		     char *errbuf)
{
	struct sched_spec sp;
	cpu_set_t set;
	bool b;

	switch (t->val) {
	case KV_INT:
		return canon_int(in, out, len, errbuf);
	case KV_BOOL:
		if (parse_bool(in, &b, errbuf))
			return -EINVAL;
		snprintf(out, len, "%d", b);
		return 0;
	case KV_MASK:
	case KV_MASK0:
		if (knob_cpumask_parse_hex(in, &set, errbuf))
			return -EINVAL;
		knob_cpumask_format_hex(&set, out, len);
		return 0;
	case KV_SCOPE:
	case KV_SCOPE_NODFL:
		return canon_scope(in, out, len, errbuf);
	case KV_SCHED:
		if (knob_sched_spec_parse(in, &sp, errbuf))
			return -EINVAL;
		knob_sched_spec_format(&sp, out, len);
		return 0;
	}
	return set_err(errbuf, "internal: unknown value type");
}

bool knob_value_equal(const struct knob_type *t, const char *a, const char *b)
{
	char ca[KNOB_VALUE_MAX], cb[KNOB_VALUE_MAX];

	if (knob_value_canon(t, a, ca, sizeof(ca), NULL) ||
	    knob_value_canon(t, b, cb, sizeof(cb), NULL))
		return false;
	return !strcmp(ca, cb);
}
