// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - gnuplot scripts and the child process that draws them (see plot.h).
 */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "file.h"
#include "grow.h"
#include "outw.h"
#include "parse.h"
#include "proc.h"
#include "sys.h"

/* what one plot may take, a dozen curves of thousands of points: far under a minute */
#define PLOT_TIMEOUT_S 60
/*
 * Text: 10 points in the PNG (pngcairo: capitals 10 pixels high) and 14 user units in
 * the SVG, the same size when either is shown at its own width - as the report shows
 * them, so that no label is smaller than that on a 1366-pixel-wide screen.
 */
#define PNG_FONT "sans,10"
#define SVG_FONT "sans,14"

void plot_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

void plot_pct_xtics(FILE *f, double xmax)
{
	static const struct { const char *label; double x; } tics[] = {
		/* tic labels are gnuplot format strings: %% is a percent sign */
		{ "0%%", 1 }, { "50%%", 2 }, { "90%%", 10 }, { "99%%", 100 }, { "99.9%%", 1e3 },
		{ "99.99%%", 1e4 }, { "99.999%%", 1e5 }, { "99.9999%%", 1e6 },
	};
	size_t i;

	fputs("set xtics (", f);
	for (i = 0; i < ARRAY_SIZE(tics) && (i < 4 || tics[i].x <= xmax * 1.01); i++)
		fprintf(f, "%s'%s' %g", i ? ", " : "", tics[i].label, tics[i].x);
	fputs(")\n", f);
}

/*
 * plot_timeout_ns - how long gnuplot may take for one plot or the terminal probe: a
 * gnuplot that hangs (at its terminal probe, in a plot) must not hang report.
 * DEFERBENCH_PLOT_TIMEOUT (seconds) sets it, for slow machines and for the tests.
 */
static uint64_t plot_timeout_ns(void)
{
	const char *env = getenv("DEFERBENCH_PLOT_TIMEOUT");
	uint64_t s;

	if (env && *env && !parse_u64(env, 1, 86400, &s, NULL))
		return s * NSEC_PER_SEC;
	return PLOT_TIMEOUT_S * NSEC_PER_SEC;
}

/*
 * gp_spawn - gnuplot with args, in dir (NULL: here), stdin from /dev/null, stdout and
 * stderr to out and err (-1: /dev/null); in a process group of its own, so that a
 * timeout stops whatever it started, and killed with report. A pid, or -errno.
 */
static pid_t gp_spawn(const char *dir, char *const argv[], int out, int err)
{
	pid_t pid = fork();
	int null;

	if (pid != 0)
		return pid < 0 ? -errno : pid;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (dir && chdir(dir))
		_exit(126);
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(out >= 0 ? out : null, STDOUT_FILENO);
		dup2(err >= 0 ? err : null, STDERR_FILENO);
	}
	proc_cloexec_from(STDERR_FILENO + 1);
	execvp("gnuplot", argv);
	_exit(127);
}

/*
 * gp_wait - gnuplot's exit status by deadline (CLOCK_MONOTONIC), or -ETIME when it had
 * to be killed (with its process group); -errno
 */
static int gp_wait(pid_t pid, uint64_t deadline, int *status)
{
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (now_ns() >= deadline)
			break;
		usleep(10000);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return -ETIME;
}

/*
 * run_gnuplot - gnuplot SCRIPT in dir, stderr to log; 0, -EIO when it failed, -ETIME
 * when it did not finish in time. What gnuplot writes (stem.png, stem.svg, the log) is
 * logged by the parent first (outw.h).
 */
static int run_gnuplot(const char *dir, const char *stem, const char *script, const char *log)
{
	char path[4096 + PLOT_STEM_LEN + 16], *argv[] = { "gnuplot", (char *)script, NULL };
	int status, fd, ret;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s.png", dir, stem);
	ret = out_note(path);
	snprintf(path, sizeof(path), "%s/%s.svg", dir, stem);
	ret = ret ?: out_note(path);
	snprintf(path, sizeof(path), "%s/%s", dir, log);
	ret = ret ?: out_note(path);
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	pid = gp_spawn(dir, argv, -1, fd);
	if (fd >= 0)
		close(fd);
	if (pid < 0)
		return pid;
	ret = gp_wait(pid, now_ns() + plot_timeout_ns(), &status);
	if (ret)
		return ret;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int plot_check(char *errbuf)
{
	char *argv[] = { "gnuplot", "-e", "set terminal", NULL }, buf[4096], *text = NULL;
	uint64_t timeout = plot_timeout_ns(), deadline = now_ns() + timeout;
	size_t len = 0, cap = 0;
	int pfd[2], status, ret = 0;
	bool png, svg;
	pid_t pid;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return errno_msg(errbuf, -errno, "cannot run gnuplot: %s", strerror(errno));
	pid = gp_spawn(NULL, argv, pfd[1], pfd[1]);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return errno_msg(errbuf, pid, "cannot run gnuplot: %s", strerror(-pid));
	}
	/* what it prints, until it closes its output or the deadline */
	while (!ret) {
		struct pollfd p = { pfd[0], POLLIN, 0 };
		uint64_t now = now_ns();

		if (now >= deadline)
			break;
		n = poll(&p, 1, (int)((deadline - now) / NSEC_PER_MSEC) + 1);
		if (n < 0 && errno != EINTR)
			ret = -errno;
		if (n <= 0)
			continue;	/* the deadline, checked above */
		n = read(pfd[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		if (GROW(text, cap, len + n + 1)) {
			ret = -ENOMEM;
			break;
		}
		memcpy(text + len, buf, n);
		len += n;
		text[len] = '\0';
	}
	close(pfd[0]);
	ret = ret ?: gp_wait(pid, deadline, &status);
	png = text && strstr(text, "pngcairo");
	svg = text && strstr(text, " svg ");
	free(text);
	if (ret == -ETIME)
		return errno_msg(errbuf, ret, "gnuplot did not answer 'set terminal' within %llu s: "
				 "it hangs (at its terminal probe?) and was killed; fix gnuplot, "
				 "or use --no-plots (DEFERBENCH_PLOT_TIMEOUT=SECONDS waits longer)",
				 (unsigned long long)(timeout / NSEC_PER_SEC));
	if (ret)
		return errno_msg(errbuf, ret, "cannot run gnuplot: %s", strerror(-ret));
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !png || !svg)
		return errno_msg(errbuf, -ENOENT, "gnuplot with the pngcairo and svg terminals is "
				"needed for plots (Debian: gnuplot-nox, see ci/install-deps.sh); "
				"or use --no-plots");
	return 0;
}

void plot_sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			*s = '_';
}

