/*
 * cli.h - what the maintstat commands share: declarative option tables,
 * help text generated from them, error and warning printing, exit codes and
 * a TTY-only progress line.  Only the CLI (main.c, cli.c, cmd-*.c) uses
 * this; library code never prints or exits.
 */
#ifndef MS_CLI_H
#define MS_CLI_H

#include "cli-exec.h"
#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

enum cli_opt_type {
	CLI_OPT_END = 0,
	CLI_OPT_FLAG,        /* value: bool *, set to true */
	CLI_OPT_STRING,      /* value: const char **, points into argv */
	CLI_OPT_INT,         /* value: long * */
	CLI_OPT_STRING_LIST, /* value: struct cli_strings *, repeatable */
	CLI_OPT_COUNT,       /* value: long *, not negative */
	/* or'ed into a type: an option the quick `maintstat` leaves to
	 * maintstat-full (it needs the history or list stages) */
	CLI_OPT_FULL = 0x100,
};
#define CLI_OPT_TYPE(o) ((o)->type & ~CLI_OPT_FULL)

/*
 * A repeatable option's values, in order, NULL-terminated; the strings
 * point into argv, the array lives until cli_cleanup() (main calls it).
 */
struct cli_strings {
	const char **items;
	int nr;
};

/*
 * One option.  `argh` names the argument in --help ("FILE"); `help` is one
 * line.  A short name of 0 means long only.
 */
struct cli_option {
	enum cli_opt_type type;
	const char *long_name;
	int short_name;
	void *value;
	const char *argh;
	const char *help;
};

/*
 * Set by the quick program: cli_parse_options() then returns CLI_RUN_FULL
 * at an option of type CLI_OPT_FULL, leaving argv as it was, for
 * main-quick.c to hand the command line on.
 */
extern bool cli_quick_program;
#define CLI_RUN_FULL (-2)

#define CLI_OPT_JSON(v) \
	{ CLI_OPT_FLAG, "json", 0, (v), NULL, "print one JSON document" }
/*
 * --threads N, the same on every command that does parallel work (those
 * that extract into the store, and coverage): the worker threads of each
 * parallel stage (workers.h).  cli_parse_options() checks and applies it.
 */
extern long cli_threads;
#define CLI_OPT_THREADS \
	{ CLI_OPT_INT, "threads", 0, &cli_threads, "N", \
	  "worker threads of each parallel stage: history walk, mail " \
	  "parsing (at most 4), file matching (at most 8) (default 0: one " \
	  "per processor)" }
#define CLI_OPTION_END { CLI_OPT_END, NULL, 0, NULL, NULL, NULL }

/*
 * --max-message-size MIB and --max-index-size MIB, the limits of reading
 * list archives (mail.h), in the table of every command that reads mail
 * and only there: CLI_OPT_ARCHIVE brings them with --archive, and a
 * command taking archives as arguments (mail) declares them itself.
 * cli_parse_options() checks and applies them; unset is LONG_MIN.
 */
extern long cli_max_message_mib, cli_max_index_mib;
#define CLI_MAIL_LIMIT_OPTIONS \
	{ CLI_OPT_INT | CLI_OPT_FULL, "max-message-size", 0, \
	  &cli_max_message_mib, "MIB", \
	  "read at most this much of one list message (default 64)" }, \
	{ CLI_OPT_INT | CLI_OPT_FULL, "max-index-size", 0, \
	  &cli_max_index_mib, "MIB", \
	  "stop when the messages read need more memory than this " \
	  "(default: half the physical memory)" }
/* --archive PATH (repeatable; `v` a struct cli_strings *), with the
 * limits of reading what it names. */
#define CLI_OPT_ARCHIVE(v, help) \
	{ CLI_OPT_STRING_LIST | CLI_OPT_FULL, "archive", 0, (v), "PATH", \
	  help }, \
	CLI_MAIL_LIMIT_OPTIONS

/* What a command tells --help about itself. */
struct cli_command_help {
	const char *usage;   /* "maintstat sections [options] PATH..." */
	const char *summary; /* one or more lines of prose */
	const char *examples; /* lines "  maintstat ...", or NULL */
};

