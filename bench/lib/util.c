// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - parsing, messages, files and signals shared by every part of deferbench.
 */
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int verbose;
volatile sig_atomic_t stop_requested;

/* utf8_len - the length of a valid UTF-8 sequence at s that is not a control, or 0 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* U+0080..U+009F are the C1 controls (0x9b is CSI on some terminals) */
	if (s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	return n;
}

char *str_escape(const char *in, char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, n;

	if (!len)
		return buf;
	while (*s && o + 1 < len) {
		if (*s == '\n' || (*s >= 0x20 && *s < 0x7f)) {
			buf[o++] = (char)*s++;
		} else if ((n = utf8_len(s)) && o + n < len) {
			memcpy(buf + o, s, n);
			o += n;
			s += n;
		} else if (o + 4 < len) {
			snprintf(buf + o, len - o, "\\x%02x", *s++);
			o += 4;
		} else {
			break;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* vmsg - every diagnostic: input quoted in it is escaped on the way out */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char msg[2048], out[sizeof(msg) * 4];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "deferbench: %s%s\n", prefix, str_escape(msg, out, sizeof(out)));
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void info_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vmsg("debug: ", fmt, ap);
	va_end(ap);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int set_errno(char *errbuf, int err, const char *fmt, ...)
{
	va_list ap;

	if (errbuf) {
		va_start(ap, fmt);
		vsnprintf(errbuf, ERRBUF_LEN, fmt, ap);
		va_end(ap);
	}
	return err;
}

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

int cpulist_parse_raw(const char *s, cpu_set_t *set, char *errbuf)
{
	const char *p = s;
	char *end;

	CPU_ZERO(set);
	if (!s || !*s)
		return set_err(errbuf, "empty CPU list");
	while (*p) {
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= CPU_SETSIZE)
			return set_err(errbuf, "'%s': bad CPU range %lu-%lu", s, a, b);
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*p == ',') {
			p++;
			if (!*p)
				return set_err(errbuf, "'%s' ends with a comma", s);
		} else if (*p == '\n' && !p[1]) {
			break;
		} else if (*p) {
			return set_err(errbuf, "'%s' is not a CPU list (example: 0-3,6)", s);
		}
	}
	return 0;
}

int online_cpus(cpu_set_t *set)
{
	char buf[4096];
	int ret;

	ret = read_file("/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (cpulist_parse_raw(buf, set, NULL))
		return -EINVAL;
	return CPU_COUNT(set);
}

int parse_cpulist(const char *s, cpu_set_t *set, const char *online_override, char *errbuf)
{
	cpu_set_t online, extra;
	char list[256];
	int ret;

	ret = cpulist_parse_raw(s, set, errbuf);
	if (ret)
		return ret;
	if (online_override)
		ret = cpulist_parse_raw(online_override, &online, NULL);
	else
		ret = online_cpus(&online) < 0 ? -EIO : 0;
	if (ret)
		return set_err(errbuf, "cannot read the online CPUs");
	CPU_XOR(&extra, set, &online);
	CPU_AND(&extra, &extra, set);
	if (CPU_COUNT(&extra))
		return set_err(errbuf, "CPU %s in '%s' is not online (online: %s)",
			       cpulist_format(&extra, list, sizeof(list)), s,
			       cpulist_format(&online, list + 128, 128));
	return 0;
}

char *cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, set))
			continue;
		for (j = i; j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, set); j++)
			;
		if (off < len)
			off += snprintf(buf + off, len - off, off ? ",%d" : "%d", i);
		if (j > i && off < len)
			off += snprintf(buf + off, len - off, "-%d", j);
		i = j;
	}
	return buf;
}

int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd))
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

