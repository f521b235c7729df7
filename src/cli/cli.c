#include "cli.h"
#include "output.h"
#include "mail.h"

#include <errno.h>
#include <getopt.h>
#include <glib.h>
#include <limits.h>
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
/* Every command takes it: any of them may read a list archive. */
static const struct cli_option max_message_option = {
	CLI_OPT_INT, "max-message-size", 0, NULL, "MIB",
	"read at most this much of one list message (default 64)"
};

static void print_option(FILE *fp, const struct cli_option *o)
{
	char left[80];
	int n = 0;

	if (o->short_name)
		n = snprintf(left, sizeof(left), "  -%c, --%s", o->short_name,
			     o->long_name);
	else
		n = snprintf(left, sizeof(left), "      --%s", o->long_name);
	if (o->type != CLI_OPT_FLAG && n > 0 && n < (int)sizeof(left))
		snprintf(left + n, sizeof(left) - n, " %s",
			 o->argh ? o->argh : "VALUE");
	if (strlen(left) < 26)
		fprintf(fp, "%-26s %s%s\n", left, o->help,
			o->type == CLI_OPT_STRING_LIST ? " (repeatable)" : "");
	else
		fprintf(fp, "%s\n%-26s %s%s\n", left, "", o->help,
			o->type == CLI_OPT_STRING_LIST ? " (repeatable)" : "");
}

void cli_print_help(FILE *fp, const struct cli_option *opts,
		    const struct cli_command_help *help)
{
	fprintf(fp, "usage: %s\n\n", help->usage);
	if (help->summary)
		fprintf(fp, "%s\n\n", help->summary);
	fprintf(fp, "options:\n");
	for (const struct cli_option *o = opts; o && o->type; o++)
		print_option(fp, o);
	print_option(fp, &max_message_option);
	print_option(fp, &help_option);
}

/*
 * The arrays of repeatable options live until cli_cleanup(), so that
 * commands need not free them.  The registry holds the arrays, not the
 * commands' structs: a command may parse options into a struct on its
 * stack and return (report runs review's parser that way) long before
 * main calls cli_cleanup().
 */
static GPtrArray *lists;

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
	if (lists)
		g_ptr_array_free(lists, TRUE);
	lists = NULL;
}

static const char *command_name(char **argv)
{
	return argv[0] ? argv[0] : "maintstat";
}

bool cli_parse_long(const char *name, const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "maintstat: --%s takes a whole number, "
			"not '%s'\n", name, s);
		return false;
	}
	*out = v;
	return true;
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
	longopts = g_new0(struct option, nopts + 3);
	for (int i = 0; i < nopts; i++) {
		const struct cli_option *o = &opts[i];

		longopts[i].name = o->long_name;
		longopts[i].has_arg = o->type == CLI_OPT_FLAG ?
			no_argument : required_argument;
		longopts[i].val = 256 + i;
		if (o->short_name) {
			g_string_append_c(shortopts, (char)o->short_name);
			if (o->type != CLI_OPT_FLAG)
				g_string_append_c(shortopts, ':');
		}
	}
	longopts[nopts].name = "help";
	longopts[nopts].val = 'h';
	longopts[nopts + 1].name = "max-message-size";
	longopts[nopts + 1].has_arg = required_argument;
	longopts[nopts + 1].val = 'M' + 1000;
	g_string_append_c(shortopts, 'h');

	/*
	 * "+" stops at the first non-option; we then collect it and carry on,
	 * which allows options after positional arguments without letting
	 * getopt permute argv behind our back.
	 */
	opterr = 0;
	optind = 0; /* glibc: 0 re-initialises the scanner */
	while (optind < ac) {
		int longindex = -1;

		c = getopt_long(ac, av, shortopts->str, longopts, &longindex);
		if (c == -1) {
			if (optind >= ac)
				break;
			if (strcmp(av[optind - 1], "--") == 0 &&
			    optind > 1) {
				while (optind < ac)
					g_ptr_array_add(positional,
							av[optind++]);
				break;
			}
			g_ptr_array_add(positional, av[optind++]);
			continue;
		}
		if (c == 'h') {
			cli_print_help(stdout, opts, help);
			rc = EXIT_OK;
			goto done;
		}
		if (c == 'M' + 1000) {
			long mib;

			if (!cli_parse_long("max-message-size", optarg,
					    &mib)) {
				rc = EXIT_USAGE;
				goto done;
			}
			if (mib < 1 || mib > 65536) {
				rc = cli_usage_error(command_name(av),
						     "--max-message-size "
						     "takes 1 to 65536 MiB");
				goto done;
			}
			ms_mail_set_max_message_size((size_t)mib << 20);
			continue;
		}
		if (c == '?' || c == ':') {
			if (optopt && optopt < 256 && optopt != '?')
				rc = cli_usage_error(command_name(av),
						     "unknown or incomplete "
						     "option '-%c'", optopt);
			else
				rc = cli_usage_error(command_name(av),
						     "unknown or incomplete "
						     "option '%s'",
						     av[optind - 1]);
			goto done;
		}
		{
			const struct cli_option *o = NULL;

			if (c >= 256) {
				o = &opts[c - 256];
			} else {
				for (int i = 0; i < nopts; i++)
					if (opts[i].short_name == c)
						o = &opts[i];
			}
			if (!o) {
				rc = cli_usage_error(command_name(av),
						     "unknown option");
				goto done;
			}
			switch (o->type) {
			case CLI_OPT_FLAG:
				*(bool *)o->value = true;
				break;
			case CLI_OPT_STRING:
				*(const char **)o->value = optarg;
				break;
			case CLI_OPT_INT:
				if (!cli_parse_long(o->long_name, optarg,
						    (long *)o->value)) {
					rc = EXIT_USAGE;
					goto done;
				}
				break;
			case CLI_OPT_STRING_LIST: {
				struct cli_strings *l = o->value;

				uintptr_t was = (uintptr_t)l->items;

				l->items = g_renew(const char *, l->items,
						   l->nr + 2);
				track_array(was, l->items);
				l->items[l->nr++] = optarg;
				l->items[l->nr] = NULL;
				break;
			}
			case CLI_OPT_END:
				break;
			}
		}
	}
	for (guint i = 0; i < positional->len; i++)
		av[i + 1] = positional->pdata[i];
	av[positional->len + 1] = NULL;
	*argc = (int)positional->len;
	*argv = av + 1;