/* cli_parse_options() returns this when the command should go on. */
#define CLI_CONTINUE (-1)

/* Whether a command frees its models as it ends (cli_project_close(),
 * review's): in a sanitizer's build, whose leak check needs it; else
 * the memory goes back with the process, as git leaves its own
 * (freeing was 4% of a pending run after new mail, docs/performance.md). */
#ifdef __SANITIZE_ADDRESS__
#define CLI_FREE_AT_END 1
#else
#define CLI_FREE_AT_END 0
#endif

/*
 * Parse the options of a command from *argc and *argv (argv[0] is the command
 * name).  --help is always accepted: it prints the help to stdout and
 * returns EXIT_OK.  A usage error prints a message and returns EXIT_USAGE.
 * Otherwise returns CLI_CONTINUE with *argc and *argv reduced to the
 * positional arguments, options may come before or after them, and "--"
 * ends the options.
 */
int cli_parse_options(int *argc, char ***argv, const struct cli_option *opts,
		      const struct cli_command_help *help);

/*
 * One table of `a`'s options followed by `b`'s (both END-terminated),
 * as a command that shares another's options declares them (g_free it).
 */
struct cli_option *cli_options_join(const struct cli_option *a,
				    const struct cli_option *b);

/* Free what option parsing allocated; main() calls it at exit. */
void cli_cleanup(void);

/* Print the generated help of a command to `fp`. */
void cli_print_help(FILE *fp, const struct cli_option *opts,
		    const struct cli_command_help *help);

/* Write to standard output `len` bytes that ms_out_sanitize() made
 * (cli_result_end(): a result is sanitised once, for both). */
void cli_write_clean(const char *p, size_t len);

/* `s` (`len` bytes) as ms_out_sanitize() makes it safe for a terminal,
 * for text written to stderr (newly allocated, g_free). */
char *cli_clean(const char *s, size_t len);

/* The most a command reads from standard input (a patch or a list of
 * paths): `maintainers - < /dev/zero` must end, not fill memory. */
#define CLI_STDIN_MAX ((size_t)64 << 20)

/*
 * All of standard input into `s`, at most CLI_STDIN_MAX bytes.  0, or
 * EXIT_RUNTIME after printing why (a read error, or more than that).
 */
int cli_read_stdin(GString *s);

/*
 * The whole of file `path` into *text (NUL-terminated, g_free it; its
 * length in *len unless NULL): CLI_CONTINUE, or EXIT_RUNTIME after
 * "cannot read 'PATH': why".
 */
int cli_read_file(const char *path, char **text, size_t *len);

/* "maintstat: <message>" on stderr.  Returns EXIT_RUNTIME. */
int cli_error(const char *fmt, ...) MS_PRINTF(1, 2);

/* The library's last error as a runtime failure.  Returns EXIT_RUNTIME. */
int cli_error_last(void);

/* A usage error: message, then a hint at --help.  Returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) MS_PRINTF(2, 3);

/*
 * "maintstat: warning: <message>" on stderr, each distinct message once a
 * run, none with --quiet.
 */
void cli_warning(const char *fmt, ...) MS_PRINTF(1, 2);
/* How many errors were printed so far (a result kept for later runs
 * must have printed none: cli-result.h). */
unsigned long cli_errors(void);
/* Copy every message printed from now on (errors and warnings, each
 * line as written to stderr) to `to`; NULL stops. */
void cli_messages_record(GString *to);

/* Print each diagnostic as "maintstat: warning: FILE:LINE: message". */
void cli_print_diags(const struct ms_diags *diags);

/*
 * Progress on stderr when it is a terminal, nothing otherwise (and nothing
 * with --quiet).  `what` is borrowed until cli_progress_done.
 */
