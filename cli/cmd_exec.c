/*
 * cli/cmd_exec.c - `bstore exec [OPTIONS] -- TOOL ARGS...`: runs a
 * benchmark (bonnie++, Bonnie, fio, sysbench, dd, zcav, getc_putc) as a
 * child, no shell between, shows what it prints as it prints it, and
 * when it ends well ingests its output (stderr, then stdout: bonnie++
 * -q's table before its CSV line) as bstore ingest would, with what only
 * the run knows: when it started (measured_at), the machine it ran on
 * (host.* facts of the file, directory or device its arguments name, as
 * bstore run probes them), the command line (exec.command) and the
 * parameters its arguments give where the output does not say them
 * (the family rows' programs, core/family.h: fio --direct=1, bonnie++
 * -D). A tool that fails, or a stop signal, stores nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_ingest.h"
#include "cli/measure.h"
#include "cli/msg.h"
#include "cli/opt.h"
#include "core/family.h"
#include "core/host.h"
#include "core/param.h"
#include "core/scratch.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

struct exec_args {
	const char *machine;
	const char *target;
	struct bs_cli_tags tags;
	int no_store;
	int quiet;
};

/* A parameter the arguments give: its key and value as typed. */
struct given {
	const char *key;
	char *value;
};

struct exec_run {
	const struct bs_cli *cli;
	enum bs_family family;
	const struct bs_host *host;
	struct given *given;
	size_t ngiven;
	long long runs;
};

/* The value of argv[*i] for a row that takes one, or NULL when it is not
 * that row's argument: "-d DIR", "-dDIR", "--x=V", "--x V", "of=F". */
static const char *arg_value(const struct bs_exec_arg *x, char **argv, int argc,
			     int *i)
{
	const char *a = argv[*i];
	size_t n = strlen(x->name);

	if (x->name[n - 1] == '=')
		return strncmp(a, x->name, n) == 0 ? a + n : NULL;
	if (strcmp(a, x->name) == 0)
		return *i + 1 < argc ? argv[++*i] : NULL;
	if (strncmp(a, x->name, n) != 0)
		return NULL;
	if (x->name[1] == '-')
		return a[n] == '=' ? a + n + 1 : NULL;
	return a[n] != '\0' ? a + n : NULL;
}

/* Whether a comma-separated list of words holds word. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, word, n) == 0)
			return 1;
		p += k;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void give(struct exec_run *x, size_t *cap, const char *key,
		 const char *value)
{
	size_t i;

	/* The last one given wins, as with the tools' own options. */
	for (i = 0; i < x->ngiven; i++)
		if (strcmp(x->given[i].key, key) == 0) {
			free(x->given[i].value);
			x->given[i].value = xstrdup(value);
			return;
		}
	xgrow((void **)&x->given, cap, x->ngiven + 1, sizeof(*x->given));
	x->given[x->ngiven].key = key;
	x->given[x->ngiven++].value = xstrdup(value);
}

/* A pseudo device that stands for no storage: dd if=/dev/zero. */
static int pseudo_device(const char *path)
{
	static const char *const devs[] = {"/dev/zero",    "/dev/null",
					   "/dev/urandom", "/dev/random",
					   "/dev/full",    "-"};
	size_t i;

	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		if (strcmp(path, devs[i]) == 0)
			return 1;
	return 0;
}

/*
 * Walks the tool's arguments with its program row: the first path an
 * argument names (*path, NULL for none) and the parameters given.
 */
static void read_args(const struct bs_exec_prog *pr, int argc, char **argv,
		      struct exec_run *x, const char **path)
{
	size_t cap = 0;
	int i, k, seen[64] = {0};
	const char *last_operand = NULL;

