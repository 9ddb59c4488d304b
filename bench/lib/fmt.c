// SPDX-License-Identifier: GPL-2.0
/*
 * fmt.c - nanoseconds as text for people (fmt.h).
 */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

const char *fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < NSEC_PER_USEC)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < NSEC_PER_MSEC)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < NSEC_PER_SEC)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
	return buf;
}

const char *fmt_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns && ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns && ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (ns && ns % NSEC_PER_USEC == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / NSEC_PER_USEC));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

const char *fmt_us(double ns, char *buf, size_t len)
{
	double us = ns / 1e3;

	if (isnan(ns))
		snprintf(buf, len, "-");
	else if (us < 10)
		snprintf(buf, len, "%.2f", us);
	else if (us < 100)
		snprintf(buf, len, "%.1f", us);
	else
		snprintf(buf, len, "%.0f", us);
	return buf;
}

const char *fmt_lat(uint64_t ns, bool in_ns, char *buf, size_t len)
{
	if (in_ns)
		snprintf(buf, len, "%llu", (unsigned long long)ns);
	else
		snprintf(buf, len, "%.1f", ns / 1e3);
	return buf;
}

const char *fmt_cut(const char *s, int w, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (w < 2 || n <= (size_t)w || (size_t)w >= len) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	memcpy(buf, s, (size_t)w - 1);
	buf[w - 1] = '~';
	buf[w] = '\0';
	return buf;
}

const char *fmt_ratio(double r, char *buf, size_t len)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, r < 10 ? "%.2f" : "%.1f", r);
	return buf;
}

const char *fmt_eta(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = (ns + NSEC_PER_SEC / 2) / NSEC_PER_SEC;

	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)s / 3600,
			 (unsigned long long)s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else
		snprintf(buf, len, "%llus", (unsigned long long)s);
	return buf;
}