int plot_begin(struct plot *p, const char *plotdir, const char *stem, const char *title,
	       const char *xlabel, const char *ylabel)
{
	return plot_begin_at(p, 0, 0, plotdir, stem, title, xlabel, ylabel);
}

int plot_begin_at(struct plot *p, int w, int h, const char *plotdir, const char *stem,
		  const char *title, const char *xlabel, const char *ylabel)
{
	char path[4096 + PLOT_STEM_LEN + 8];

	memset(p, 0, sizeof(*p));
	p->w = w > 0 ? w : PLOT_W;
	p->h = h > 0 ? h : PLOT_H;
	snprintf(p->dir, sizeof(p->dir), "%s", plotdir);
	snprintf(p->stem, sizeof(p->stem), "%s", stem);
	plot_sanitize(p->stem);
	snprintf(path, sizeof(path), "%s/%s.gp", p->dir, p->stem);
	p->gp = out_fopen(path);
	if (!p->gp)
		return -errno;
	fprintf(p->gp, "# generated by deferbench report\n"
		"set terminal pngcairo noenhanced size %d,%d font '" PNG_FONT "'\n"
		"set output '%s.png'\n", p->w, p->h, p->stem);
	fputs("set title ", p->gp);
	plot_str(p->gp, title);
	fputs("\nset xlabel ", p->gp);
	plot_str(p->gp, xlabel);
	fputs("\nset ylabel ", p->gp);
	plot_str(p->gp, ylabel);
	/* major grid lines only: the minor ones of a log axis cost more than they tell */
	fputs("\nset grid xtics ytics lc rgb '#dddddd'\n"
	      "# the legend below the graph and its axis label, in a margin gnuplot sizes to\n"
	      "# fit it: it hides no curve and no label\n"
	      "set rmargin 6\nset key below center horizontal maxrows 4 nobox height 1\n"
	      "set border 3\nset tics nomirror\n", p->gp);
	return 0;
}

FILE *plot_data(struct plot *p, char *name, size_t len)
{
	char path[4096 + PLOT_STEM_LEN + 16];
	FILE *f;

	snprintf(name, len, "%s-%d.dat", p->stem, p->ndata++);
	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	f = out_fopen(path);
	if (!f && !p->err)
		p->err = -errno;
	return f;
}

void plot_abort(struct plot *p)
{
	if (p->gp)
		fclose(p->gp);
	p->gp = NULL;
}

/* show_log - gnuplot's complaints, for the user */
static void show_log(const char *path)
{
	char *text = read_whole_file(path, NULL);

	if (text && *text)
		err_msg("gnuplot said:\n%s", text);
	free(text);
}

int plot_end(struct plot *p, char *errbuf)
{
	char script[PLOT_STEM_LEN + 8], log[PLOT_STEM_LEN + 8];
	char logpath[4096 + PLOT_STEM_LEN + 16];
	int ret;

	fprintf(p->gp, "unset output\n"
		"set terminal svg noenhanced size %d,%d fixed font '" SVG_FONT "'\n"
		"set output '%s.svg'\nreplot\nunset output\n", p->w, p->h, p->stem);
	fflush(p->gp);
	ret = p->err ?: out_ferror(p->gp);
	if (fclose(p->gp) && !ret)
		ret = -errno;
	p->gp = NULL;
	if (ret)
		return errno_msg(errbuf, ret, "%s/%s: cannot write the plot files: %s", p->dir,
				p->stem, strerror(-ret));
	snprintf(script, sizeof(script), "%s.gp", p->stem);
	snprintf(log, sizeof(log), "%s.log", p->stem);
	snprintf(logpath, sizeof(logpath), "%s/%s", p->dir, log);
	ret = run_gnuplot(p->dir, p->stem, script, log);
	if (ret == -ENOENT)
		return errno_msg(errbuf, ret, "gnuplot not found (install gnuplot-nox)");
	if (ret == -ETIME)
		return errno_msg(errbuf, ret, "gnuplot did not finish the plot %s within %llu s: "
				 "it hangs, and was killed; fix gnuplot, or use --no-plots "
				 "(DEFERBENCH_PLOT_TIMEOUT=SECONDS waits longer)", p->stem,
				 (unsigned long long)(plot_timeout_ns() / NSEC_PER_SEC));
	if (ret && ret != -EIO)
		return errno_msg(errbuf, ret, "%s/%s: cannot draw the plot: %s", p->dir, p->stem,
				 strerror(-ret));
	if (ret) {
		show_log(logpath);
		return errno_msg(errbuf, ret, "gnuplot failed on %s/%s (log kept in %s)", p->dir,
				script, log);
	}
	unlink(logpath);
	return 0;
}
