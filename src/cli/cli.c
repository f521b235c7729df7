#include "cli.h"
#include "git-common.h"
#include "output.h"
#include "mail.h"
#include "person.h"
#include "mapped.h"
#include "when.h"
#include "workers.h"

#include <errno.h>
#include <getopt.h>
#include <glib.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct cli_option help_option = {
	CLI_OPT_FLAG, "help", 'h', NULL, NULL, "show this help and exit"
};
long cli_threads = LONG_MIN; /* --threads: unset; 0 one per processor */
long cli_max_message_mib = LONG_MIN, cli_max_index_mib = LONG_MIN;

/* -q/--quiet, which every command takes: no warnings, no progress;
 * errors are still printed. */
static bool cli_quiet;
static const struct cli_option quiet_option = {
	CLI_OPT_FLAG, "quiet", 'q', &cli_quiet, NULL,
	"print no warnings and no progress, only errors"
};

/*
 * Append `text` to `out` wrapped at 79 columns, continuation lines indented
 * by `indent`; `col` is the column the text starts in.
 */
static void wrap(GString *out, const char *text, size_t col, size_t indent)
{
	char **words = g_strsplit(text, " ", -1);

	for (char **w = words; *w; w++) {
		size_t len = strlen(*w);

		if (!len)
			continue;
		if (col > indent && col + 1 + len > 79) {
			g_string_append_c(out, '\n');
			g_string_append_printf(out, "%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			g_string_append_c(out, ' ');
			col++;
		}
		g_string_append(out, *w);
		col += len;
	}
	g_strfreev(words);
}

static void print_option(FILE *fp, const struct cli_option *o)
{
	GString *line = g_string_new(NULL);
	GString *help = g_string_new(o->help);

	if (o->short_name)
		g_string_printf(line, "  -%c, --%s", o->short_name,
				o->long_name);
	else
		g_string_printf(line, "      --%s", o->long_name);
	if (CLI_OPT_TYPE(o) != CLI_OPT_FLAG)
		g_string_append_printf(line, " %s",
				       o->argh ? o->argh : "VALUE");
	if (CLI_OPT_TYPE(o) == CLI_OPT_STRING_LIST && !strstr(o->help, "repeatable"))
		g_string_append(help, " (repeatable)");
	if (line->len < 26) {
		g_string_append_printf(line, "%*s", (int)(27 - line->len), "");
	} else {
		g_string_append_c(line, '\n');
		g_string_append_printf(line, "%27s", "");
	}
	wrap(line, help->str, 27, 27);
	fprintf(fp, "%s\n", line->str);
	g_string_free(help, TRUE);
	g_string_free(line, TRUE);
}

void cli_print_help(FILE *fp, const struct cli_option *opts,
		    const struct cli_command_help *help)
{
	{
		/* each usage line wrapped to 79 columns */
		char **lines = g_strsplit(help->usage, "\n", -1);
		GString *u = g_string_new("Usage:");

		for (char **l = lines; *l; l++) {
			if (l != lines)
				g_string_append(u, "\n   or:");
			g_string_append_c(u, ' ');
			wrap(u, g_strstrip(*l), 7, 11);
		}
		fprintf(fp, "%s\n\n", u->str);
		g_string_free(u, TRUE);
		g_strfreev(lines);
	}
	if (help->summary)
		fprintf(fp, "%s\n\n", help->summary);
	fprintf(fp, "Options:\n");
	for (const struct cli_option *o = opts; o && o->type; o++)
		print_option(fp, o);
	print_option(fp, &quiet_option);
	print_option(fp, &help_option);
	if (help->examples)
		fprintf(fp, "\nExamples:\n%s\n", help->examples);
}

/*
 * The arrays of repeatable options live until cli_cleanup(), so that
 * commands need not free them.  The registry holds the arrays, not the
 * commands' structs: a command may parse options into a struct on its
 * stack and return (report runs review's parser that way) long before
 * main calls cli_cleanup().
 */
static GPtrArray *lists;

/* The warnings printed so far: each distinct one is printed once a run. */
static GHashTable *warned;
/* Errors printed so far, and where messages are copied to (or NULL). */
static unsigned long errors;
static GString *recorder;

/* The default --repo found by cli_default_repo(), freed at exit. */
static char *default_repo;

/* Record that the array at old (an address, 0 for none) is now new. */
static void track_array(uintptr_t old, const char **new)
{
	if (!lists)
		lists = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; old && i < lists->len; i++) {
		if ((uintptr_t)lists->pdata[i] == old) {
			lists->pdata[i] = (gpointer)new;
			return;
		}
	}
	g_ptr_array_add(lists, (gpointer)new);
}

