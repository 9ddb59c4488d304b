// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - who and where deferbench runs: the kernel, the host's name, root (see
 * sys.h).
 */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

int host_kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	snprintf(buf, len, "%s", u.release);
	return 0;
}

int host_name(char *buf, size_t len)
{
	if (gethostname(buf, len))
		return -errno;
	buf[len - 1] = '\0';
	return 0;
}

bool host_is_root(void)
{
	return geteuid() == 0;
}