void cli_progress_start(const char *what, uint64_t total);
void cli_progress_update(uint64_t done);
void cli_progress_done(void);
/* Wipe the progress line so that a message can be printed (it comes back). */
void cli_progress_clear(void);
/* `n` with thousands separators: "45,513". */
void cli_format_count(uint64_t n, char buf[32]);
/* Whether a progress line is being shown (started, and on a terminal). */
bool cli_progress_shown(void);
/* cli_progress_update(n) in the shape of a library progress callback */
void cli_progress_count(size_t n, void *data);
/* Two counts on one line, "WHAT: DONE, WHAT2: DONE2" (same throttle). */
void cli_progress_update2(uint64_t done, const char *what2, uint64_t done2);


/*
 * --limit N: how many items of each long list a report shows.  Text shows
 * 20 by default, JSON everything; 0 means everything.  Declare it with
 * CLI_OPT_LIMIT(&limit) (long limit = -1, i.e. unset).
 */
#define CLI_OPT_LIMIT(v) \
	{ CLI_OPT_INT, "limit", 0, (v), "N", \
	  "show at most N items of each long list, 0 all (default: 20 " \
	  "in text, all in JSON)" }
size_t cli_limit(long limit, bool json, size_t nr);
/*
 * --limit N where a command's rows are its answer (link's commits,
 * activity's and urgent's entries, identities' people): the first N rows
 * in the command's order, in text and JSON alike; by default every row.
 * Text ends with cli_print_more()'s line.  cli_limit_rows() is how many
 * of `nr` rows to show.
 */
#define CLI_OPT_LIMIT_ROWS(v) \
	{ CLI_OPT_INT, "limit", 0, (v), "N", \
	  "show only the first N rows, in text and JSON, 0 all (default: " \
	  "all)" }
size_t cli_limit_rows(long limit, size_t nr);
/* "  ... and N more not shown (--limit)" when shown < nr. */
void cli_print_more(FILE *fp, const char *indent, size_t shown, size_t nr);

struct ms_duration;

/*
 * A duration option (`opt` without dashes) through when.h's one parser:
 * "5y", "18m", "2w", "14d", "48h", "2 weeks".  Returns CLI_CONTINUE, or
 * EXIT_USAGE after printing why.
 */
int cli_parse_duration(const char *cmd, const char *opt, const char *s,
		       struct ms_duration *out);

/*
 * --repo's default, as git's: when *repo is NULL, set it to the git
 * repository enclosing the current directory (its work tree, or itself
 * when bare).  Outside any repository that is a usage error when
 * `required`, else *repo stays NULL.  Returns CLI_CONTINUE or EXIT_USAGE.
 */
int cli_default_repo(const char *cmd, const char **repo, bool required);

/* The help of --repo where it defaults to the enclosing repository. */
#define CLI_REPO_HELP \
	"the git repository, bare is fine (default: the one containing the " \
	"current directory)"

/*
 * Where a command's tree and MAINTAINERS come from; shared by every
 * command that reads MAINTAINERS.  Declare the options with
 * CLI_TREE_OPTIONS(&opts) inside the command's option table.
 */
struct cli_tree_opts {
	const char *tree;        /* --tree DIR */
	const char *repo;        /* --repo GITDIR */
	const char *rev;         /* --rev REV */
	struct cli_strings maintainers;
	bool find_maintainer_files;
};

#define CLI_TREE_OPTIONS(o) \
	{ CLI_OPT_STRING, "tree", 0, &(o)->tree, "DIR", \
	  "the source tree (default: the current directory)" }, \
	{ CLI_OPT_STRING | CLI_OPT_FULL, "repo", 0, &(o)->repo, "GITDIR", \
	  "read the tree from a git repository, bare is fine (default: " \
	  "none, the tree is a directory)" }, \
	{ CLI_OPT_STRING | CLI_OPT_FULL, "rev", 0, &(o)->rev, "REV", \
	  "with --repo: the revision to read (default HEAD)" }, \
	{ CLI_OPT_STRING_LIST, "maintainers", 0, &(o)->maintainers, "FILE", \
	  "read this MAINTAINERS file (default: the tree's)" }, \
	{ CLI_OPT_FLAG, "find-maintainer-files", 0, \
	  &(o)->find_maintainer_files, NULL, \
	  "also read every */MAINTAINERS below the tree" }