void cli_cleanup(void)
{
	g_free(default_repo);
	default_repo = NULL;
	if (warned)
		g_hash_table_destroy(warned);
	warned = NULL;
	if (lists)
		g_ptr_array_free(lists, TRUE);
	lists = NULL;
}

static const char *command_name(char **argv)
{
	return argv[0] ? argv[0] : "maintstat";
}

/* Parse a whole decimal number for option `name`; on failure print a
 * usage error and return false. */
static bool cli_parse_long(const char *name, const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end) {
		char *c = cli_clean(s, strlen(s));

		fprintf(stderr, "maintstat: --%s takes a whole number, "
			"not '%s'\n", name, c);
		g_free(c);
		return false;
	}
	*out = v;
	return true;
}

bool cli_quick_program;

/* The option keys besides --help and --quiet: OPT_OWN plus the index of
 * an option of the command's table. */
enum { OPT_OWN = 256 };

/*
 * getopt_long()'s tables for `opts` (nopts of them) and the options
 * every command has (--help, --quiet): the long options (g_free) and the
 * short ones, appended to `shortopts`.
 */
static struct option *getopt_tables(const struct cli_option *opts,
				    int nopts, GString *shortopts)
{
	struct option *longopts = g_new0(struct option, nopts + 3);

	for (int i = 0; i < nopts; i++) {
		const struct cli_option *o = &opts[i];

		longopts[i].name = o->long_name;
		longopts[i].has_arg = CLI_OPT_TYPE(o) == CLI_OPT_FLAG ?
			no_argument : required_argument;
		longopts[i].val = OPT_OWN + i;
		if (o->short_name) {
			g_string_append_c(shortopts, (char)o->short_name);
			if (CLI_OPT_TYPE(o) != CLI_OPT_FLAG)
				g_string_append_c(shortopts, ':');
		}
	}
	longopts[nopts].name = "help";
	longopts[nopts].val = 'h';
	g_string_append_c(shortopts, 'h');
	longopts[nopts + 1].name = "quiet";
	longopts[nopts + 1].val = 'q';
	g_string_append_c(shortopts, 'q');
	return longopts;
}

/* --max-message-size and --max-index-size, when given: CLI_CONTINUE, or
 * the exit code of the usage error. */
static int set_mail_limits(char **av)
{
	if (cli_max_message_mib != LONG_MIN) {
		if (cli_max_message_mib < 1 || cli_max_message_mib > 65536)
			return cli_usage_error(command_name(av),
					       "--max-message-size takes 1 to "
					       "65536 MiB");
		ms_mail_set_max_message_size((size_t)cli_max_message_mib
					     << 20);
	}
	if (cli_max_index_mib != LONG_MIN) {
		if (cli_max_index_mib < 1 || cli_max_index_mib > (1L << 24))
			return cli_usage_error(command_name(av),
					       "--max-index-size takes 1 to "
					       "16777216 MiB");
		ms_mail_set_max_index_size((size_t)cli_max_index_mib << 20);
	}
	return CLI_CONTINUE;
}

