/*
 * cmd-store.c - maintstat store: look at the incremental store.
 *
 *   maintstat store log  --repo GITDIR [--rev REV] [--merges] [--no-paths]
 *   maintstat store info --repo GITDIR | --db FILE
 *
 * `log` prints what the history walk delivers, commit by commit, through
 * the store (or, with --no-cache, straight from git): the two must never
 * differ, and the tests compare them.  `info` says where the store is and
 * what it holds.
 */
#include "cli.h"
#include "commands.h"
#include "history.h"
#include "output.h"
#include "store.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat store log|info [--repo GITDIR] [options]\n"
	"       maintstat store list|prune [options]",
	"The incremental store: an SQLite database of what maintstat extracted\n"
	"from each commit, so that re-runs read only new history (schema and\n"
	"views: docs/store.md).  'log' prints every commit of the walk from\n"
	"--rev (default HEAD) as the commands see it: id, parents, author,\n"
	"committer, trailers and touched paths.  'info' prints the store's\n"
	"path, schema version, record counts and size.  'list' and 'prune'\n"
	"show and remove the stores of the cache directory (see their\n"
	"--help).",
	"  maintstat store info\n"
	"  maintstat store log --json | head",
};

struct log_ctx {
	struct ms_out *o;
	bool json;
};

static void emit_sig(struct ms_out *o, const char *key,
		     const struct ms_sig *s)
{
	ms_out_kv_begin_object(o, key);
	ms_out_kv_string(o, "name", s->name);
	ms_out_kv_string(o, "email", s->email);
	ms_out_kv_int(o, "time", s->time);
	ms_out_kv_int(o, "offset", s->offset);
	ms_out_end_object(o);
}

static int log_one(const struct ms_commit *c, void *data)
{
	struct log_ctx *l = data;
	struct ms_out *o = l->o;

	if (!l->json) {
		printf("commit %s", c->id);
		for (unsigned i = 0; i < c->nr_parents; i++)
			printf(" %s", c->parents[i]);
		printf("%s\n", c->incomplete ? " (incomplete)" : "");
		printf("author %s <%s> %lld %+05d\n", c->author.name,
		       c->author.email, (long long)c->author.time,
		       c->author.offset / 60 * 100 + c->author.offset % 60);
		printf("committer %s <%s> %lld %+05d\n", c->committer.name,
		       c->committer.email, (long long)c->committer.time,
		       c->committer.offset / 60 * 100 +
		       c->committer.offset % 60);
		for (size_t i = 0; i < c->nr_trailers; i++) {
			const struct ms_commit_trailer *t = &c->trailers[i];

			printf("trailer %s: %s", t->token, t->value);
			if (t->is_person)
				printf(" [%s <%s>]", t->name ? t->name : "",
				       t->email ? t->email : "");
			putchar('\n');
		}
		for (size_t i = 0; i < c->nr_paths; i++)
			printf("path %s\n", c->paths[i]);
		putchar('\n');
		return 0;
	}
	ms_out_begin_object(o);
	ms_out_kv_string(o, "id", c->id);
	ms_out_kv_strings(o, "parents", c->parents, c->nr_parents);
	emit_sig(o, "author", &c->author);
	emit_sig(o, "committer", &c->committer);
	ms_out_kv_begin_list(o, "trailers");
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "token", t->token);
		ms_out_kv_string(o, "value", t->value);
		if (t->is_person) {
			ms_out_kv_string(o, "name", t->name);
			ms_out_kv_string(o, "email", t->email);
		}
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_strings(o, "changed_paths", c->paths, c->nr_paths);
	ms_out_kv_bool(o, "incomplete", c->incomplete);
	ms_out_end_object(o);
	return 0;
}