struct ms_tree;
struct maint_file;
struct maint_index;

/* What cli_tree_open() loads; release with cli_tree_close(). */
struct cli_tree {
	struct ms_tree *tree;
	struct maint_file *mf;
	struct maint_index *idx;
	struct ms_diags diags;  /* problems found late (a lazy tree walk) */
	/* The current directory inside the tree ("kernel/sched/"), when the
	 * tree was found above it; NULL when it is the tree's top. */
	char *prefix;
};

/*
 * Open the tree named by `o` (or by `positional`, a directory given as the
 * command's first argument, when neither --tree nor --repo is set; else
 * the git work tree enclosing the current directory, as --repo defaults
 * to the enclosing repository, or the nearest directory above holding
 * MAINTAINERS), load
 * its MAINTAINERS files and build the matching index, printing warnings.
 * Returns CLI_CONTINUE, or an exit code after printing the error.
 */
int cli_tree_open(const char *cmd, const struct cli_tree_opts *o,
		  const char *positional, struct cli_tree *out);
/*
 * cli_tree_open() in two steps: open the tree only (out->mf and out->idx
 * stay NULL), then load its MAINTAINERS files and the index (after an
 * error `out` is closed).  A command that may hand its command line on
 * (CLI_RUN_FULL) decides so between them, before the costly part.
 */
int cli_tree_open_dir(const char *cmd, const struct cli_tree_opts *o,
		      const char *positional, struct cli_tree *out);
int cli_tree_load(const struct cli_tree_opts *o, struct cli_tree *out);
/* Print any late warnings and free everything. */
void cli_tree_close(struct cli_tree *t);

/*
 * A path argument as get_maintainer.pl's canonpath() leaves it: no "./",
 * "//" or trailing slash, an absolute path inside the tree made relative,
 * and a directory of the tree given a trailing slash (g_free it).  Run
 * from a subdirectory of the tree, a relative path that exists from the
 * current directory is taken from there, as git takes paths ("..", too);
 * others are the tree's (git diff --name-only prints those).
 */
char *cli_tree_path(const struct cli_tree *ct, const char *arg);

/*
 * The incremental store (store.h), shared by every command that reads
 * history: declare CLI_STORE_OPTIONS(&opts) in the option table and open
 * it with cli_store_open().
 */
struct cli_store_opts {
	const char *db;          /* --db FILE */
	bool no_cache;           /* --no-cache */
	long wait;               /* --db-wait SECONDS; 0: the default */
	bool read_only;          /* set by a command that never creates one */
};

#define CLI_STORE_OPTIONS(o) \
	{ CLI_OPT_STRING | CLI_OPT_FULL, "db", 0, &(o)->db, "FILE", \
	  "the store (default: $XDG_CACHE_HOME/maintstat/<repo id>.sqlite)" }, \
	{ CLI_OPT_FLAG | CLI_OPT_FULL, "no-cache", 0, &(o)->no_cache, NULL, \
	  "neither read nor write the store" }, \
	{ CLI_OPT_INT | CLI_OPT_FULL, "db-wait", 0, &(o)->wait, "SECONDS", \
	  "wait this long for another run using the store (default 30)" }, \
	CLI_OPT_THREADS

struct maint_entry;

/*
 * Entry selection, the same in every command that takes ENTRY arguments
 * (cli-entries.c).  Each name picks the entry of that exact name, else
 * the one whose name equals it case-insensitively, else the one entry it
 * is a prefix of, else the one entry containing it; each --file PATH adds
 * the entries matching PATH (needs `idx`).  An unknown or ambiguous name
 * is a usage error listing up to five candidates.  Returns CLI_CONTINUE
 * with the entries, without repeats, in *out (g_free the array; NULL when
 * none was asked for) or EXIT_USAGE after printing the error.
 */
int cli_select_entries(const char *cmd, const struct maint_file *mf,
		       const struct maint_index *idx, int argc, char **argv,
		       const struct cli_strings *files,
		       const struct maint_entry ***out, size_t *nr);