struct cli_option *cli_options_join(const struct cli_option *a,
				    const struct cli_option *b)
{
	size_t na = 0, nb = 0;
	struct cli_option *t;

	while (a[na].type != CLI_OPT_END)
		na++;
	while (b[nb].type != CLI_OPT_END)
		nb++;
	t = g_new0(struct cli_option, na + nb + 1);
	memcpy(t, a, na * sizeof(*t));
	memcpy(t + na, b, (nb + 1) * sizeof(*t));
	return t;
}

/* The usage error of an unknown option, or of one without its value. */
static int unknown_option(char **av)
{
	if (optopt && optopt < 256 && optopt != '?')
		return cli_usage_error(command_name(av), "unknown or "
				       "incomplete option '-%c'", optopt);
	return cli_usage_error(command_name(av), "unknown or incomplete "
			       "option '%s'", av[optind - 1]);
}

/* Store option `o` of command `cmd`'s value `arg` where the table says;
 * CLI_CONTINUE, or the exit code of a usage error. */
static int set_option(const char *cmd, const struct cli_option *o,
		      const char *arg)
{
	switch (CLI_OPT_TYPE(o)) {
	case CLI_OPT_FLAG:
		*(bool *)o->value = true;
		break;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		break;
	case CLI_OPT_INT:
	case CLI_OPT_COUNT:
		if (!cli_parse_long(o->long_name, arg, (long *)o->value))
			return EXIT_USAGE;
		if (CLI_OPT_TYPE(o) == CLI_OPT_COUNT && *(long *)o->value < 0)
			return cli_usage_error(cmd, "--%s must not be "
					       "negative", o->long_name);
		break;
	case CLI_OPT_STRING_LIST: {
		struct cli_strings *l = o->value;
		uintptr_t was = (uintptr_t)l->items;

		l->items = g_renew(const char *, l->items, l->nr + 2);
		track_array(was, l->items);
		l->items[l->nr++] = arg;
		l->items[l->nr] = NULL;
		break;
	}
	case CLI_OPT_END:
		break;
	}
	return CLI_CONTINUE;
}

/* The option of `opts` that getopt_long() returned as `c`, or NULL. */
static const struct cli_option *option_of(const struct cli_option *opts,
					  int nopts, int c)
{
	const struct cli_option *o = NULL;

	if (c >= OPT_OWN)
		return &opts[c - OPT_OWN];
	for (int i = 0; i < nopts; i++)
		if (opts[i].short_name == c)
			o = &opts[i];
	return o;
}

/* One option `c` of getopt_long(): CLI_CONTINUE, or the exit code (of
 * --help, or of a usage error). */
static int take_option(int c, char **av, const struct cli_option *opts,
		       int nopts, const struct cli_command_help *help)
{
	const struct cli_option *o;

	if (cli_quick_program && c >= OPT_OWN && c < OPT_OWN + nopts &&
	    (opts[c - OPT_OWN].type & CLI_OPT_FULL))
		return CLI_RUN_FULL;
	switch (c) {
	case 'h':
		cli_print_help(stdout, opts, help);
		return EXIT_OK;
	case 'q':
		cli_quiet = true;
		return CLI_CONTINUE;
	case '?':
	case ':':
		return unknown_option(av);
	}
	o = option_of(opts, nopts, c);
	if (!o)
		return cli_usage_error(command_name(av), "unknown option");
	return set_option(command_name(av), o, optarg);
}

/* --threads N, for every parallel stage. */
static int set_threads(char **av)
{
	if (cli_threads == LONG_MIN)
		return CLI_CONTINUE;
	if (cli_threads < 0 || cli_threads > MS_WORKERS_MAX)
		return cli_usage_error(command_name(av), "--threads takes 0 "
				       "to %d, not %ld", MS_WORKERS_MAX,
				       cli_threads);
	ms_workers_set((unsigned)cli_threads);
	return CLI_CONTINUE;
}