char *read_file_alloc(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out_free;
	for (;;) {
		if (cap - len < 4096) {
			nb = realloc(buf, cap *= 2);
			if (!nb)
				goto out_close;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto out_close;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
out_close:
	n = errno;
	close(fd);
	errno = n;
out_free:
	n = errno;
	free(buf);
	errno = n;
	return NULL;
}

int open_input(const char *path, size_t max, char *errbuf)
{
	struct stat st;
	int fd, e;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		set_err(errbuf, "%s is %s, not a regular file", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "special");
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		set_err(errbuf, "%s is %lld bytes, more than the %zu a file of this kind can "
			"hold", path, (long long)st.st_size, max);
		return -EFBIG;
	}
	/* back to blocking reads */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int read_input(const char *path, size_t max, char **text, size_t *lenp, char *errbuf)
{
	size_t len = 0, cap = 4096;
	char *buf, *nb;
	ssize_t n;
	int fd, e;

	*text = NULL;
	fd = open_input(path, max, errbuf);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		set_err(errbuf, "out of memory reading %s", path);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - len < 2) {
			nb = cap > max ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				e = cap > max ? EFBIG : ENOMEM;
				goto out_err;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			goto out_err;
		}
		if (!n)
			break;
		len += (size_t)n;
		/* procfs files say 0 bytes; a file may also grow while it is read */
		if (len > max) {
			e = EFBIG;
			goto out_err;
		}
	}
	close(fd);
	buf[len] = '\0';
	*text = buf;
	if (lenp)
		*lenp = len;
	return 0;
out_err:
	close(fd);
	free(buf);
	if (e == EFBIG)
		set_err(errbuf, "%s is larger than the %zu bytes a file of this kind can hold",
			path, max);
	else
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
	return -e;
}

int path_check(const char *path, char *errbuf)
{
	const char *p = path, *slash;
	char head[48];

	if (!path || !*path)
		return set_err(errbuf, "the path is empty");
	snprintf(head, sizeof(head), "%.40s%s", path, strlen(path) > 40 ? "..." : "");
	if (strlen(path) >= PATH_MAX)
		return set_errno(errbuf, -ENAMETOOLONG, "the path '%s' is %zu bytes long, more than "
				 "the %d a path may have", head, strlen(path), PATH_MAX - 1);
	for (; *p; p = slash + 1) {
		slash = strchr(p, '/');
		if (!slash)
			slash = p + strlen(p) - 1;
		if (slash - p > NAME_MAX)
			return set_errno(errbuf, -ENAMETOOLONG, "the path '%s' has a name of %zu "
					 "bytes, more than the %d a file name may have", head,
					 (size_t)(slash - p), NAME_MAX);
		if (!slash[0] || !slash[1])
			break;
	}
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int rm_rf(const char *path)
{
	char child[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
		if (rm_rf(child))
			ret = -EIO;
	}
	closedir(d);
	if (rmdir(path))
		ret = -errno;
	return ret;
}

static void on_stop_signal(int sig __unused)
{
	stop_requested = 1;
}

void signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

bool sleep_until_or_stop(uint64_t deadline_ns)
{
	while (!stop_requested) {
		uint64_t now = now_ns(), step;
		struct timespec ts;

		if (now >= deadline_ns)
			return false;
		/* wake at least every 100 ms so a stop request is seen promptly */
		step = deadline_ns - now;
		if (step > 100 * NSEC_PER_MSEC)
			step = 100 * NSEC_PER_MSEC;
		ts.tv_sec = step / NSEC_PER_SEC;
		ts.tv_nsec = step % NSEC_PER_SEC;
		nanosleep(&ts, NULL);
	}
	return true;
}

int kernel_release(char *buf, size_t len)
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

void iso_time_now(char *buf, size_t len)
{
	struct tm tm;
	time_t t = time(NULL);

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool is_root(void)
{
	return geteuid() == 0;
}

void command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

int path_join(char *buf, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(buf, len, "%s/%s", a, b) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int fsync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, ret = 0;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

int write_atomic(const char *path, const void *data, size_t len, mode_t mode, int flags)
{
	char tmp[PATH_MAX];
	size_t off = 0;
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t w = write(fd, (const char *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			ret = -errno;
			break;
		}
		off += w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && (flags & WA_EXCL))
		ret = link(tmp, path) ? -errno : 0;
	else if (!ret)
		ret = rename(tmp, path) ? -errno : 0;
	if (ret || (flags & WA_EXCL))
		unlink(tmp);
	return ret ? ret : fsync_dir(path);
}
