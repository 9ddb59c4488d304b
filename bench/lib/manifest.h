/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest.h - what deferbench wrote in a directory, kept beside it: every file by its
 * path relative to the directory, its size and its SHA-256, and the command that wrote
 * it. It is how deferbench knows a file is its own (never by the file's name): --force
 * and --replace replace or remove only files the manifest lists and that still have the
 * size and hash it lists. Written by the output writer (outw.h) only.
 *
 *   DIR/.deferbench-manifest.json:
 *   { "schema": "deferbench-manifest/1",
 *     "files": [ { "path": "tables/cells.csv", "size": 812, "sha256": "9f86...",
 *                  "by": "report" } ] }
 *
 * The entries are sorted by path and carry no time, so that the same outputs give the
 * same manifest. A manifest that is not a regular file, belongs to another user than
 * this one (root's are trusted too) or does not parse is not trusted: nothing in its
 * directory counts as deferbench's. Return convention: 0 or -errno, messages in errbuf.
 */
#ifndef DEFERBENCH_MANIFEST_H
#define DEFERBENCH_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define MANIFEST_NAME ".deferbench-manifest.json"
#define MANIFEST_SCHEMA "deferbench-manifest/1"
#define MANIFEST_MAX_FILES 1000000

struct mf_file {
	char *path;			/* relative, path_rel_ok() (file.h) */
	uint64_t size;
	char sha256[SHA256_HEX_LEN];
	char by[24];			/* the command: "report", "record" ... */
};

struct manifest {
	struct mf_file *f;
	size_t n, cap;
	bool present;			/* the directory has a manifest (trusted or not) */
	bool untrusted;			/* ... that cannot be trusted: why says why */
	char why[256];
};

/*
 * manifest_bookkeeping - a name deferbench keeps for itself at the top of a directory
 * (the manifest and its temporary file, a staging directory and its log): never an
 * output, never counted as content
 */
bool manifest_bookkeeping(const char *name);
/* manifest_load - the manifest of the directory dirfd; absent is an empty one (0) */
int manifest_load(int dirfd, struct manifest *m);
/* manifest_save - write m into dirfd atomically (a new file renamed over the old one) */
int manifest_save(int dirfd, const struct manifest *m, char *errbuf);
/*
 * manifest_add - hash rel beneath dirfd (a regular file, or every regular file of a
 * directory tree; "" is dirfd itself, the manifest excepted) and list it, replacing
 * what was listed under the same paths. by: the command.
 */
int manifest_add(struct manifest *m, int dirfd, const char *rel, const char *by,
		 char *errbuf);
/* manifest_put - list f (a copy), replacing what was listed under its path */
int manifest_put(struct manifest *m, const struct mf_file *f);
/*
 * manifest_merge - list (copies of) the entries of from at or beneath rel ("": all),
 * replacing what m listed under the same paths; m is unchanged on error
 */
int manifest_merge(struct manifest *m, const struct manifest *from, const char *rel);
/* manifest_drop - forget rel and everything listed beneath it */
void manifest_drop(struct manifest *m, const char *rel);
/* manifest_find - the entry of path, or NULL */
const struct mf_file *manifest_find(const struct manifest *m, const char *path);
/*
 * manifest_owns - rel beneath dirfd ("" for all of it) is deferbench's: every regular
 * file in it is listed with the size and hash it has now, and nothing else is in it
 * but directories. 1 yes; 0 no, with the first thing that is not in why (relative to
 * dirfd); -errno when it cannot be read.
 */
int manifest_owns(const struct manifest *m, int dirfd, const char *rel, char *why,
		  size_t len);
/*
 * manifest_remove - remove the files of rel ("" for all) that m lists and that still
 * match it, and the directories that this empties (rel itself included, dirfd not);
 * their entries leave m. 0, or -ENOTEMPTY when anything stays.
 */
int manifest_remove(struct manifest *m, int dirfd, const char *rel);
/* manifest_hash_fd - the size and SHA-256 of an open regular file, read from its start */
int manifest_hash_fd(int fd, uint64_t *size, char sha[SHA256_HEX_LEN]);
void manifest_free(struct manifest *m);

#endif