done:
	g_ptr_array_free(positional, TRUE);
	g_string_free(shortopts, TRUE);
	g_free(longopts);
	return rc;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);
	GString *clean = g_string_new(NULL);
	int state = 0;

	/* messages quote input (subjects, file names, server answers) */
	ms_out_sanitize(clean, msg, strlen(msg), &state);
	if (state)
		g_string_append_c(clean, '?');
	fputs("maintstat: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	fputs(clean->str, stderr);
	fputc('\n', stderr);
	g_string_free(clean, TRUE);
	g_free(msg);
}

/* Standard output through ms_out_sanitize(), as a stdio cookie stream. */
static int stdout_state;

static ssize_t sanitize_write(void *cookie, const char *buf, size_t len)
{
	GString *clean = g_string_sized_new(len + 1);
	const char *p;
	size_t left;

	(void)cookie;
	ms_out_sanitize(clean, buf, len, &stdout_state);
	p = clean->str;
	left = clean->len;
	while (left) {
		ssize_t n = write(STDOUT_FILENO, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_string_free(clean, TRUE);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	g_string_free(clean, TRUE);
	return (ssize_t)len;
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

void cli_sanitize_stdout(void)
{
	cookie_io_functions_t io = { NULL, sanitize_write, NULL,
				     sanitize_close };
	FILE *fp = fopencookie(NULL, "w", io);

	if (!fp)
		return;
	setvbuf(fp, NULL, _IOFBF, 1 << 16);
	fflush(stdout);
	stdout = fp;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
	return EXIT_RUNTIME;
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
	vmessage(NULL, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'maintstat %s --help' for more information.\n",
		cmd);
	return EXIT_USAGE;
}

void cli_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
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

/* Progress. */

bool cli_progress_quiet;
static const char *progress_what;
static uint64_t progress_total;
static bool progress_on;
static int64_t progress_last_us;

void cli_progress_start(const char *what, uint64_t total)
{
	progress_on = !cli_progress_quiet && isatty(STDERR_FILENO);
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
	if (!progress_due())
		return;
	if (progress_total)
		fprintf(stderr, "\r%s: %3u%% (%llu/%llu)", progress_what,
			(unsigned)(done * 100 / progress_total),
			(unsigned long long)done,
			(unsigned long long)progress_total);
	else
		fprintf(stderr, "\r%s: %llu", progress_what,
			(unsigned long long)done);
}

void cli_progress_update2(uint64_t done, const char *what2, uint64_t done2)
{
	if (!progress_due())
		return;
	fprintf(stderr, "\r%s: %llu, %s: %llu", progress_what,
		(unsigned long long)done, what2, (unsigned long long)done2);
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

void cli_progress_done(void)
{
	if (!progress_on)
		return;
	fprintf(stderr, "\r\033[K");
	progress_on = false;
}