int cli_parse_options(int *argc, char ***argv, const struct cli_option *opts,
		      const struct cli_command_help *help)
{
	int nopts = 0, rc = CLI_CONTINUE, c;
	struct option *longopts;
	GString *shortopts = g_string_new("+");
	char **av = *argv;
	int ac = *argc;
	GPtrArray *positional = g_ptr_array_new();

	for (const struct cli_option *o = opts; o && o->type; o++)
		nopts++;
	longopts = getopt_tables(opts, nopts, shortopts);
	/*
	 * "+" stops at the first non-option; we then collect it and carry on,
	 * which allows options after positional arguments without letting
	 * getopt permute argv behind our back.
	 */
	opterr = 0;
	optind = 0; /* glibc: 0 re-initialises the scanner */
	while (optind < ac && rc == CLI_CONTINUE) {
		int longindex = -1;

		c = getopt_long(ac, av, shortopts->str, longopts, &longindex);
		if (c != -1) {
			rc = take_option(c, av, opts, nopts, help);
			continue;
		}
		if (optind >= ac)
			break;
		if (strcmp(av[optind - 1], "--") == 0 && optind > 1) {
			while (optind < ac)
				g_ptr_array_add(positional, av[optind++]);
			break;
		}
		g_ptr_array_add(positional, av[optind++]);
	}
	if (rc == CLI_CONTINUE)
		rc = set_threads(av);
	if (rc == CLI_CONTINUE)
		rc = set_mail_limits(av);
	if (rc == CLI_CONTINUE) {
		for (guint i = 0; i < positional->len; i++)
			av[i + 1] = positional->pdata[i];
		av[positional->len + 1] = NULL;
		*argc = (int)positional->len;
		*argv = av + 1;
	}
	g_ptr_array_free(positional, TRUE);
	g_string_free(shortopts, TRUE);
	g_free(longopts);
	return rc;
}

int cli_default_repo(const char *cmd, const char **repo, bool required)
{
	if (*repo)
		return CLI_CONTINUE;
	if (!default_repo && ms_git_discover(".", &default_repo) < 0) {
		if (!required)
			return CLI_CONTINUE;
		return cli_usage_error(cmd, "not inside a git repository: "
				       "give --repo GITDIR");
	}
	*repo = default_repo;
	return CLI_CONTINUE;
}

size_t cli_limit(long limit, bool json, size_t nr)
{
	if (limit < 0)
		limit = json ? 0 : 20;
	if (limit == 0 || (size_t)limit > nr)
		return nr;
	return (size_t)limit;
}

size_t cli_limit_rows(long limit, size_t nr)
{
	return limit > 0 && (size_t)limit < nr ? (size_t)limit : nr;
}

void cli_print_more(FILE *fp, const char *indent, size_t shown, size_t nr)
{
	char n[32];

	if (shown >= nr)
		return;
	cli_format_count(nr - shown, n);
	fprintf(fp, "%s... and %s more not shown (--limit)\n", indent, n);
}

int cli_parse_duration(const char *cmd, const char *opt, const char *s,
		       struct ms_duration *out)
{
	if (ms_duration_parse(s, out) < 0)
		return cli_usage_error(cmd, "--%s: %s", opt, ms_error_last());
	return CLI_CONTINUE;
}

/* `s` as ms_out_sanitize() writes it, a split UTF-8 sequence at its
 * end made a '?' (g_free).  Messages quote input (subjects, file names,
 * Message-IDs, server answers): none reaches a terminal raw. */
char *cli_clean(const char *s, size_t len)
{
	GString *clean = g_string_sized_new(len + 1);
	int state = 0;

	ms_out_sanitize(clean, s, len, &state);
	if (state)
		g_string_append_c(clean, '?');
	return g_string_free(clean, FALSE);
}

int cli_read_stdin(GString *s)
{
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		if (s->len + n > CLI_STDIN_MAX)
			return cli_error("standard input is larger than %zu "
					 "MiB: no patch or list of paths is; "
					 "name the file instead",
					 CLI_STDIN_MAX >> 20);
		g_string_append_len(s, chunk, (gssize)n);
	}
	if (ferror(stdin))
		return cli_error("cannot read standard input: %s",
				 g_strerror(errno));
	return 0;
}