/* The Levenshtein distance of two byte strings (a mistyped name). */
size_t cli_distance(const char *a, const char *b);

#define CLI_ENTRY_FILE_OPTION(v) \
	{ CLI_OPT_STRING_LIST, "file", 0, (v), "PATH", \
	  "select the entries of PATH (repeatable)" }

struct ms_store;

/*
 * The store of repository `gitdir` as `o` asks: *out is NULL with
 * --no-cache, and when a store written by a newer maintstat must be left
 * alone (a warning says so).  The default file is named after the
 * repository's canonical path (see docs/store.md).  With o->read_only a
 * missing store is an error, never created.  Returns CLI_CONTINUE, or an
 * exit code after printing the error.
 */
int cli_store_open(const struct cli_store_opts *o, const char *gitdir,
		   struct ms_store **out);

/*
 * For tests only: MS_STORE_CHUNK_LIMIT=BYTES in the environment sets the
 * largest row of a model the store `s` writes (ms_store_set_chunk_limit()),
 * so that small results take the path of the kernel's gigabytes.
 */
void cli_store_tune(struct ms_store *s);

/* The default store file of `gitdir` (g_free it). */
char *cli_store_default_path(const char *gitdir);
/* The directory of the default stores (g_free it). */
char *cli_store_dir(void);
/* `maintstat store list|prune ...` (argv[0] is "store list" or "store
 * prune", the name usage hints give). */
int cli_store_maintain(int argc, char **argv);

/* "--to=addr": one git send-email argument `flag`=`address`, as is when
 * it holds no space, glob or quote (so that `git send-email $(...)` and
 * xargs both take it), else quoted for the shell.  g_free it. */
char *cli_send_email_arg(const char *flag, const char *address);

/*
 * What both programs (main.c, main-quick.c) do first: the locale, a quiet
 * end when the reader of standard output goes away, the sanitizing of
 * standard output.
 */
void cli_main_begin(void);
/* What they do last: a failed flush of standard output (a full disk) is
 * an error.  Returns the exit code. */
int cli_main_finish(int rc);

/*
 * One printer per figure, shared by every command and the HTML report
 * (docs/json.md, "version 5"): a person reads the same way everywhere,
 * a share rounds the same way, a latency has one JSON shape.
 */
struct ms_out;

/* A person for people: "Name <addr>", or whichever of the two is set
 * (NULL or "" is unset). */
void cli_person_label(FILE *fp, const char *name, const char *email);

/* A person in JSON: "name" (null when none) and "email" (the bare
 * address; null when none). */
void cli_json_person(struct ms_out *o, const char *name, const char *email);

/* Key `key`: the person as an object {"name", "email"}, as above: the
 * one shape of a person named by a key ("author", "from"). */
void cli_json_person_kv(struct ms_out *o, const char *key, const char *name,
			const char *email);

/* The same from a header line "Name <addr>" or "addr". */
void cli_json_person_line(struct ms_out *o, const char *line);

/* `num` of `den` as a whole percentage, rounded to the nearest (half
 * up): the one rounding of shares in text and HTML.  0 over nothing. */
unsigned cli_percent(size_t num, size_t den);

/* A share as text: "N%", or "-" when it is undefined (< 0: nothing to
 * divide by).  Returns `buf`. */
const char *cli_share_text(char buf[16], double share);

/* Key `key`: {"median_hours", "p90_hours"} of a latency, or null when
 * `median` < 0 (none). */
void cli_json_quant(struct ms_out *o, const char *key, int64_t median,
		    int64_t p90);

/* Key `key`: a duration of `seconds` in hours (a real), or null when
 * `seconds` < 0 (none). */
void cli_json_hours(struct ms_out *o, const char *key, int64_t seconds);

/* Key `key`: `num` of `den` as a share (0..1), or null over nothing. */
void cli_json_share(struct ms_out *o, const char *key, size_t num,
		    size_t den);

/* Key `key`: a count, or null when nothing was read to count (`known`
 * false: a commit count without git history, docs/json.md). */
void cli_json_count(struct ms_out *o, const char *key, bool known,
		    size_t n);

#endif
