/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - temporary directories and files for unit tests.
 */
#ifndef DEFERBENCH_FIXTURE_H
#define DEFERBENCH_FIXTURE_H

/*
 * fixture_dir - a new empty directory under /tmp; aborts the test binary on failure.
 * One that fixture_free() never removed (its test failed) goes when the binary exits.
 */
char *fixture_dir(void);
/* fixture_free - remove the directory tree and free the name */
void fixture_free(char *dir);
/* fixture_write - dir/name with the given text (subdirectories created); path returned
 * in a static buffer */
const char *fixture_write(const char *dir, const char *name, const char *text);
/* fixture_path - dir/name in a static buffer */
const char *fixture_path(const char *dir, const char *name);

#endif