static void vmessage(const char *fmt, va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);
	char *clean = cli_clean(msg, strlen(msg));

	errors++;
	fprintf(stderr, "maintstat: %s\n", clean);
	if (recorder)
		g_string_append_printf(recorder, "maintstat: %s\n", clean);
	g_free(clean);
	g_free(msg);
}

/* Standard output through ms_out_sanitize(), as a stdio cookie stream. */
static int stdout_state;
static FILE *sanitizing;

/* a block at a time: a saved result of 10 MB written at once is not
 * copied whole into fresh memory (its page faults were a sixth of a
 * warm run) */
#define SANITIZE_BLOCK (1u << 16)

static ssize_t sanitize_write(void *cookie, const char *buf, size_t len)
{
	GString *clean = g_string_sized_new(SANITIZE_BLOCK + 1);
	ssize_t rc = (ssize_t)len;

	(void)cookie;
	for (size_t at = 0; rc >= 0 && at < len; at += SANITIZE_BLOCK) {
		const char *p;
		size_t left;

		g_string_truncate(clean, 0);
		ms_out_sanitize(clean, buf + at, MIN(SANITIZE_BLOCK, len - at),
				&stdout_state);
		p = clean->str;
		left = clean->len;
		while (left) {
			ssize_t n = write(STDOUT_FILENO, p, left);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				rc = -1;
				break;
			}
			p += n;
			left -= (size_t)n;
		}
	}
	g_string_free(clean, TRUE);
	return rc;
}

static int sanitize_close(void *cookie)
{
	(void)cookie;
	if (stdout_state) {     /* a lone 0xc2 at the very end */
		stdout_state = 0;
		return write(STDOUT_FILENO, "\xc2", 1) == 1 ? 0 : EOF;
	}
	return 0;
}

/*
 * Send everything later written to stdout through ms_out_sanitize() (the
 * one sanitising printer): no control character of the input reaches
 * the terminal.  cli_main_begin() calls it first.  Messages on stderr are
 * sanitised by the functions below.
 */
static void cli_sanitize_stdout(void)
{
	cookie_io_functions_t io = { NULL, sanitize_write, NULL,
				     sanitize_close };
	FILE *fp = fopencookie(NULL, "w", io);

	if (!fp)
		return;
	setvbuf(fp, NULL, _IOFBF, 1 << 16);
	fflush(stdout);
	stdout = sanitizing = fp;
}

