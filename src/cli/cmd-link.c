/*
 * cmd-link.c - maintstat link: which list message posted each commit.
 */
#include "cli-review.h"
#include "cli-result.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "project.h"
#include "activity.h"
#include "history.h"
#include "ident.h"
#include "commands.h"
#include "link.h"
#include "output.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat link [--repo GITDIR] --archive PATH [--archive PATH...] "
	"[options]",
	"For each non-merge commit of the window, the message of the list\n"
	"archives that posted it, found by, in order: a Link: trailer naming\n"
	"a message (lore URLs, /r/<id>, patch.msgid.link/<id>), a Message-Id:\n"
	"trailer, equal patch-ids (git patch-id --stable), a posting dated at\n"
	"the commit's author date (git am keeps it), then author plus\n"
	"normalized subject (touched files break ties), last a similar\n"
	"subject on the same files.  Each link names its\n"
	"method and the earlier versions of the patch; commits left unlinked\n"
	"are listed, and how many each method linked.  A posting's sender is\n"
	"the commit's author also under another address of the same person\n"
	"(the revision's .mailmap, --mailmap, --aliases, the same display\n"
	"name unless --no-name-join: docs/identities.md); such a link shows\n"
	"the addresses it joined.",
	"  maintstat link --repo ~/linux --archive linux-rdma-2023.mbox.gz\n"
	"  maintstat link --since 1y --archive ~/inboxes/ltp",
};

/* The options (--mailmap, --aliases and --no-name-join among them),
 * and the project they name, read before the long work. */
struct ident_args {
	struct cli_act_opts io;
	struct ms_project *proj;
};

/* What the text report starts with, as every report does. */
static void print_context(const struct ident_args *ia,
			  const struct ms_mail_index *idx, int64_t since,
			  int64_t until, bool ignore)
{
	const struct cli_act_opts *o = &ia->io;
	char id[41] = "", s[32], u[32];

	cli_rev_print_archives(stdout, o, idx);
	if (ms_history_resolve(o->repo, o->rev, id, NULL) < 0)
		snprintf(id, sizeof(id), "?");
	printf("Repository %s at %s (%.12s)\n", o->repo,
	       o->rev ? o->rev : "HEAD", id);
	ms_act_format(since, 0, false, true, s);
	ms_act_format(until, 0, false, true, u);
	printf("Window: commits dated %s to %s (UTC)\n",
	       since ? s : "the first commit",
	       until != INT64_MAX ? u : "the last");
	printf("Methods:");
	for (int m = 0; m < MS_LINK__COUNT; m++)
		if (!ignore || (m != MS_LINK_TRAILER &&
				m != MS_LINK_MSGID_TRAILER))
			printf("%s %s", m && !(ignore && m == MS_LINK_PATCH_ID)
			       ? "," : "", ms_link_method_name(m));
	printf("%s\n", ignore ? " (trailers ignored)" : "");
	printf("Identities: the revision's .mailmap");
	for (int i = 0; i < o->mailmaps.nr; i++)
		printf(", %s", o->mailmaps.items[i]);
	if (o->aliases)
		printf(", aliases %s", o->aliases);
	printf(", the commits' and the list's people%s\n\n",
	       o->no_name_join ? " (no name joins)" : ", equal names");
}

/* The author of a link found through a join, and the joined addresses:
 * "Ann Example <ann@x> (also: ann@y (mailmap))". */
static void print_joined(const struct ms_link *l,
			 const struct ms_link_people *pp)
{
	unsigned p = pp->author[l->commit];
	char *joins;

	if (!(l->evidence & MS_LINK_EV_AUTHOR_JOINED))
		return;
	joins = cli_ident_joins(pp->ident, p, ms_ident_email(pp->ident, p));
	printf("%12s %-18s %s <%s>", "", "author joined",
	       ms_ident_name(pp->ident, p), ms_ident_email(pp->ident, p));
	if (joins)
		printf(" (also: %s)", joins);
	putchar('\n');
	g_free(joins);
}

/* How many of the links and then of the unlinked commits --limit
 * shows: the first `rows` of both lists, in that order. */
static void link_rows(const struct ms_link_result *r, size_t rows,
		      size_t *links, size_t *unlinked)
{
	*links = rows < r->links->len ? rows : r->links->len;
	rows -= *links;
	*unlinked = rows < r->unlinked->len ? rows : r->unlinked->len;
}

