// SPDX-License-Identifier: GPL-2.0
/*
 * wl_options.c - a workload's options: "key=value" into its config through its option
 * table, by the settings engine's parsers (opts.h), the values back as text, and every
 * option for 'deferbench load --list'. Pure functions of the table: no root.
 */
#include "workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

const struct opt_desc *wl_option_find(const struct workload_ops *ops, const char *name)
{
	return ops->options ? opts_find_key(ops->options, name) : NULL;
}

/* options renamed so that one name means one thing everywhere (load's -i, --interval) */
static const struct {
	const char *workload, *old, *now;
} renamed[] = {
	{ "timer", "interval", "period" },
};

const char *wl_option_renamed(const struct workload_ops *ops, const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(renamed); i++)
		if (!strcmp(ops->name, renamed[i].workload) && !strcmp(key, renamed[i].old))
			return renamed[i].now;
	return NULL;
}

/* set - key of w's config to val, or the message naming the workload and the option */
static int set(struct wl_run *w, const char *key, const char *val, char *errbuf)
{
	char why[ERRBUF_LEN], keys[ERRBUF_LEN - 64];
	const char *now = wl_option_renamed(w->ops, key);

	if (now)
		return set_err(errbuf, "%s option '%s' is now '%s' (-i, --interval means the "
			       "length of per-interval statistics everywhere)", w->ops->name, key,
			       now);
	if (!wl_option_find(w->ops, key)) {
		keys[0] = '\0';
		if (w->ops->options)
			opts_keys(w->ops->options, keys, sizeof(keys));
		return set_err(errbuf, "%s has no option '%s' (options: %s)", w->ops->name, key,
			       keys[0] ? keys : "none");
	}
	if (opts_set(w->ops->options, key, val ? val : "", w->cfg, why))
		return set_err(errbuf, "%s option '%s': %s", w->ops->name, key, why);
	return 0;
}

int wl_set_option(struct wl_run *w, const char *key, const char *val, char *errbuf)
{
	if (w->state && wl_option_find(w->ops, key))
		return set_err(errbuf, "%s: option '%s' set after setup", w->ops->name, key);
	return set(w, key, val, errbuf);
}

/* is_live - key is one of ops' live options */
static bool is_live(const struct workload_ops *ops, const char *key)
{
	const char *const *l;

	for (l = ops->live; l && *l; l++)
		if (!strcmp(*l, key))
			return true;
	return false;
}

bool workload_live_option(const char *name, const char *key)
{
	const struct workload_ops *ops = workload_find(name);

	return ops && ops->switch_option && is_live(ops, key);
}

int wl_switch_option(struct wl_run *w, const char *key, const char *val, char *errbuf)
{
	void *old;
	int ret;

	if (!w->ops->switch_option || !is_live(w->ops, key))
		return set_err(errbuf, "%s cannot switch option '%s' while it runs", w->ops->name,
			       key);
	/* the config as it was, for a switch the workload refuses */
	old = malloc(w->ops->cfg_size);
	if (!old)
		return set_err(errbuf, "%s: out of memory", w->ops->name);
	memcpy(old, w->cfg, w->ops->cfg_size);
	ret = set(w, key, val, errbuf);
	if (!ret)
		ret = w->ops->switch_option(w, key, errbuf);
	if (ret)
		memcpy(w->cfg, old, w->ops->cfg_size);
	free(old);
	return ret;
}

int wl_option_value(const struct wl_run *w, const struct opt_desc *o, char *buf, size_t len)
{
	return opts_value(o, w->cfg, buf, len);
}

void wl_list(FILE *f, const struct workload_ops *only)
{
	const struct workload_ops *const *r;
	const struct opt_desc *o;
	char type[160], range[64];

	for (r = workload_registry; *r; r++) {
		if (only && *r != only)
			continue;
		fprintf(f, "%s - %s\n", (*r)->name, (*r)->help);
		for (o = (*r)->options; o && o->type != OPTION_END; o++) {
			opts_type_name(o, type, sizeof(type));
			opts_range(o, range, sizeof(range));
			fprintf(f, "  %-14s %s (default %s%s%s)\n", o->key, type,
				o->def && *o->def ? o->def : "none", *range ? ", " : "", range);
			fprintf(f, "  %14s %s\n", "", o->help);
		}
		fprintf(f, "\n");
	}
}