void cli_write_clean(const char *p, size_t len)
{
	/* as the stream would write them (ms_out_sanitize() leaves its
	 * output as it is), but for a lone 0xc2 at the end, which it
	 * holds until it sees the next byte */
	if (stdout != sanitizing || fflush(stdout) || stdout_state ||
	    (len && (unsigned char)p[len - 1] == 0xc2)) {
		fwrite(p, 1, len, stdout);
		return;
	}
	while (len) {
		ssize_t n = write(STDOUT_FILENO, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {    /* again through the stream, to hold the error */
			fwrite(p, 1, len, stdout);
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	return EXIT_RUNTIME;
}

int cli_read_file(const char *path, char **text, size_t *len)
{
	GError *err = NULL;
	gsize n = 0;
	int rc = CLI_CONTINUE;

	if (!g_file_get_contents(path, text, &n, &err)) {
		rc = cli_error("cannot read '%s': %s", path, err->message);
		g_error_free(err);
	} else if (len) {
		*len = n;
	}
	return rc;
}

int cli_error_last(void)
{
	const char *msg = ms_error_last();

	return cli_error("%s", *msg ? msg : "unknown error");
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'maintstat %s --help' for more information.\n",
		cmd);
	return EXIT_USAGE;
}

void cli_warning(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (cli_quiet)
		return;
	va_start(ap, fmt);
	{
		char *raw = g_strdup_vprintf(fmt, ap);

		msg = cli_clean(raw, strlen(raw));
		g_free(raw);
	}
	va_end(ap);
	if (!warned)
		warned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       NULL);
	if (!g_hash_table_add(warned, msg))
		return;
	cli_progress_clear();
	fprintf(stderr, "maintstat: warning: %s\n", msg);
	if (recorder)
		g_string_append_printf(recorder, "maintstat: warning: %s\n",
				       msg);
}

unsigned long cli_errors(void)
{
	return errors;
}

void cli_messages_record(GString *to)
{
	recorder = to;
}

void cli_print_diags(const struct ms_diags *diags)
{
	for (size_t i = 0; i < diags->nr; i++) {
		const struct ms_diag *d = &diags->items[i];

		if (d->file && d->line)
			cli_warning("%s:%u: %s", d->file, d->line,
				    d->message);
		else if (d->file)
			cli_warning("%s: %s", d->file, d->message);
		else
			cli_warning("%s", d->message);
	}
}

void cli_format_count(uint64_t n, char buf[32])
{
	char digits[24];
	int len = snprintf(digits, sizeof(digits), "%llu",
			   (unsigned long long)n);
	int o = 0;

	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* Progress. */

static const char *progress_what;
static uint64_t progress_total;
static bool progress_on;
static int64_t progress_last_us;

void cli_progress_start(const char *what, uint64_t total)
{
	progress_on = !cli_quiet && isatty(STDERR_FILENO);
	progress_what = what;
	progress_total = total;
	progress_last_us = 0;
}

/* Whether a progress line is wanted now: on, and 0.1 s since the last. */
static bool progress_due(void)
{
	int64_t now;

	if (!progress_on)
		return false;
	now = g_get_monotonic_time();
	if (now - progress_last_us < 100000)
		return false;
	progress_last_us = now;
	return true;
}

void cli_progress_update(uint64_t done)
{
	char a[32], b[32];

	if (!progress_due())
		return;
	cli_format_count(done, a);
	if (progress_total) {
		cli_format_count(progress_total, b);
		fprintf(stderr, "\r%s: %s/%s (%u%%)\033[K", progress_what, a,
			b, (unsigned)(done * 100 / progress_total));
	} else {
		fprintf(stderr, "\r%s: %s\033[K", progress_what, a);
	}
}

void cli_progress_update2(uint64_t done, const char *what2, uint64_t done2)
{
	char a[32], b[32];

	if (!progress_due())
		return;
	cli_format_count(done, a);
	cli_format_count(done2, b);
	fprintf(stderr, "\r%s: %s, %s: %s\033[K", progress_what, a, what2,
		b);
}

void cli_progress_count(size_t n, void *data)
{
	(void)data;
	cli_progress_update(n);
}

bool cli_progress_shown(void)
{
	return progress_on;
}

void cli_progress_clear(void)
{
	if (progress_on)
		fprintf(stderr, "\r\033[K");
	progress_last_us = 0;
}

void cli_progress_done(void)
{
	if (!progress_on)
		return;
	fprintf(stderr, "\r\033[K");
	progress_on = false;
}

char *cli_send_email_arg(const char *flag, const char *address)
{
	/* what neither $(...) (word splitting, globs) nor xargs (quotes,
	 * backslashes) changes */
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@._+-=%/:,^~!#{}";
	char *q, *r;

	if (*address && !address[strspn(address, safe)])
		return g_strdup_printf("%s=%s", flag, address);
	q = g_shell_quote(address);
	r = g_strdup_printf("%s=%s", flag, q);
	g_free(q);
	return r;
}

/*
 * `maintstat ... | head` is normal use: when the reader of standard output
 * goes away, end at once, quietly and with status 0, as git does.  Other
 * broken pipes (a socket) are left to the code that wrote to them: only a
 * standard output whose reader is gone shows POLLERR.
 */
static void on_sigpipe(int sig)
{
	struct pollfd p = { STDOUT_FILENO, 0, 0 };

	(void)sig;
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		_exit(EXIT_OK);
}

/* A report cut short by a full disk must not exit 0 (git run_builtin). */
int cli_main_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return rc;
		fprintf(stderr, "maintstat: cannot write to standard output: "
			"%s\n", strerror(errno ? errno : EIO));
		return rc ? rc : EXIT_RUNTIME;
	}
	return rc;
}

