// SPDX-License-Identifier: GPL-2.0
/*
 * mstream.c - a service's latency stream, line by line, into samples on CLOCK_MONOTONIC
 * (see mstream.h).
 */
#include "mstream.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "msg.h"
#include "parse.h"

const char *const mstream_fmt_names[MSF_NR] = {
	[MSF_AUTO] = "auto", [MSF_LINE] = "line", [MSF_FIO] = "fio", [MSF_PING] = "ping",
};

const char *const mstream_skip_names[MSK_NR] = {
	[MSK_GARBAGE] = "not a sample",
	[MSK_NEGATIVE] = "negative",
	[MSK_ABSURD] = "absurd (18 minutes or more)",
	[MSK_FUTURE] = "stamped after they arrived",
	[MSK_BEFORE] = "stamped before the stream was opened",
	[MSK_LOST] = "requests without a reply",
	[MSK_DUP] = "duplicate replies",
};

static const char *const fio_ddir[MSTREAM_METRICS] = { "read", "write", "trim" };

/* Unix time from here on: 1e9 s of CLOCK_MONOTONIC would be 31 years of uptime */
#define UNIX_FROM_NS (1000000000ULL * NSEC_PER_SEC)

void mstream_init(struct mstream *s, enum mstream_fmt fmt, uint64_t open_ns)
{
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	s->open_ns = open_ns;
}

int mstream_fmt_parse(const char *name, enum mstream_fmt *fmt, char *errbuf)
{
	int i;

	for (i = 0; i < MSF_NR; i++)
		if (!strcmp(name, mstream_fmt_names[i])) {
			*fmt = (enum mstream_fmt)i;
			return 0;
		}
	return set_err(errbuf, "'%s' is not a metric format (auto, line, fio, ping)", name);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * mstream_clock_sync - CLOCK_MONOTONIC read between two reads of CLOCK_REALTIME, the
 * closest of five tries: the offset is then known to within half that gap
 */
void mstream_clock_sync(struct mstream *s)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t r0 = clock_ns(CLOCK_REALTIME), m = clock_ns(CLOCK_MONOTONIC);
		uint64_t r1 = clock_ns(CLOCK_REALTIME);

		if (r1 >= r0 && r1 - r0 < best) {
			best = r1 - r0;
			s->rt_off_ns = (int64_t)(r0 + (r1 - r0) / 2) - (int64_t)m;
		}
	}
}

/* ---- the pieces of a line ---- */

/* skip - count line under reason; keep the first such line for the message */
static int skip(struct mstream *s, enum mstream_skip why, const char *line)
{
	if (!s->skipped[why]++) {
		s->skip_line[why] = s->lines;
		msg_escape(line, s->skip_text[why], sizeof(s->skip_text[why]));
	}
	return 0;
}

/* unit_ns - the nanoseconds of one unit, or 0 when u is no unit ("" is ns) */
static double unit_ns(const char *u, size_t n)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (strlen(units[i].name) == n && !strncmp(u, units[i].name, n))
			return units[i].ns;
	return 0;
}

/*
 * number - a decimal number at the start of tok (sign, digits, point, exponent; never
 * inf, nan or hex), *end after it; -EINVAL when there is none
 */
static int number(const char *tok, double *v, const char **end)
{
	const char *p;
	char *e;

	if (!strchr("0123456789.+-", *tok) || !*tok)
		return -EINVAL;
	*v = strtod(tok, &e);
	if (e == tok)
		return -EINVAL;
	for (p = tok; p < e; p++)
		if (!strchr("0123456789.eE+-", *p))
			return -EINVAL;
	*end = e;
	return 0;
}

/*
 * latency - "12.5ms", or num "12.5" and unit "ms" apart (unit NULL: none given), into
 * *ns; the skip reason when it is no latency, or -1
 */
static int latency(const char *num, const char *unit, double dflt, uint64_t *ns)
{
	const char *end;
	double v, mult;

	if (number(num, &v, &end))
		return MSK_GARBAGE;
	if (*end && unit)
		return MSK_GARBAGE;	/* "5ms ms" */
	mult = unit ? unit_ns(unit, strlen(unit)) : *end ? unit_ns(end, strlen(end)) : dflt;
	if (!mult)
		return MSK_GARBAGE;
	if (v < 0)
		return MSK_NEGATIVE;
	v *= mult;
	if (!(v < (double)MSTREAM_MAX_NS))
		return MSK_ABSURD;
	*ns = (uint64_t)llround(v);
	return -1;
}

