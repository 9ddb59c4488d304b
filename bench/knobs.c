// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - knob names and values: the table of what deferbench may change, and pure
 * validation of "name = value" (no file is touched but the online CPU list).
 */
#include "knobs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const struct knob_type knob_types[] = {
	{ "wq.<workqueue>.nice", KNOB_WQ_ATTR, "nice", KV_INT, -20, 19, KNOB_EARLY,
	  "nice of the workqueue's workers (-20..19)" },
	{ "wq.<workqueue>.cpumask", KNOB_WQ_ATTR, "cpumask", KV_MASK, 0, 0, KNOB_EARLY,
	  "CPUs the workers may run on (hex mask)" },
	{ "wq.<workqueue>.affinity_scope", KNOB_WQ_ATTR, "affinity_scope", KV_SCOPE, 0, 0,
	  KNOB_EARLY, "worker pool sharing: default, cpu, smt, cache, numa, system" },
	{ "wq.<workqueue>.affinity_strict", KNOB_WQ_ATTR, "affinity_strict", KV_BOOL, 0, 1,
	  KNOB_EARLY, "1: workers never leave their affinity scope" },
	{ "wq.<workqueue>.max_active", KNOB_WQ_ATTR, "max_active", KV_INT, 1,
	  WQ_MAX_ACTIVE_LIMIT, KNOB_EARLY, "work items in flight (1..2048)" },
	{ "wq.cpumask", KNOB_WQ_UNBOUND, "cpumask", KV_MASK, 0, 0, KNOB_EARLY,
	  "CPUs every unbound workqueue may use (hex mask)" },
	{ "param.default_affinity_scope", KNOB_WQ_PARAM, "default_affinity_scope",
	  KV_SCOPE_NODFL, 0, 0, KNOB_EARLY,
	  "scope of workqueues left at 'default': cpu, smt, cache, numa, system" },
	{ "param.cpu_intensive_thresh_us", KNOB_WQ_PARAM, "cpu_intensive_thresh_us", KV_INT,
	  1, 100000000, KNOB_EARLY, "per-CPU work running longer is CPU intensive (us)" },
	{ "sched.ksoftirqd[.<cpu>]", KNOB_SCHED_KSOFTIRQD, NULL, KV_SCHED, 0, 0, KNOB_EARLY,
	  "scheduling of ksoftirqd/N (all CPUs, or one)" },
	{ "sched.napi", KNOB_SCHED_NAPI, NULL, KV_SCHED, 0, 0, KNOB_LATE,
	  "scheduling of the NAPI threads of the run's own veth pairs" },
	{ "sysctl.net.core.busy_poll", KNOB_SYSCTL, "busy_poll", KV_INT, 0, 1000000,
	  KNOB_EARLY, "busy-poll time for poll/select (us, 0 = off)" },
	{ "sysctl.net.core.busy_read", KNOB_SYSCTL, "busy_read", KV_INT, 0, 1000000,
	  KNOB_EARLY, "busy-poll time for socket reads (us, 0 = off)" },
	{ "sysctl.net.core.netdev_budget", KNOB_SYSCTL, "netdev_budget", KV_INT, 1, 1000000,
	  KNOB_EARLY, "packets one NET_RX softirq may process" },
	{ "sysctl.net.core.netdev_budget_usecs", KNOB_SYSCTL, "netdev_budget_usecs", KV_INT,
	  1, 10000000, KNOB_EARLY, "time one NET_RX softirq may run (us)" },
	{ "sysctl.net.core.dev_weight", KNOB_SYSCTL, "dev_weight", KV_INT, 1, 1000000,
	  KNOB_EARLY, "packets per NAPI poll of the backlog" },
	{ "netdev.lo.rps_cpus", KNOB_NETDEV, "rps_cpus", KV_MASK0, 0, 0, KNOB_EARLY,
	  "RPS CPUs of loopback (hex mask, 0 = off)" },
	{ .pattern = NULL },
};

const char *const knob_scope_names[] = {
	"default", "cpu", "smt", "cache", "numa", "system", NULL,
};

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