	*path = NULL;
	for (i = 1; i < argc; i++) {
		int matched = 0;

		for (k = 0; k < pr->nargs; k++) {
			const struct bs_exec_arg *a = &pr->args[k];
			const char *v = NULL;
			int j = i;

			if (a->name == NULL)
				continue;
			if (a->flags & BS_XA_ARG) {
				v = arg_value(a, argv, argc, &j);
				if (v == NULL)
					continue;
			} else if (strcmp(argv[i], a->name) != 0) {
				continue;
			}
			matched = 1;
			if (k < 64)
				seen[k] = 1;
			if ((a->flags & BS_XA_PATH) && *path == NULL &&
			    !pseudo_device(v))
				*path = v;
			if (a->param && (a->flags & BS_XA_WORD)) {
				if (has_word(v, a->word))
					give(x, &cap, a->param, a->value);
			} else if (a->param) {
				give(x, &cap, a->param,
				     a->value ? a->value : v);
			}
			/* Rows of one name all apply (sysbench's extra
			 * flags give two parameters); the value was
			 * consumed once. */
			if (j > i && k + 1 < pr->nargs &&
			    pr->args[k + 1].name &&
			    strcmp(pr->args[k + 1].name, a->name) == 0)
				continue;
			i = j;
			break;
		}
		if (!matched && argv[i][0] != '-')
			last_operand = argv[i];
	}
	for (k = 0; k < pr->nargs; k++)
		if (pr->args[k].name == NULL &&
		    (pr->args[k].flags & BS_XA_PATH) && *path == NULL)
			*path = last_operand;
	/* Flags not given: the value without them. */
	for (k = 0; k < pr->nabsent; k++) {
		int j, given = 0;

		for (j = 0; j < pr->nargs && j < 64; j++)
			if (seen[j] &&
			    strcmp(pr->args[j].name ? pr->args[j].name : "",
				   pr->absent[k].name) == 0)
				given = 1;
		if (!given)
			give(x, &cap, pr->absent[k].param, pr->absent[k].value);
	}
}

/*
 * What to probe for host facts: the path the arguments name, or the
 * directory it is to be made in when it does not exist yet, or the
 * working directory.
 */
static char *probe_path(const char *path)
{
	struct stat sb;
	char *dir, *slash;

	if (path == NULL || path[0] == '\0')
		return xstrdup(".");
	if (stat(path, &sb) == 0)
		return xstrdup(path);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else {
		free(dir);
		return xstrdup(".");
	}
	if (stat(dir, &sb) == 0)
		return dir;
	free(dir);
	return xstrdup(".");
}

/* The command line as a person would type it again: arguments that hold
 * anything but safe characters in single quotes. */
static void command_line(int argc, char **argv, struct bs_buf *out)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *p;

		if (i)
			bs_buf_addc(out, ' ');
		if (a[0] != '\0' &&
		    a[strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR"
				"STUVWXYZ0123456789-_=+./,:@%^")] == '\0') {
			bs_buf_adds(out, a);
			continue;
		}
		bs_buf_addc(out, '\'');
		for (p = a; *p; p++) {
			if (*p == '\'')
				bs_buf_adds(out, "'\\''");
			else
				bs_buf_addc(out, *p);
		}
		bs_buf_addc(out, '\'');
	}
}

/* Writes all of data to fd (the terminal's copy: a closed one is not an
 * error of the run). */
static void show(int fd, const char *data, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, data, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		data += w;
		n -= (size_t)w;
	}
}

/*
 * Runs argv as a child with its stdout and stderr on pipes, showing and
 * keeping each. A stop signal is passed on to the child, whose end is
 * still waited for. Returns waitpid's status, or -1 when the program
 * could not be run (*err_no says why); *sig is the signal that came.
 */