/* stamp - a timestamp in seconds, CLOCK_MONOTONIC or Unix time, to CLOCK_MONOTONIC ns */
static int stamp(const struct mstream *s, const char *tok, uint64_t *ns)
{
	uint64_t t;

	if (parse_ts_ns(tok, &t, NULL))
		return -EINVAL;
	if (t >= UNIX_FROM_NS) {
		if ((int64_t)t - s->rt_off_ns < 0)
			return -ERANGE;
		t = (uint64_t)((int64_t)t - s->rt_off_ns);
	}
	*ns = t;
	return 0;
}

/* bracketed - "[TS]" at the start of *p: its text in ts (NUL-ended), *p after it */
static bool bracketed(const char **p, char *ts, size_t len)
{
	const char *close;

	if (**p != '[')
		return false;
	close = strchr(*p, ']');
	if (!close || (size_t)(close - *p - 1) >= len)
		return false;
	memcpy(ts, *p + 1, (size_t)(close - *p - 1));
	ts[close - *p - 1] = '\0';
	*p = close + 1;
	while (isspace((unsigned char)**p))
		(*p)++;
	return true;
}

/*
 * sample - a latency ending at the line's timestamp (stamped) or its arrival: checked
 * against the stream's time, then into *out; 1, or 0 when skipped
 */
static int sample(struct mstream *s, const char *line, uint64_t arrival_ns, bool stamped,
		  uint64_t end_ns, uint64_t value_ns, int metric, struct mstream_sample *out)
{
	if (!stamped)
		end_ns = arrival_ns;
	else if (end_ns > arrival_ns + MSTREAM_SLACK_NS)
		return skip(s, MSK_FUTURE, line);
	else if (end_ns + MSTREAM_SLACK_NS < s->open_ns)
		return skip(s, MSK_BEFORE, line);
	out->end_ns = end_ns;
	out->value_ns = value_ns;
	out->begin_ns = end_ns > value_ns ? end_ns - value_ns : 0;
	out->stamped = stamped;
	out->metric = metric;
	s->samples++;
	s->stamped += stamped;
	s->last_ns = arrival_ns;
	return 1;
}

/* ---- the formats ---- */

/* line_fmt - "[TS] LATENCY[UNIT]", TS bracketed or not, UNIT attached or apart */
static int line_fmt(struct mstream *s, const char *line, const char *p, uint64_t arrival_ns,
		    struct mstream_sample *out)
{
	char buf[MSTREAM_LINE_MAX + 1], ts[64], *tok[4], *save = NULL, *hash;
	uint64_t t = 0, v;
	size_t n = 0;
	int why;
	bool has_ts;

	has_ts = bracketed(&p, ts, sizeof(ts));
	snprintf(buf, sizeof(buf), "%s", p);
	hash = strchr(buf, '#');
	if (hash)
		*hash = '\0';
	for (tok[n] = strtok_r(buf, " \t", &save); tok[n] && n < 3;)
		tok[++n] = strtok_r(NULL, " \t", &save);
	if (!n || (n == 3 && tok[3]))
		return skip(s, MSK_GARBAGE, line);
	/* TS LAT [UNIT], or LAT UNIT: a second token that is a unit makes the first the latency */
	if (!has_ts && (n == 3 || (n == 2 && !unit_ns(tok[1], strlen(tok[1]))))) {
		snprintf(ts, sizeof(ts), "%s", tok[0]);
		memmove(tok, tok + 1, 3 * sizeof(*tok));
		n--;
		has_ts = true;
	}
	if (n > 2 || (n == 2 && !unit_ns(tok[1], strlen(tok[1]))))
		return skip(s, MSK_GARBAGE, line);
	why = latency(tok[0], n == 2 ? tok[1] : NULL, 1, &v);
	if (why >= 0)
		return skip(s, why, line);
	if (has_ts && stamp(s, ts, &t))
		return skip(s, MSK_GARBAGE, line);
	return sample(s, line, arrival_ns, has_ts, t, v, 0, out);
}