bool knob_safe_name(const char *s)
{
	const char *p;

	if (!s || !*s || strlen(s) >= KNOB_OBJ_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (p = s; *p; p++)
		if (*p == '/' || !isgraph((unsigned char)*p))
			return false;
	return true;
}

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

int cpumask_parse_hex(const char *s, cpu_set_t *set, char *errbuf)
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

char *cpumask_format_hex(const cpu_set_t *set, char *buf, size_t len)
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

int sched_spec_parse(const char *s, struct sched_spec *sp, char *errbuf)
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

char *sched_spec_format(const struct sched_spec *sp, char *buf, size_t len)
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
		if (cpumask_parse_hex(in, &set, errbuf))
			return -EINVAL;
		cpumask_format_hex(&set, out, len);
		return 0;
	case KV_SCOPE:
	case KV_SCOPE_NODFL:
		return canon_scope(in, out, len, errbuf);
	case KV_SCHED:
		if (sched_spec_parse(in, &sp, errbuf))
			return -EINVAL;
		sched_spec_format(&sp, out, len);
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

/* check_mask_online - a mask's CPUs must be online, and it must not be empty */
static int check_mask_online(const struct knob *k, const char *online, char *errbuf)
{
	cpu_set_t set, on, extra;
	char list[128], onl[128], hex[80];

	cpumask_parse_hex(k->value, &set, NULL);
	if (!CPU_COUNT(&set) && k->type->val == KV_MASK)
		return set_err(errbuf, "mask 0 selects no CPU");
	if (online ? cpulist_parse_raw(online, &on, NULL) : online_cpus(&on) < 0 ? -1 : 0)
		return set_err(errbuf, "cannot read the online CPUs");
	CPU_XOR(&extra, &set, &on);
	CPU_AND(&extra, &extra, &set);
	if (CPU_COUNT(&extra))
		return set_err(errbuf, "mask %s selects CPU %s, not online (online: %s, mask %s)",
			       k->value, cpulist_format(&extra, list, sizeof(list)),
			       cpulist_format(&on, onl, sizeof(onl)),
			       cpumask_format_hex(&on, hex, sizeof(hex)));
	return 0;
}

/* check_value - bounds and known names, after canonicalisation */
static int check_value(const struct knob *k, const char *online, char *errbuf)
{
	const struct knob_type *t = k->type;
	const char *const *n;
	long long v;

	switch (t->val) {
	case KV_INT:
		v = strtoll(k->value, NULL, 10);
		if (v < t->min || v > t->max)
			return set_err(errbuf, "%lld is out of range [%ld, %ld]", v, t->min, t->max);
		return 0;
	case KV_MASK:
	case KV_MASK0:
		return check_mask_online(k, online, errbuf);
	case KV_SCOPE:
	case KV_SCOPE_NODFL:
		if (t->val == KV_SCOPE_NODFL && !strcmp(k->value, "default"))
			return set_err(errbuf, "'default' is what this parameter defines; "
				       "use cpu, smt, cache, numa or system");
		for (n = knob_scope_names; *n; n++)
			if (!strcmp(*n, k->value))
				return 0;
		return set_err(errbuf, "unknown affinity scope '%s' (default, cpu, smt, cache, "
			       "numa, system)", k->value);
	default:
		return 0;
	}
}

/* find_type - the table entry of class cls with attribute attr (NULL: the first) */
static const struct knob_type *find_type(enum knob_class cls, const char *attr)
{
	const struct knob_type *t;

	for (t = knob_types; t->pattern; t++)
		if (t->cls == cls && (!attr || (t->attr && !strcmp(t->attr, attr))))
			return t;
	return NULL;
}

/* list_attrs - "a, b, c": the attributes of one class, for error messages */
static const char *list_attrs(enum knob_class cls, char *buf, size_t len)
{
	const struct knob_type *t;
	size_t off = 0;

	buf[0] = '\0';
	for (t = knob_types; t->pattern; t++)
		if (t->cls == cls && t->attr && off < len)
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->attr);
	return buf;
}

/* parse_wq_name - wq.cpumask, or wq.<workqueue>.<attribute> */
static int parse_wq_name(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');
	char list[160];
	size_t n;

	if (!strcmp(rest, "cpumask")) {
		k->type = find_type(KNOB_WQ_UNBOUND, NULL);
		return 0;
	}
	if (!dot)
		return set_err(errbuf, "expected wq.<workqueue>.<attribute> or wq.cpumask");
	n = (size_t)(dot - rest);
	if (n >= sizeof(k->obj))
		return set_err(errbuf, "workqueue name too long");
	memcpy(k->obj, rest, n);
	k->obj[n] = '\0';
	if (!knob_safe_name(k->obj))
		return set_err(errbuf, "'%s' is not a workqueue name", k->obj);
	k->type = find_type(KNOB_WQ_ATTR, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown workqueue attribute '%s' (known: %s)", dot + 1,
			       list_attrs(KNOB_WQ_ATTR, list, sizeof(list)));
	return 0;
}

