/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha256.h - SHA-256 (FIPS 180-4), for the manifests of what deferbench wrote
 * (manifest.h): small enough to carry rather than link a crypto library for.
 */
#ifndef DEFERBENCH_SHA256_H
#define DEFERBENCH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX_LEN 65	/* 64 hex digits and a NUL */

struct sha256 {
	uint32_t h[8];
	uint64_t len;			/* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* sha256_hex - finish and write the digest as lower-case hex into hex */
void sha256_hex(struct sha256 *s, char hex[SHA256_HEX_LEN]);

#endif