static void print_text(const struct ms_mail_index *idx,
		       const GPtrArray *commits,
		       const struct ms_link_result *r,
		       const struct ms_link_people *pp, size_t rows)
{
	size_t total = commits->len, nl, nu;

	link_rows(r, rows, &nl, &nu);
	for (guint i = 0; i < nl; i++) {
		const struct ms_link *l = &g_array_index(r->links,
							 struct ms_link, i);
		const struct ms_link_commit *c = commits->pdata[l->commit];

		printf("%.12s %-18s <%s> %s\n", c->id,
		       ms_link_method_name(l->method),
		       ms_mail_index_get(idx, l->rec)->message_id,
		       c->summary);
		print_joined(l, pp);
		for (guint k = 0; k < l->earlier->len; k++)
			printf("%12s %-18s <%s>\n", "", "earlier",
			       ms_mail_index_get(idx, g_array_index(
				       l->earlier, uint32_t, k))->message_id);
	}
	for (guint i = 0; i < nu; i++) {
		const struct ms_link_commit *c = commits->pdata[
			g_array_index(r->unlinked, uint32_t, i)];

		printf("%.12s %-18s %s\n", c->id, "unlinked", c->summary);
	}
	cli_print_more(stdout, "", nl + nu, r->links->len + r->unlinked->len);
	printf("\nCommits %zu, linked %u (%u%%)\n", total, r->links->len,
	       cli_percent(r->links->len, total));
	for (int m = 0; m < MS_LINK__COUNT; m++)
		printf("  %-18s %zu\n", ms_link_method_name(m), r->counts[m]);
	printf("  %-18s %u\n", "unlinked", r->unlinked->len);
}

static void out_string(const char *s, void *data)
{
	ms_out_string(data, s);
}

static void print_json(struct ms_out *o, const struct ms_mail_index *idx,
		       const GPtrArray *commits,
		       const struct ms_link_result *r,
		       const struct ms_link_people *pp, size_t rows)
{
	size_t nl, nu;

	link_rows(r, rows, &nl, &nu);
	ms_out_begin_document(o);
	ms_out_kv_begin_list(o, "links");
	for (guint i = 0; i < nl; i++) {
		const struct ms_link *l = &g_array_index(r->links,
							 struct ms_link, i);
		const struct ms_link_commit *c = commits->pdata[l->commit];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "commit", c->id);
		ms_out_kv_string(o, "message_id",
				 ms_mail_index_get(idx, l->rec)->message_id);
		ms_out_kv_string(o, "method", ms_link_method_name(l->method));
		ms_out_kv_string(o, "kind", ms_mail_kind_name(
					 ms_mail_index_get(idx, l->rec)->kind));
		ms_out_kv_begin_list(o, "matched_on");
		ms_link_evidence_names(l->evidence, out_string, o);
		ms_out_end_list(o);
		{
			bool j = l->evidence & MS_LINK_EV_AUTHOR_JOINED;
			unsigned p = j ? pp->author[l->commit] :
				MS_IDENT_NONE;

			ms_out_kv_string(o, "author_email", j ?
					 ms_ident_email(pp->ident, p) : NULL);
			cli_ident_json_joins(o, "author_joins", pp->ident, p,
					     j ? ms_ident_email(pp->ident, p) :
					     NULL);
		}
		ms_out_kv_begin_list(o, "earlier");
		for (guint k = 0; k < l->earlier->len; k++)
			ms_out_string(o, ms_mail_index_get(idx, g_array_index(
				l->earlier, uint32_t, k))->message_id);
		ms_out_end_list(o);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "unlinked_commits");
	for (guint i = 0; i < nu; i++) {
		const struct ms_link_commit *c = commits->pdata[
			g_array_index(r->unlinked, uint32_t, i)];

		ms_out_string(o, c->id);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_object(o, "counts");
	ms_out_kv_int(o, "commits", commits->len);
	for (int m = 0; m < MS_LINK__COUNT; m++) {
		/* keys are snake_case: "link-trailer" counts as link_trailer */
		char *key = g_strdelimit(g_strdup(ms_link_method_name(m)),
					 "-", '_');

		/* "subject" is a message's subject everywhere else */
		ms_out_kv_int(o, m == MS_LINK_SUBJECT ? "subject_match" : key,
			      (int64_t)r->counts[m]);
		g_free(key);
	}
	ms_out_kv_int(o, "unlinked", r->unlinked->len);
	ms_out_end_object(o);
}


/* Who is who: the revision's .mailmap, --mailmap and --aliases, the
 * commits' people and the list's senders, joined by name unless
 * --no-name-join (link.h, ms_link_people): the project's sources. */
static struct ms_link_people *load_people(const struct ident_args *ia,
					  const GPtrArray *commits,
					  const struct ms_link_mail *lm)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_link_people_src src;
	struct ms_link_people *people;

	ms_project_people_src(ia->proj, &src);
	people = ms_link_people_new(commits, lm, &src, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	return people;
}