static int run_child(char **argv, struct bs_buf *out, struct bs_buf *errb,
		     int *err_no, int *sig)
{
	int po[2], pe[2], px[2], status = 0, open_fds = 2, sent = 0;
	pid_t pid;
	char chunk[65536];

	*err_no = 0;
	*sig = 0;
	if (pipe(po) < 0 || pipe(pe) < 0 || pipe(px) < 0 ||
	    fcntl(px[1], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(px[0], F_SETFD, FD_CLOEXEC) < 0) {
		*err_no = errno;
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		*err_no = errno;
		return -1;
	}
	if (pid == 0) {
		int e;

		bs_stop_defaults();
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		close(px[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(px[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	if (read(px[0], err_no, sizeof(*err_no)) != (ssize_t)sizeof(*err_no))
		*err_no = 0;
	close(px[0]);
	while (open_fds > 0) {
		struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
		int k;

		if (!sent && bs_signal_pending()) {
			*sig = bs_signal_pending();
			kill(pid, *sig);
			sent = 1;
		}
		if (poll(fds, 2, 200) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (k = 0; k < 2; k++) {
			ssize_t n;

			if (fds[k].fd < 0 ||
			    !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[k].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(k ? pe[0] : po[0]);
				if (k)
					pe[0] = -1;
				else
					po[0] = -1;
				open_fds--;
				continue;
			}
			show(k ? STDERR_FILENO : STDOUT_FILENO, chunk,
			     (size_t)n);
			bs_buf_add(k ? errb : out, chunk, (size_t)n);
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		if (!sent && bs_signal_pending()) {
			*sig = bs_signal_pending();
			kill(pid, *sig);
			sent = 1;
		}
	}
	if (!*sig)
		*sig = bs_signal_pending();
	return *err_no ? -1 : status;
}

/* ingest's last word on each run: the host, and the parameters the
 * arguments gave where the output did not say them. */
static void adjust(struct bs_run *r, void *vctx)
{
	struct exec_run *x = vctx;
	struct bs_err err = BS_ERR_INIT;
	size_t i;

	x->runs++;
	bs_host_tag(x->host, r);
	/* Its date is the start bstore saw, in UTC: not a local time read
	 * from the text (ingest/ingest.h's BS_INGEST_TZ_TAG). */
	for (i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].key, BS_INGEST_TZ_TAG) == 0) {
			free(r->tags[i].key);
			free(r->tags[i].value);
			memmove(&r->tags[i], &r->tags[i + 1],
				(r->ntags - i - 1) * sizeof(r->tags[0]));
			r->ntags--;
			break;
		}
	if (r->family != x->family)
		return;
	for (i = 0; i < x->ngiven; i++) {
		int k = bs_param_find_in(r->family, x->given[i].key);

		if (k < 0 || bs_param_known(&r->params, k))
			continue;
		bs_err_reset(&err);
		if (bs_param_set_text(&r->params, k, x->given[i].value, &err) <
		    0)
			bs_cli_warn(x->cli, "%s; not recorded", err.msg);
	}
}

/* The options, then the tool: '--' or the first operand ends ours
 * (BS_OPT_CMD_FIRST). */
#define O(f) offsetof(struct exec_args, f)
static const struct bs_opt opts[] = {
	{'m', "machine", "NAME", 0, bs_opt_str, O(machine),
	 "the machine the runs are stored under", "this host's name", 0, 0, 0},
	{'t', "tag", "KEY=VALUE", BS_OPT_MULTI, bs_opt_tag, O(tags),
	 "add a tag to the stored runs (repeatable), as ingest -t", NULL, 0, 0,
	 0},
	{0, "target", "PATH", 0, bs_opt_str, O(target),
	 "the file, directory or device whose host facts are recorded, when "
	 "the tool's arguments do not name it (fio's --filename, bonnie++'s "
	 "-d, dd's of=, zcav's device; else the working directory)",
	 NULL, 0, 0, 0},
	BS_OPT_NO_STORE(struct exec_args, no_store),
	/* Every command's -q (cli/opt.c adds it to all but those whose
	 * options end at their first operand, as exec's do). */
	{'q', "quiet", NULL, 0, bs_opt_flag, O(quiet),
	 "no summary or progress lines (the tool's own output is shown)", NULL,
	 0, 0, 0},
	BS_OPT_END,
};
#undef O

const struct bs_opt_cmd bs_cmd_exec = {
	"exec",
	cmd_exec,
	"run a benchmark tool and store what it measured",
	"[OPTIONS] -- TOOL [ARGS...]",
	"Runs TOOL (bonnie++, Bonnie, fio, sysbench, dd, zcav or getc_putc)\n"
	"with ARGS, no shell between, shows its output as it comes, and when\n"
	"it exits with status 0 stores what it printed as bstore ingest\n"
	"would, with what the output alone does not say: the date it started,\n"
	"the host facts of bstore run (kernel, file system, mount options,\n"
	"device and model, RAM, CPU) for the path its arguments name, the\n"
	"command line (tag exec.command), and the parameters its arguments\n"
	"give where the output omits them (fio --direct=1 --iodepth=16,\n"
	"sysbench --file-test-mode=rndrw, bonnie++ -D). A tool that fails\n"
	"stores nothing; Ctrl-C stops the tool and stores nothing.\n",
	opts,
	"The exit status is 0 when the runs were stored, 1 when the tool\n"
	"failed or printed no result bstore reads, 2 on a usage error, and\n"
	"128 + the signal when one stopped it.\n",
	"bstore exec -t raid=10 -- bonnie++ -q -d /mnt/test -D",
	NULL,
	0,
	BS_OPT_CMD_FIRST,
};

int cmd_exec(struct bs_cli *cli, int argc, char **argv)
{
	struct exec_args a;
	struct exec_run x;
	struct bs_store *st = NULL;
	struct bs_host host;
	struct bs_buf out = BS_BUF_INIT, errb = BS_BUF_INIT, cmd = BS_BUF_INIT;
	struct bs_cli_ingest_args ia;
	const struct bs_exec_prog *pr;
	const char *base, *path;
	char *probe = NULL, hostname[256], name[300];
	char **tool;
	int ntool, rc, status, err_no, sig, fd = -1;
	int64_t start;
	size_t i;
	FILE *cap = NULL;

	memset(&a, 0, sizeof(a));
	memset(&x, 0, sizeof(x));
	if (bs_opt_parse(cli, &bs_cmd_exec, argc, argv, &a, NULL, &rc) ==
	    BS_OPT_EXIT)
		goto out;
	if (a.quiet)
		cli->quiet = 1;
	tool = argv + optind;
	ntool = argc - optind;
	if (ntool == 0) {
		rc = bs_cli_usage_error(cli, "no tool to run: bstore exec -- "
					     "TOOL [ARGS...]");
		goto out;
	}
	base = strrchr(tool[0], '/');
	base = base ? base + 1 : tool[0];
	pr = bs_exec_prog_find(base, &x.family);
	if (pr == NULL) {
		rc = bs_cli_usage_error(cli,
					"'%s' is not a tool bstore exec runs "
					"(bonnie++, Bonnie, fio, sysbench, "
					"dd, zcav, getc_putc)",
					base);
		goto out;
	}
	x.cli = cli;
	x.host = &host;
	read_args(pr, ntool, tool, &x, &path);
	probe = probe_path(a.target ? a.target : path);
	rc = bs_cli_measure_open(cli, !a.no_store, probe, &st, &host);
	if (rc != 0)
		goto out;
	bs_signals_install();
	start = (int64_t)time(NULL);
	status = run_child(tool, &out, &errb, &err_no, &sig);
	bs_signals_restore();
	if (sig) {
		bs_cli_error(cli, "stopped by %s; %s stopped, nothing stored",
			     bs_cli_signal_name(sig), base);
		rc = 128 + sig;
		goto out;
	}
	if (status < 0) {
		bs_cli_error(cli, "cannot run '%s': %s", tool[0],
			     strerror(err_no));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (WIFSIGNALED(status)) {
		bs_cli_error(cli, "%s was killed by signal %d; nothing stored",
			     base, WTERMSIG(status));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (WEXITSTATUS(status) != 0) {
		bs_cli_error(cli, "%s exited with status %d; nothing stored",
			     base, WEXITSTATUS(status));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (a.no_store) {
		rc = BS_EXIT_OK;
		goto out;
	}
	/* What it printed, stderr first: one input for ingest, after the
	 * command as a prompt line, as people paste a session (dd's
	 * summary says nothing of its operands; ingest reads them from
	 * the command above it). */
	command_line(ntool, tool, &cmd);
	cap = tmpfile();
	if (cap == NULL || fprintf(cap, "$ %s\n", bs_buf_str(&cmd)) < 0 ||
	    fwrite(errb.data ? errb.data : "", 1, errb.len, cap) != errb.len ||
	    fwrite(out.data ? out.data : "", 1, out.len, cap) != out.len ||
	    fflush(cap) != 0 || fseek(cap, 0, SEEK_SET) != 0) {
		bs_cli_error(cli, "cannot keep %s's output: %s; nothing stored",
			     base, strerror(errno));
		rc = BS_EXIT_FAIL;
		goto out;
	}
	fd = fileno(cap);
	xgrow((void **)&a.tags.tag, &a.tags.cap, a.tags.n + 1,
	      sizeof(*a.tags.tag));
	a.tags.tag[a.tags.n].key = xstrdup("exec.command");
	a.tags.tag[a.tags.n++].value = xstrdup(bs_buf_str(&cmd));
	/* Its exit status, always 0 here: a run of a tool that failed is
	 * never stored (above), so no stored run passes for good. */
	xgrow((void **)&a.tags.tag, &a.tags.cap, a.tags.n + 1,
	      sizeof(*a.tags.tag));
	a.tags.tag[a.tags.n].key = xstrdup("exec.status");
	a.tags.tag[a.tags.n++].value = xstrdup("0");
	memset(&ia, 0, sizeof(ia));
	ia.machine = a.machine ? a.machine
			       : bs_cli_host_name(hostname, sizeof(hostname));
	ia.measured_at = start;
	ia.tags = a.tags.tag;
	ia.ntags = a.tags.n;
	ia.adjust = adjust;
	ia.ctx = &x;
	snprintf(name, sizeof(name), "%s (bstore exec)", base);
	rc = bs_cli_ingest_fd(cli, st, fd, name, &ia);
	if (rc == BS_EXIT_OK && x.runs == 0) {
		bs_cli_error(cli,
			     "%s printed no result bstore reads; nothing "
			     "stored",
			     base);
		rc = BS_EXIT_FAIL;
	}
out:
	if (cap)
		fclose(cap);
	bs_store_close(st);
	for (i = 0; i < x.ngiven; i++)
		free(x.given[i].value);
	free(x.given);
	free(probe);
	bs_buf_release(&out);
	bs_buf_release(&errb);
	bs_buf_release(&cmd);
	bs_cli_tags_release(&a.tags);
	return rc;
}