static int do_log(const char *repo, const char *rev, bool merges,
		  bool no_paths, struct ms_store *st, bool json)
{
	struct ms_walk_opts wo = { 0 };
	struct ms_walk_stats ws = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct log_ctx l = { 0 };
	int rc;

	l.json = json;
	l.o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(l.o);
	if (json) {
		ms_out_key(l.o, "commit_list");
		ms_out_begin_list(l.o);
	}
	wo.rev = rev;
	wo.flags = (merges ? MS_WALK_MERGES : 0) |
		(no_paths ? MS_WALK_NO_PATHS : 0);
	wo.fn = log_one;
	wo.data = &l;
	rc = ms_store_history_walk(st, repo, &wo, &ws, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0) {
		ms_out_free(l.o);
		return cli_error_last();
	}
	if (json) {
		ms_out_end_list(l.o);
		ms_out_key(l.o, "stats");
		ms_out_begin_object(l.o);
		ms_out_kv_int(l.o, "walked", (int64_t)ws.walked);
		ms_out_kv_int(l.o, "delivered", (int64_t)ws.delivered);
		ms_out_kv_int(l.o, "merges", (int64_t)ws.merges);
		ms_out_kv_int(l.o, "incomplete_commits", (int64_t)ws.incomplete);
		ms_out_end_object(l.o);
	} else {
		printf("walked %zu delivered %zu merges-skipped %zu "
		       "incomplete %zu\n", ws.walked, ws.delivered,
		       ws.merges, ws.incomplete);
	}
	rc = ms_out_finish(l.o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(l.o);
	return rc;
}

static int do_info(struct ms_store *st, bool json)
{
	struct ms_store_info info;
	struct ms_out *o;
	int rc;

	if (ms_store_info(st, &info) < 0)
		return cli_error_last();
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	ms_out_kv_string(o, "path", ms_store_path(st));
	ms_out_kv_int(o, "store_schema", info.schema_version);
	ms_out_kv_int(o, "commit_extraction", MS_STORE_COMMIT_VERSION);
	ms_out_kv_int(o, "commits", info.commits);
	ms_out_kv_int(o, "stale_commits", info.stale_commits);
	ms_out_kv_int(o, "refs", info.refs);
	ms_out_kv_int(o, "messages", info.messages);
	ms_out_kv_int(o, "size", info.size);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

int cmd_store(int argc, char **argv)
{
	struct cli_store_opts so = { 0 };
	const char *repo = NULL, *rev = NULL;
	bool json = false, merges = false, no_paths = false;
	const struct cli_option opts[] = {
		{ CLI_OPT_STRING, "repo", 0, &repo, "GITDIR", CLI_REPO_HELP },
		{ CLI_OPT_STRING, "rev", 0, &rev, "REV",
		  "log: where the walk starts (default HEAD)" },
		{ CLI_OPT_FLAG, "merges", 0, &merges, NULL,
		  "log: show merge commits too" },
		{ CLI_OPT_FLAG, "no-paths", 0, &no_paths, NULL,
		  "log: leave out the touched paths" },
		CLI_STORE_OPTIONS(&so),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	struct ms_store *st = NULL;
	const char *sub;
	int rc;

	/* the stores of the cache directory, not one repository's */
	if (argc > 1 && (!strcmp(argv[1], "list") ||
			 !strcmp(argv[1], "prune"))) {
		/* argv[0] names the command in usage hints */
		static char list[] = "store list", prune[] = "store prune";

		argv[1] = !strcmp(argv[1], "list") ? list : prune;
		return cli_store_maintain(argc - 1, argv + 1);
	}
	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	if (argc < 1)
		return cli_usage_error("store", "say 'log', 'info', 'list' "
				       "or 'prune'");
	if (argc > 1)
		return cli_usage_error("store", "too many arguments");
	sub = argv[0];
	if (strcmp(sub, "log") && strcmp(sub, "info"))
		return cli_usage_error("store", "unknown subcommand '%s'; say "
				       "'log', 'info', 'list' or 'prune'",
				       sub);
	if (!(so.db && !strcmp(sub, "info"))) {
		rc = cli_default_repo("store", &repo, true);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (!strcmp(sub, "info") && so.no_cache)
		return cli_usage_error("store", "info reads the store: "
				       "--no-cache makes no sense");
	so.read_only = !strcmp(sub, "info");
	rc = cli_store_open(&so, repo, &st);
	if (rc != CLI_CONTINUE)
		return rc;
	if (!strcmp(sub, "log"))
		rc = do_log(repo, rev, merges, no_paths, st, json);
	else if (st)
		rc = do_info(st, json);
	else
		rc = cli_error("no store to describe");
	ms_store_free(st);
	return rc;
}