/* parse_sched_name - sched.ksoftirqd, sched.ksoftirqd.<cpu>, sched.napi */
static int parse_sched_name(const char *rest, struct knob *k, char *errbuf)
{
	if (!strcmp(rest, "napi")) {
		k->type = find_type(KNOB_SCHED_NAPI, NULL);
		return 0;
	}
	if (!strncmp(rest, "napi.", 5))
		return set_err(errbuf, "sched.napi takes no device: it applies to the napi/* "
			       "threads the run's own workloads create, never a host NIC's");
	if (strncmp(rest, "ksoftirqd", 9) || (rest[9] && rest[9] != '.'))
		return set_err(errbuf, "expected sched.ksoftirqd, sched.ksoftirqd.<cpu> or sched.napi "
			       "(worker threads are tuned through their workqueue: wq.<wq>.nice)");
	k->type = find_type(KNOB_SCHED_KSOFTIRQD, NULL);
	if (rest[9] && parse_int(rest + 10, 0, CPU_SETSIZE - 1, &k->cpu, errbuf))
		return -EINVAL;
	return 0;
}

/* parse_netdev_name - netdev.lo.rps_cpus: host devices other than lo are refused */
static int parse_netdev_name(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');

	if (!dot)
		return set_err(errbuf, "expected netdev.lo.rps_cpus");
	if ((size_t)(dot - rest) != 2 || strncmp(rest, "lo", 2))
		return set_err(errbuf, "deferbench changes no host network device but lo; the net "
			       "workload configures its own veth pair through its options "
			       "(opt.<workload>.<option> in a [config])");
	strcpy(k->obj, "lo");
	if (!strcmp(dot + 1, "threaded"))
		return set_err(errbuf, "loopback has no NAPI instance to thread; use the net "
			       "workload's NAPI option instead");
	k->type = find_type(KNOB_NETDEV, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown device attribute '%s' (known: rps_cpus)", dot + 1);
	return 0;
}

/* parse_class - dispatch on the part before the first dot */
static int parse_class(const char *name, struct knob *k, char *errbuf)
{
	char list[200];

	if (!strncmp(name, "wq.", 3))
		return parse_wq_name(name + 3, k, errbuf);
	if (!strncmp(name, "sched.", 6))
		return parse_sched_name(name + 6, k, errbuf);
	if (!strncmp(name, "netdev.", 7))
		return parse_netdev_name(name + 7, k, errbuf);
	if (!strncmp(name, "param.", 6)) {
		k->type = find_type(KNOB_WQ_PARAM, name + 6);
		if (!k->type)
			return set_err(errbuf, "'%s' is not a workqueue parameter deferbench changes "
				       "(known: %s)", name + 6,
				       list_attrs(KNOB_WQ_PARAM, list, sizeof(list)));
		return 0;
	}
	if (!strncmp(name, "sysctl.net.core.", 16)) {
		k->type = find_type(KNOB_SYSCTL, name + 16);
		if (!k->type)
			return set_err(errbuf, "'%s' is not a sysctl deferbench changes (known: "
				       "net.core.{%s})", name + 7,
				       list_attrs(KNOB_SYSCTL, list, sizeof(list)));
		return 0;
	}
	return set_err(errbuf, "unknown knob '%s' (knobs start with wq., param., sched., "
		       "sysctl.net.core. or netdev.lo.)", name);
}

int knob_parse_name(const char *name, struct knob *k, char *errbuf)
{
	memset(k, 0, sizeof(*k));
	k->cpu = -1;
	if (!name || strlen(name) >= sizeof(k->name))
		return set_err(errbuf, "knob name too long");
	strcpy(k->name, name);
	return parse_class(name, k, errbuf);
}

int knob_parse(const char *name, const char *value, struct knob *k, const char *online,
	       char *errbuf)
{
	int ret;

	ret = knob_parse_name(name, k, errbuf);
	if (ret)
		return ret;
	if (!value || !*value)
		return set_err(errbuf, "empty value");
	ret = knob_value_canon(k->type, value, k->value, sizeof(k->value), errbuf);
	if (ret)
		return ret;
	return check_value(k, online, errbuf);
}