static gpointer free_mail(gpointer lm)
{
	ms_link_mail_free(lm);
	return NULL;
}

/*
 * The key of link's result (cli-result.h): besides the command line, the
 * window as resolved dates, the archives' states and every input of the
 * project (cli_result_add_project()).
 */
static void link_key(const struct ident_args *ia, int64_t since,
		     int64_t until, struct cli_result *res)
{
	cli_result_add_int(res, "since", since);
	cli_result_add_int(res, "until", until);
	cli_result_add_archives(res, &ia->io.archives);
	cli_result_add_project(res, &ia->io);
}

int cmd_link(int argc, char **argv)
{
	struct ident_args ia = { 0 };
	bool json = false, ignore = false;
	long limit = -1;
	const struct cli_option opts[] = {
		CLI_REV_OPTIONS(&ia.io),
		{ CLI_OPT_FLAG, "ignore-link-trailers", 0, &ignore, NULL,
		  "do not use Link: and Message-Id: trailers" },
		{ CLI_OPT_STRING, "aliases", 0, &ia.io.aliases, "FILE",
		  "gitdm-style aliases: 'alias canonical' addresses per line "
		  "(default: none; .mailmap is always read)" },
		CLI_IDENT_OPTIONS(&ia.io),
		CLI_OPT_LIMIT_ROWS(&limit),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	struct ms_link_opts lo = { 0 };
	struct cli_result kept = { 0 };
	char **argv0 = g_new(char *, (size_t)argc + 1);
	int argc0 = argc;
	struct ms_link_people *people = NULL;
	struct ms_link_mail *lm = NULL;
	struct ms_link_result *res = NULL;
	struct cli_rev_linking *linking;
	GThread *freeing;
	GPtrArray *commits = NULL;
	int64_t since, until;
	struct ms_out *o;
	int rc, wrc;

	memcpy(argv0, argv, sizeof(*argv) * (size_t)argc);
	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc == CLI_CONTINUE)
		rc = cli_default_repo("link", &ia.io.repo, true);
	if (rc != CLI_CONTINUE)
		goto out;
	if (argc)
		rc = cli_usage_error("link", "unexpected argument '%s'",
				     argv[0]);
	else if (!ia.io.repo)
		rc = cli_usage_error("link", "--repo GITDIR is required");
	else if (!ia.io.archives.nr)
		rc = cli_usage_error("link", "--archive PATH is required");
	else
		rc = cli_rev_window("link", &ia.io, &since, &until);
	if (rc != CLI_CONTINUE)
		goto out;
	rc = cli_project_open(&ia.io, &ia.proj);
	if (rc != CLI_CONTINUE)
		goto out;
	/* the same inputs as a saved result: print it (cli-result.h) */
	cli_result_begin(&kept, "link", json, argc0, argv0, false);
	link_key(&ia, since, until, &kept);
	rc = cli_result_serve(&kept, &ia.io.store, ia.io.repo, NULL);
	if (rc != CLI_CONTINUE)
		goto out;
	rc = cli_rev_load("link", &ia.io, since, until, 0, NULL, NULL, &commits,
			  &lm);
	if (rc != CLI_CONTINUE)
		goto out;
	lo.ignore_link_trailers = ignore;
	people = load_people(&ia, commits, lm);
	lo.people = people;
	/* the report prints while its links are written to the store */
	rc = cli_rev_link_begin(&ia.io, lm, commits, &lo, &res, &linking);
	if (rc != CLI_CONTINUE)
		goto out;
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (json)
		print_json(o, ms_link_mail_index(lm), commits, res, people,
			   cli_limit_rows(limit, SIZE_MAX));
	else {
		print_context(&ia, ms_link_mail_index(lm), since, until,
			      ignore);
		print_text(ms_link_mail_index(lm), commits, res, people,
			   cli_limit_rows(limit, SIZE_MAX));
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	wrc = cli_rev_link_end(linking);
	if (rc == EXIT_OK && wrc != CLI_CONTINUE)
		rc = wrc;
	rc = cli_result_end(&kept, rc, &ia.io.store, ia.io.repo, NULL);
out:
	g_free(argv0);
	/* the two models side by side: freeing them one after the other was
	 * a thirtieth of a large warm run */
	freeing = lm ? g_thread_try_new("ms-free", free_mail, lm, NULL) : NULL;
	if (!freeing)
		ms_link_mail_free(lm);
	ms_link_result_free(res);
	ms_link_people_free(people);
	cli_project_close(ia.proj);
	if (commits)
		g_ptr_array_unref(commits);
	if (freeing)
		g_thread_join(freeing);
	cli_result_keep(&kept);
	cli_result_release(&kept);
	return rc;
}