/* fio_fields - "t, v, ddir, bs[, offset][, prio]": the first four, or -EINVAL */
static int fio_fields(const char *p, uint64_t f[4])
{
	char *end;
	int i, n = 0;

	for (i = 0; i < 4; i++) {
		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			return *p == '-' && i == 1 ? -ERANGE : -EINVAL;
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
		while (isspace((unsigned char)*p))
			p++;
		if (i < 3 && *p++ != ',')
			return -EINVAL;
	}
	/* offset and priority (hexadecimal with log_prio): present, not used */
	if (*p && *p != ',')
		return -EINVAL;
	for (; *p; p++)
		if (*p == ',' && ++n > 2)
			return -EINVAL;
	return 0;
}

static int fio_fmt(struct mstream *s, const char *line, const char *p, uint64_t arrival_ns,
		   struct mstream_sample *out)
{
	uint64_t f[4], t;
	int ret = fio_fields(p, f);

	if (ret == -ERANGE)
		return skip(s, MSK_NEGATIVE, line);
	if (ret || f[2] >= MSTREAM_METRICS || f[0] > UINT64_MAX / NSEC_PER_MSEC)
		return skip(s, MSK_GARBAGE, line);
	if (f[1] >= MSTREAM_MAX_NS)
		return skip(s, MSK_ABSURD, line);
	t = f[0] * NSEC_PER_MSEC;
	if (t >= UNIX_FROM_NS) {
		if ((int64_t)t - s->rt_off_ns < 0)
			return skip(s, MSK_GARBAGE, line);
		t = (uint64_t)((int64_t)t - s->rt_off_ns);
	}
	return sample(s, line, arrival_ns, true, t, f[1], (int)f[2], out);
}

static bool starts(const char *p, const char *word)
{
	return !strncmp(p, word, strlen(word));
}

/* ping_fmt - a reply "... bytes from ...: icmp_seq=N ttl=N time=X ms", [TS] with -D */
static int ping_fmt(struct mstream *s, const char *line, const char *p, uint64_t arrival_ns,
		    struct mstream_sample *out)
{
	char ts[64], num[32], unit[8] = "";
	const char *tm;
	uint64_t t = 0, v;
	bool has_ts = bracketed(&p, ts, sizeof(ts));
	int why;

	if (!*p || starts(p, "PING ") || starts(p, "--- ") || strstr(p, "packets transmitted") ||
	    starts(p, "rtt ") || starts(p, "round-trip ")) {
		s->ignored++;
		return 0;
	}
	if (strstr(p, "no answer yet for icmp_seq=") ||
	    (starts(p, "From ") && strstr(p, "icmp_seq=")) || starts(p, "Request timeout"))
		return skip(s, MSK_LOST, line);
	tm = strstr(p, " bytes from ") ? strstr(p, " time=") : NULL;
	if (!tm || sscanf(tm + 6, "%31[0-9.] %7[a-z]", num, unit) != 2)
		return skip(s, MSK_GARBAGE, line);
	if (strstr(p, "(DUP!)"))
		return skip(s, MSK_DUP, line);
	why = latency(num, unit, 1, &v);
	if (why >= 0)
		return skip(s, why, line);
	if (has_ts && stamp(s, ts, &t))
		return skip(s, MSK_GARBAGE, line);
	return sample(s, line, arrival_ns, has_ts, t, v, 0, out);
}

/* detect - the format a line is in, for a stream of format auto; MSF_AUTO if none */
static enum mstream_fmt detect(const char *p)
{
	char ts[64];
	uint64_t f[4];

	if (fio_fields(p, f) != -EINVAL)
		return MSF_FIO;
	bracketed(&p, ts, sizeof(ts));
	if (starts(p, "PING ") || strstr(p, " bytes from "))
		return MSF_PING;
	return MSF_LINE;
}

/* parse - a line that is not blank in the stream's format */
static int parse(struct mstream *s, const char *line, const char *p, uint64_t arrival_ns,
		 struct mstream_sample *out)
{
	switch (s->fmt) {
	case MSF_FIO:
		return fio_fmt(s, line, p, arrival_ns, out);
	case MSF_PING:
		return ping_fmt(s, line, p, arrival_ns, out);
	default:
		return line_fmt(s, line, p, arrival_ns, out);
	}
}

