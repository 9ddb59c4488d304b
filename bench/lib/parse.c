// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - strict parsers (see parse.h).
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "msg.h"

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return set_err(errbuf, "'%s' is not a non-negative integer", s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return set_err(errbuf, "'%s' is not a non-negative integer", s);
	if (errno == ERANGE)
		return set_err(errbuf, "'%s' is too large (at most %llu)", s,
			       (unsigned long long)max);
	if (v < min || v > max)
		return set_err(errbuf, "%llu is out of range [%llu, %llu]", v,
			       (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int parse_int(const char *s, long min, long max, int *out, char *errbuf)
{
	long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return set_err(errbuf, "'%s' is not an integer", s ? s : "");
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s)
		return set_err(errbuf, "'%s' is not an integer", s);
	if (errno == ERANGE)
		return set_err(errbuf, "'%s' is out of range [%ld, %ld]", s, min, max);
	if (v < min || v > max)
		return set_err(errbuf, "%ld is out of range [%ld, %ld]", v, min, max);
	*out = (int)v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out, char *errbuf)
{
	double v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return set_err(errbuf, "'%s' is not a number", s ? s : "");
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return set_err(errbuf, "'%s' is not a number", s);
	if (v < min || v > max)
		return set_err(errbuf, "%g is out of range [%g, %g]", v, min, max);
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out, char *errbuf)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return set_err(errbuf, "'%s' is not a boolean (use 1/0, yes/no, true/false, on/off)",
		       s ? s : "");
}

static const struct {
	const char *suffix;
	uint64_t mult;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
};

int parse_duration_ns(const char *s, uint64_t *out, char *errbuf)
{
	uint64_t mult = 0;
	double v, ns;
	char *end;
	size_t i;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return set_err(errbuf, "'%s' is not a duration (examples: 10s, 500ms, 2m)",
			       s ? s : "");
	/* decimal digits and one point: strtod alone would take "1e3" and "0x10" */
	for (end = (char *)s; isdigit((unsigned char)*end); end++)
		;
	if (*end == '.')
		for (end++; isdigit((unsigned char)*end); end++)
			;
	if (end == s || (end == s + 1 && *s == '.') ||
	    ((*end == 'e' || *end == 'E') && (isdigit((unsigned char)end[1]) ||
					      end[1] == '+' || end[1] == '-')) ||
	    ((*end == 'x' || *end == 'X') && end == s + 1 && *s == '0'))
		return set_err(errbuf, "'%s' is not a duration: a decimal number and a unit "
			       "(examples: 10s, 1.5s, 500ms, 2m)", s);
	errno = 0;
	v = strtod(s, NULL);
	if (errno)
		return set_err(errbuf, "'%s' is not a duration (examples: 10s, 500ms, 2m)", s);
	if (!*end) {
		mult = NSEC_PER_SEC;
	} else {
		for (i = 0; i < ARRAY_SIZE(duration_units); i++)
			if (!strcmp(end, duration_units[i].suffix))
				mult = duration_units[i].mult;
	}
	if (!mult)
		return set_err(errbuf, "'%s': unknown unit '%s' (use ns, us, ms, s, m or h)", s, end);
	ns = v * (double)mult;
	if (!isfinite(ns) || ns >= 1e18)
		return set_err(errbuf, "'%s' is too long", s);
	if (ns < 1.0)
		return set_err(errbuf, "'%s': a duration must be positive", s);
	*out = (uint64_t)llround(ns);
	return 0;
}

int parse_ts_ns(const char *s, uint64_t *out, char *errbuf)
{
	uint64_t sec = 0, frac = 0;
	const char *p = s;
	int digits = 0;

	if (!s || !isdigit((unsigned char)*s))
		return set_err(errbuf, "'%s' is not a timestamp (seconds: 2481.750123456)",
			       s ? s : "");
	/* digit by digit: a double would lose the nanoseconds of a large timestamp */
	for (; isdigit((unsigned char)*p); p++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return set_err(errbuf, "'%s' is too large", s);
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				digits++;
			}
	if (*p)
		return set_err(errbuf, "'%s' is not a timestamp (seconds: 2481.750123456)", s);
	for (; digits < 9; digits++)
		frac *= 10;
	*out = sec * NSEC_PER_SEC + frac;
	return 0;
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return set_err(errbuf, "'%s' is not a size (examples: 4096, 64k, 16M)", s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return set_err(errbuf, "'%s' is too large", s);
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		break;
	}
	if (*end)
		return set_err(errbuf, "'%s' is not a size (examples: 4096, 64k, 16M)", s);
	if (v > UINT64_MAX / mult)
		return set_err(errbuf, "'%s' is too large", s);
	v *= mult;
	if (v < min || v > max)
		return set_err(errbuf, "%s is out of range [%llu, %llu] bytes", s,
			       (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}