void cli_main_begin(void)
{
	struct sigaction sa = { 0 };

	setlocale(LC_CTYPE, "");
	sa.sa_handler = on_sigpipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	/* an mbox truncated while it is read: an error, not SIGBUS */
	ms_mapped_catch_cuts();
	cli_sanitize_stdout();
	/* the launcher's tunables were read as this program started; the
	 * programs it runs (git) start as the user's would: on huge pages
	 * a short git takes 130 more page faults */
	if (!g_strcmp0(getenv("GLIBC_TUNABLES"), CLI_MALLOC_TUNABLES))
		unsetenv("GLIBC_TUNABLES");
}

void cli_person_label(FILE *fp, const char *name, const char *email)
{
	bool has_name = name && *name, has_email = email && *email;

	if (has_name && has_email)
		fprintf(fp, "%s <%s>", name, email);
	else
		fputs(has_email ? email : has_name ? name : "", fp);
}

void cli_json_person(struct ms_out *o, const char *name, const char *email)
{
	ms_out_kv_string(o, "name", name && *name ? name : NULL);
	ms_out_kv_string(o, "email", email && *email ? email : NULL);
}

void cli_json_person_kv(struct ms_out *o, const char *key, const char *name,
			const char *email)
{
	ms_out_kv_begin_object(o, key);
	cli_json_person(o, name, email);
	ms_out_end_object(o);
}

void cli_json_person_line(struct ms_out *o, const char *line)
{
	char *name = NULL, *email = NULL;

	ms_person_parse(line, -1, &name, &email);
	cli_json_person(o, name, email);
	g_free(name);
	g_free(email);
}

unsigned cli_percent(size_t num, size_t den)
{
	return den ? (unsigned)((num * 200 + den) / (2 * den)) : 0;
}

/* A share (0..1) as a whole percentage, rounded as cli_percent(). */
const char *cli_share_text(char buf[16], double share)
{
	if (share < 0)
		snprintf(buf, 16, "-");
	else
		snprintf(buf, 16, "%u%%", (unsigned)(share * 100 + 0.5));
	return buf;
}

void cli_json_quant(struct ms_out *o, const char *key, int64_t median,
		    int64_t p90)
{
	ms_out_key(o, key);
	if (median < 0) {
		ms_out_null(o);
		return;
	}
	ms_out_begin_object(o);
	cli_json_hours(o, "median_hours", median);
	cli_json_hours(o, "p90_hours", p90);
	ms_out_end_object(o);
}

void cli_json_hours(struct ms_out *o, const char *key, int64_t seconds)
{
	if (seconds < 0)
		ms_out_kv_null(o, key);
	else
		ms_out_kv_real(o, key, (double)seconds / 3600.0);
}

void cli_json_share(struct ms_out *o, const char *key, size_t num,
		    size_t den)
{
	if (den)
		ms_out_kv_real(o, key, (double)num / (double)den);
	else
		ms_out_kv_null(o, key);
}

void cli_json_count(struct ms_out *o, const char *key, bool known, size_t n)
{
	if (known)
		ms_out_kv_int(o, key, (int64_t)n);
	else
		ms_out_kv_null(o, key);
}

/* Where the default stores live: $XDG_CACHE_HOME/maintstat. */
char *cli_store_dir(void)
{
	const char *cache = g_getenv("XDG_CACHE_HOME");

	if (cache && g_path_is_absolute(cache))
		return g_build_filename(cache, "maintstat", NULL);
	return g_build_filename(g_get_home_dir(), ".cache", "maintstat",
				NULL);
}