int mstream_line(struct mstream *s, const char *line, uint64_t arrival_ns,
		 struct mstream_sample *out)
{
	const char *p = line;
	enum mstream_fmt f;
	int ret;

	s->lines++;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#') {
		s->ignored++;
		return 0;
	}
	if (s->fmt != MSF_AUTO)
		return parse(s, line, p, arrival_ns, out);
	/* a line decides the format only if it is a sample of it, or ping's header */
	f = detect(p);
	s->fmt = f;
	ret = parse(s, line, p, arrival_ns, out);
	if (ret <= 0 && f != MSF_PING)
		s->fmt = MSF_AUTO;
	return ret;
}

/* ---- bytes into lines ---- */

int mstream_feed(struct mstream *s, const char *buf, size_t n, uint64_t arrival_ns,
		 mstream_fn fn, void *ctx)
{
	struct mstream_sample smp;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (s->plen < MSTREAM_LINE_MAX)
				s->part[s->plen++] = buf[i] ? buf[i] : ' ';
			else
				s->overlong = true;
			continue;
		}
		if (s->plen && s->part[s->plen - 1] == '\r')
			s->plen--;
		s->part[s->plen] = '\0';
		if (s->overlong) {
			s->lines++;
			skip(s, MSK_GARBAGE, s->part);
		} else if (mstream_line(s, s->part, arrival_ns, &smp) > 0) {
			ret = fn(&smp, ctx);
			if (ret) {
				s->plen = 0;
				s->overlong = false;
				return ret;
			}
		}
		s->plen = 0;
		s->overlong = false;
	}
	return 0;
}

int mstream_finish(struct mstream *s, uint64_t arrival_ns, mstream_fn fn, void *ctx)
{
	return s->plen || s->overlong ? mstream_feed(s, "\n", 1, arrival_ns, fn, ctx) : 0;
}

/* ---- what it read ---- */

const char *mstream_metric_name(const struct mstream *s, int metric)
{
	if (s->fmt == MSF_FIO)
		return metric >= 0 && metric < MSTREAM_METRICS ? fio_ddir[metric] : "?";
	return s->fmt == MSF_PING ? "rtt" : "latency";
}

uint64_t mstream_nskipped(const struct mstream *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < MSK_NR; i++)
		n += s->skipped[i];
	return n;
}

char *mstream_skips(const struct mstream *s, char *buf, size_t len)
{
	uint64_t n = mstream_nskipped(s);
	size_t at;
	int i, k = 0;

	buf[0] = '\0';
	if (!n)
		return buf;
	at = (size_t)snprintf(buf, len, "%llu line%s skipped:", (unsigned long long)n,
			      n == 1 ? "" : "s");
	for (i = 0; i < MSK_NR && at < len; i++) {
		if (!s->skipped[i])
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s %llu %s (%sline %llu '%s')",
				       k++ ? "," : "", (unsigned long long)s->skipped[i],
				       mstream_skip_names[i], s->skipped[i] > 1 ? "first: " : "",
				       (unsigned long long)s->skip_line[i], s->skip_text[i]);
	}
	return buf;
}

const char *mstream_verdict(const struct mstream *s, char *buf, size_t len)
{
	char sk[ERRBUF_LEN];

	if (s->samples)
		return NULL;
	if (!s->lines) {
		snprintf(buf, len, "not one line was written");
		return buf;
	}
	if (!mstream_nskipped(s)) {
		snprintf(buf, len, "%llu line%s, none a sample (blank, comments, or ping's header "
			 "and summary)", (unsigned long long)s->lines, s->lines == 1 ? "" : "s");
		return buf;
	}
	snprintf(buf, len, "not one sample in %llu line%s: %s%s", (unsigned long long)s->lines,
		 s->lines == 1 ? "" : "s", mstream_skips(s, sk, sizeof(sk)),
		 s->skipped[MSK_BEFORE] || s->skipped[MSK_FUTURE] ?
		 "; timestamps must be seconds on CLOCK_MONOTONIC or Unix time (fio: "
		 "--log_alternate_epoch=1 --log_alternate_epoch_clock_id=1), or left out" : "");
	return buf;
}
