/*
 * cmd-identities.c - maintstat identities: who is who, and why.  Every
 * person with more than one address (or every listed person of the named
 * entries), each address with the source that joined it and the first
 * evidence; listed addresses never used; ready-to-commit .mailmap lines
 * for the joins .mailmap does not already make.
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "project.h"
#include "cli-review.h"
#include "commands.h"
#include "ident.h"
#include "link.h"
#include "mail.h"
#include "maintainers.h"
#include "output.h"
#include "person.h"
#include "tree.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat identities [--repo GITDIR | --tree DIR] [--archive PATH] "
	"[options] [ENTRY...]",
	"Who is who: every person known under more than one address (with\n"
	"ENTRY arguments: every M: and R: person of those entries), each\n"
	"address with the source that joined it -- mailmap, aliases,\n"
	"maintainers-history, name -- and its first evidence (a commit id,\n"
	"a Message-ID, or REV:MAINTAINERS:LINE); the list messages a list\n"
	"rewrote (DMARC) credited by name (\"dmarc-name\"); the people of\n"
	"the same name kept apart by evidence (\"not ADDRESS\").  Each\n"
	"entry listing a person carries the verdict every command gives\n"
	"there (active, active on the list, inactive, never active, role\n"
	"address, no evidence: docs/cli.md; none with --tree).  With\n"
	"--tree (a directory without history) people come from its\n"
	"MAINTAINERS and .mailmap; --archive adds a list's senders to\n"
	"either.  A listed address never seen in a commit or message read\n"
	"is flagged \"unused address\"; a name joining more than five\n"
	"addresses is flagged for checking.  --suggest-mailmap prints\n"
	".mailmap lines for the joins the .mailmap does not already make.\n"
	"docs/identities.md explains the rules.",
	"  maintstat identities --repo ~/linux 'INFINIBAND SUBSYSTEM'\n"
	"  maintstat identities --tree linux-6.1 --archive rdma.mbox.gz\n"
	"  maintstat identities --suggest-mailmap",
};

struct addr_row {
	char *email;
	enum ms_ident_source source;
	char *join_evidence;
	char *first_seen;
	bool used, listed, malformed;
	bool unused;               /* ms_ident_addr_unused() */
};

/* Another person of the same name, kept apart by evidence. */
struct split_row {
	const char *email;         /* their canonical address (borrowed) */
	char *why;                 /* a commit id, "review of <id> in <id>" */
};

struct person_row {
	unsigned root;
	const char *name;
	const char *email;
	GPtrArray *addrs;          /* struct addr_row * */
	GPtrArray *entries;        /* entry names (borrowed) */
	GPtrArray *verdicts;       /* in each: ms_verdict_name(), or NULL
				      (no history read) */
	GPtrArray *splits;         /* struct split_row * */
	GPtrArray *possible;       /* struct split_row *: joins left open */
	size_t dmarc;              /* list messages credited by name */
	const char *dmarc_list, *dmarc_evidence;  /* the first one's */
	bool big_name;
	bool usage_known;          /* a history or a list was read */
};

static void addr_row_free(gpointer p)
{
	struct addr_row *a = p;

	g_free(a->email);
	g_free(a->join_evidence);
	g_free(a->first_seen);
	g_free(a);
}

static void split_row_free(gpointer p)
{
	struct split_row *x = p;

	g_free(x->why);
	g_free(x);
}

static void person_row_free(gpointer p)
{
	struct person_row *r = p;

	g_ptr_array_free(r->splits, TRUE);
	g_ptr_array_free(r->possible, TRUE);
	g_ptr_array_free(r->addrs, TRUE);
	g_ptr_array_free(r->entries, TRUE);
	g_ptr_array_free(r->verdicts, TRUE);
	g_free(r);
}

static void collect_addr(const struct ms_ident_addr *a, void *data)
{
	struct person_row *r = data;
	struct addr_row *x = g_new0(struct addr_row, 1);

	x->email = g_strdup(a->email);
	x->source = a->source;
	x->join_evidence = g_strdup(a->join_evidence);
	x->first_seen = g_strdup(a->first_seen);
	x->used = a->used;
	x->listed = a->listed;
	x->malformed = a->malformed;
	x->unused = ms_ident_addr_unused(a, r->usage_known);
	g_ptr_array_add(r->addrs, x);
}

/* A split or possible join of a person (ms_ident_foreach_split() and
 * _possible()), noted into `to`. */
struct split_ctx {
	const struct ms_ident *id;
	GPtrArray *to;
};

static void collect_split(unsigned other, const char *why, void *data)
{
	struct split_ctx *c = data;
	struct split_row *x = g_new0(struct split_row, 1);

	x->email = ms_ident_email(c->id, other);
	x->why = g_strdup(why);
	g_ptr_array_add(c->to, x);
}

static bool has_unused(const struct person_row *r)
{
	for (guint i = 0; i < r->addrs->len; i++)
		if (((const struct addr_row *)r->addrs->pdata[i])->unused)
			return true;
	return false;
}

/* A commit id shortened as git does; other evidence as it is. */
static void print_evidence(FILE *fp, const char *what, const char *ev)
{
	size_t n = strlen(ev);
	bool hex = n == 40 && strspn(ev, "0123456789abcdef") == 40;

	if (!*ev)
		return;
	fprintf(fp, ", %s %.*s", what, hex ? 12 : (int)n, ev);
}

static void print_text(FILE *fp, const struct person_row *r,
		       const char *unused_why)
{
	cli_person_label(fp, r->name, r->email);
	if (r->entries->len) {
		fprintf(fp, " (listed: ");
		for (guint i = 0; i < r->entries->len; i++) {
			/* the verdict's JSON name, in words */
			char *v = i < r->verdicts->len &&
				r->verdicts->pdata[i] ? g_strdelimit(
				g_strdup(r->verdicts->pdata[i]), "_", ' ') :
				NULL;

			fprintf(fp, "%s%s%s%s", i ? "; " : "",
				(char *)r->entries->pdata[i], v ? ": " : "",
				v ? v : "");
			g_free(v);
		}
		fprintf(fp, ")");
	}
	fprintf(fp, "\n");
	if (r->big_name)
		fprintf(fp, "  CHECK: one name joins more than five "
			"addresses here\n");
	for (guint i = 0; i < r->addrs->len; i++) {
		const struct addr_row *a = r->addrs->pdata[i];

		if (a->malformed)
			fprintf(fp, "  '%s' (not an address): %s", a->email,
				ms_ident_source_name(a->source));
		else
			fprintf(fp, "  %s: %s", a->email,
				ms_ident_source_name(a->source));
		if (a->source != MS_IDENT_SELF &&
		    strcmp(a->join_evidence, a->first_seen))
			print_evidence(fp, "joined by", a->join_evidence);
		print_evidence(fp, "seen in", a->first_seen);
		if (a->unused)
			fprintf(fp, ", unused address (listed, %s)",
				unused_why);
		fprintf(fp, "\n");
	}
	if (r->dmarc) {
		fprintf(fp, "  %s: dmarc-name, %zu message%s a list rewrote "
			"credited by name", r->dmarc_list, r->dmarc,
			r->dmarc == 1 ? "" : "s");
		print_evidence(fp, "first", r->dmarc_evidence);
		fprintf(fp, "\n");
	}
	for (guint i = 0; i < r->splits->len; i++) {
		const struct split_row *x = r->splits->pdata[i];

		size_t n = strlen(x->why);
		/* two commit ids: each reviewed a commit of the other */
		bool commits = n == 81 && x->why[40] == ' ' &&
			       strspn(x->why, "0123456789abcdef") == 40 &&
			       strspn(x->why + 41, "0123456789abcdef") == 40;

		fprintf(fp, "  not %s: same name, another person",
			*x->email ? x->email : "(no address)");
		if (commits)
			fprintf(fp, " (each reviewed the other's commit: "
				"%.12s, %.12s)", x->why, x->why + 41);
		else if (n)
			fprintf(fp, " (%s)", x->why);
		fprintf(fp, "\n");
	}
	for (guint i = 0; i < r->possible->len; i++) {
		const struct split_row *x = r->possible->pdata[i];

		fprintf(fp, "  possible %s: %s; not joined without a "
			".mailmap line, a MAINTAINERS change of address or "
			"one signing for the other\n", x->email, x->why);
	}
}

static void print_json(struct ms_out *o, const struct person_row *r)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", *r->name ? r->name : NULL);
	ms_out_kv_string(o, "email", r->email);
	ms_out_kv_begin_list(o, "listed_in");
	for (guint i = 0; i < r->entries->len; i++)
		ms_out_string(o, r->entries->pdata[i]);
	ms_out_end_list(o);
	ms_out_key(o, "verdicts");
	if (r->entries->len && !r->verdicts->len) {
		ms_out_null(o);
	} else {
		ms_out_begin_list(o);
		for (guint i = 0; i < r->verdicts->len; i++) {
			ms_out_begin_object(o);
			ms_out_kv_string(o, "entry", r->entries->pdata[i]);
			ms_out_kv_string(o, "verdict", r->verdicts->pdata[i]);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
	}
	ms_out_kv_bool(o, "big_name_join", r->big_name);
	ms_out_kv_begin_list(o, "address_evidence");
	for (guint i = 0; i < r->addrs->len; i++) {
		const struct addr_row *a = r->addrs->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", a->email);
		ms_out_kv_string(o, "source",
				 ms_ident_source_name(a->source));
		ms_out_kv_string(o, "evidence", *a->join_evidence ?
				 a->join_evidence : NULL);
		ms_out_kv_string(o, "seen_in", *a->first_seen ?
				 a->first_seen : NULL);
		ms_out_kv_bool(o, "listed", a->listed);
		ms_out_kv_bool(o, "used", a->used);
		ms_out_kv_bool(o, "unused_address", a->unused);
		ms_out_kv_bool(o, "malformed", a->malformed);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "dmarc_name");
	if (r->dmarc) {
		ms_out_begin_object(o);
		ms_out_kv_int(o, "messages", (int64_t)r->dmarc);
		ms_out_kv_string(o, "list_address", r->dmarc_list);
		ms_out_kv_string(o, "evidence", *r->dmarc_evidence ?
				 r->dmarc_evidence : NULL);
		ms_out_end_object(o);
	} else {
		ms_out_null(o);
	}
	ms_out_kv_begin_list(o, "kept_apart");
	for (guint i = 0; i < r->splits->len; i++) {
		const struct split_row *x = r->splits->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", *x->email ? x->email : NULL);
		ms_out_kv_string(o, "evidence", *x->why ? x->why : NULL);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "possible_joins");
	for (guint i = 0; i < r->possible->len; i++) {
		const struct split_row *x = r->possible->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", x->email);
		ms_out_kv_string(o, "evidence", x->why);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_end_object(o);
}

/*
 * .mailmap lines for the joins the .mailmap does not make, never with a
 * text that is no address; a possible join as a question (a comment).
 */
static void print_mailmap(FILE *fp, const struct person_row *r)
{
	if (ms_email_malformed(r->email))
		return;
	for (guint i = 0; i < r->possible->len; i++) {
		const struct split_row *x = r->possible->pdata[i];

		if (ms_email_malformed(x->email) || !*x->email)
			continue;
		fprintf(fp, "# the same person? (%s)\n# %s%s<%s> <%s>\n",
			x->why, r->name, *r->name ? " " : "", r->email,
			x->email);
	}
	for (guint i = 0; i < r->addrs->len; i++) {
		const struct addr_row *a = r->addrs->pdata[i];

		if ((a->source != MS_IDENT_MAINTAINERS &&
		     a->source != MS_IDENT_NAME) || a->malformed)
			continue;
		if (*r->name)
			fprintf(fp, "%s <%s> <%s>\n", r->name, r->email,
				a->email);
		else
			fprintf(fp, "<%s> <%s>\n", r->email, a->email);
	}
}

static int by_email(gconstpointer x, gconstpointer y)
{
	const struct person_row *a = *(struct person_row *const *)x;
	const struct person_row *b = *(struct person_row *const *)y;

	return strcmp(a->email, b->email);
}

static void count_split(unsigned other, const char *why, void *data)
{
	(void)other;
	(void)why;
	(*(size_t *)data)++;
}

/* Whether a one-address person has something to show: list messages
 * credited by name, or a namesake kept apart. */
static bool notable(const struct ms_ident *id, unsigned p)
{
	const char *l, *e;
	size_t n = 0;

	if (ms_ident_dmarc(id, p, &l, &e))
		return true;
	ms_ident_foreach_split(id, p, count_split, &n);
	ms_ident_foreach_possible(id, p, count_split, &n);
	return n > 0;
}

/* The row of person `p` (a root id), new in `rows` and `list` if need be. */
static struct person_row *person_row(GHashTable *rows, GPtrArray *list,
				     unsigned p)
{
	struct person_row *r = g_hash_table_lookup(rows,
						   GUINT_TO_POINTER(p + 1));

	if (r)
		return r;
	r = g_new0(struct person_row, 1);
	r->root = p;
	r->addrs = g_ptr_array_new_with_free_func(addr_row_free);
	r->entries = g_ptr_array_new();
	r->verdicts = g_ptr_array_new();
	r->splits = g_ptr_array_new_with_free_func(split_row_free);
	r->possible = g_ptr_array_new_with_free_func(split_row_free);
	g_hash_table_insert(rows, GUINT_TO_POINTER(p + 1), r);
	g_ptr_array_add(list, r);
	return r;
}

/*
 * The rows: the listed people of the selected entries (or all), with
 * their entries; without ENTRY arguments, everyone else with more than
 * one address too.
 */
static void collect_people(struct ms_ident *id,
			   const struct maint_entry **sel, size_t nr_sel,
			   const struct maint_file *mf, GHashTable *rows,
			   GPtrArray *list)
{
	size_t nr_ent = sel ? nr_sel : maint_file_nr_entries(mf);

	for (size_t i = 0; i < nr_ent; i++) {
		const struct maint_entry *e = sel ? sel[i] :
			maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			char *name = NULL, *email = NULL;
			unsigned p;
			struct person_row *r;

			if (e->fields[f].key != 'M' && e->fields[f].key != 'R')
				continue;
			maint_parse_person(e->fields[f].value, &name, &email);
			p = email && *email ?
				ms_ident_lookup(id, name, email) :
				MS_IDENT_NONE;
			g_free(name);
			g_free(email);
			if (p == MS_IDENT_NONE)
				continue;
			r = person_row(rows, list, p);
			if (!r->entries->len ||
			    r->entries->pdata[r->entries->len - 1] != e->name)
				g_ptr_array_add(r->entries, e->name);
		}
	}
	for (size_t p = 0; !sel && p < ms_ident_count(id); p++) {
		size_t nm;

		if (ms_ident_root(id, (unsigned)p) != p)
			continue;
		ms_ident_members(id, (unsigned)p, &nm);
		if (nm < 2 && ms_ident_nr_addresses(id, (unsigned)p) < 2 &&
		    !notable(id, (unsigned)p))
			continue;
		person_row(rows, list, (unsigned)p);
	}
}

/*
 * Each row's addresses, namesakes kept apart and DMARC credits; then the
 * order: listed people first (MAINTAINERS order), then by address.
 */
static void fill_rows(struct ms_ident *id, GPtrArray *list, bool no_usage)
{
	guint listed = 0;

	for (guint i = 0; i < list->len; i++) {
		struct person_row *r = list->pdata[i];
		struct split_ctx sc = { id, r->splits };
		struct split_ctx pc = { id, r->possible };

		r->name = ms_ident_name(id, r->root);
		r->email = ms_ident_email(id, r->root);
		r->big_name = ms_ident_big_name(id, r->root);
		r->usage_known = !no_usage;
		ms_ident_foreach_address(id, r->root, collect_addr, r);
		/* the canonical address first, however it was met */
		for (guint k = 1; k < r->addrs->len; k++) {
			struct addr_row *a = r->addrs->pdata[k];

			if (!strcmp(a->email, r->email)) {
				r->addrs->pdata[k] = r->addrs->pdata[0];
				r->addrs->pdata[0] = a;
				break;
			}
		}
		ms_ident_foreach_split(id, r->root, collect_split, &sc);
		ms_ident_foreach_possible(id, r->root, collect_split, &pc);
		r->dmarc = ms_ident_dmarc(id, r->root, &r->dmarc_list,
					  &r->dmarc_evidence);
	}
	while (listed < list->len &&
	       ((struct person_row *)list->pdata[listed])->entries->len)
		listed++;
	if (list->len > listed)
		qsort(list->pdata + listed, list->len - listed,
		      sizeof(gpointer), by_email);
}

/* What the people come from: a history, or a tree, and a list. */
struct sources {
	struct cli_act_opts ao;
	struct ms_project *proj;     /* the history or tree, the list */
	struct ms_ident *id;         /* the project's */
	bool act, lm;                /* a history, a list was read */
	struct ms_activity *a;       /* the history's model (act) */
	struct ms_activity_query q;  /* its window and cutoff */
	const struct maint_file *mf;
	const struct maint_index *idx;
};

/* Read the list (if any), then the history or the tree. */
static int load_sources(struct sources *s)
{
	struct ms_link_mail *lm = NULL;
	int rc;

	if (s->ao.tree && s->ao.repo)
		return cli_usage_error("identities", "--tree and --repo "
				       "exclude each other");
	if (!s->ao.tree) {
		rc = cli_default_repo("identities", &s->ao.repo, true);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	s->act = !s->ao.tree;
	s->lm = s->ao.archives.nr > 0;
	if (s->ao.archives.nr) {
		rc = cli_rev_load_mail("identities", &s->ao, 0, NULL, NULL,
				       &lm);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (s->ao.tree) {
		rc = cli_project_open(&s->ao, &s->proj);
		if (rc != CLI_CONTINUE) {
			ms_link_mail_free(lm);
			return rc;
		}
		ms_project_set_mail(s->proj, lm);
		rc = cli_project_tree(s->proj, NULL, &s->mf, &s->idx);
		if (rc == CLI_CONTINUE)
			rc = cli_project_ident(s->proj, &s->id);
		return rc;
	}
	s->ao.mail = lm ? ms_link_mail_index(lm) : NULL;
	rc = cli_act_load("identities", &s->ao, MS_DEFAULT_WINDOW_YEARS,
			  &s->proj, &s->a, &s->q.since, &s->q.until,
			  &s->q.active_since, NULL);
	if (rc != CLI_CONTINUE) {
		ms_link_mail_free(lm);
		return rc;
	}
	ms_project_set_mail(s->proj, lm);
	s->id = ms_activity_ident(s->a);
	s->mf = ms_activity_maintainers(s->a);
	s->idx = ms_activity_index(s->a);
	return CLI_CONTINUE;
}

/* The verdict's name on person `root` in entry `name` of `res`, or NULL
 * when the query has no such person there. */
static const char *verdict_in(const struct sources *s,
			      const struct ms_act_entry *res, size_t nr,
			      const char *name, unsigned root,
			      const struct cli_list_facts *lf)
{
	struct ms_verdict v;

	for (size_t n = 0; n < nr; n++)
		for (size_t j = 0; res[n].entry->name == name &&
		     j < res[n].nr_people; j++)
			if (ms_ident_root(s->id, res[n].people[j].person) ==
			    root) {
				cli_act_verdict(&res[n], &res[n].people[j], lf,
						s->q.active_since, &v);
				return ms_verdict_name(&v);
			}
	return NULL;
}

/* The verdict engine's answer on each listed person of `list` in each
 * of their entries, as activity gives it (with --archive, the list's
 * facts too). */
static int judge(struct sources *s, const struct maint_entry **sel,
		 size_t nr_sel, GPtrArray *list)
{
	struct cli_list_facts *lf = NULL;
	struct ms_act_entry *res = NULL;
	size_t nr = 0;
	int rc = CLI_CONTINUE;

	s->q.entries = sel;
	s->q.nr_entries = nr_sel;
	if (ms_activity_query(s->a, &s->q, &res, &nr) < 0)
		return cli_error_last();
	rc = cli_list_facts_load("identities", &s->ao, s->q.since, s->q.until,
				 s->q.active_since, s->a, &lf);
	for (guint i = 0; rc == CLI_CONTINUE && i < list->len; i++) {
		struct person_row *r = list->pdata[i];

		for (guint k = 0; k < r->entries->len; k++)
			g_ptr_array_add(r->verdicts, (char *)verdict_in(s,
				res, nr, r->entries->pdata[k], r->root, lf));
	}
	cli_list_facts_free(lf);
	ms_act_entries_free(res, nr);
	return rc;
}

/* Whether row `r` is printed: a lone, used, unlisted-elsewhere address
 * says nothing, and is shown only with ENTRY arguments (`all`). */
static bool row_shown(const struct person_row *r, bool all)
{
	return all || r->addrs->len > 1 || has_unused(r) || r->splits->len ||
		r->possible->len || r->dmarc;
}

/* Print the rows as text, JSON (the first `limit` of them, --limit) or
 * .mailmap lines (every row). */
static int print_rows(GPtrArray *list, bool json, bool suggest,
		      bool all, long limit, const char *unused_why)
{
	struct ms_out *o;
	size_t rows = 0, shown = 0, max;
	int rc;

	if (suggest) {
		for (guint i = 0; i < list->len; i++)
			print_mailmap(stdout, list->pdata[i]);
		return fflush(stdout) || ferror(stdout) ?
			cli_error("cannot write the output") : EXIT_OK;
	}
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (json) {
		ms_out_begin_document(o);
		ms_out_kv_begin_list(o, "people");
	}
	for (guint i = 0; i < list->len; i++)
		rows += row_shown(list->pdata[i], all);
	max = cli_limit_rows(limit, rows);
	for (guint i = 0; i < list->len && shown < max; i++) {
		const struct person_row *r = list->pdata[i];

		if (!row_shown(r, all))
			continue;
		if (json) {
			shown++;
			print_json(o, r);
			continue;
		}
		if (shown++)
			fputc('\n', stdout);
		print_text(stdout, r, unused_why);
	}
	if (json) {
		ms_out_end_list(o);
	} else {
		if (shown < rows)
			fputc('\n', stdout);
		cli_print_more(stdout, "", shown, rows);
		if (!rows)
			fputs(all ? "No listed person of those entries.\n" :
			      "No one is known under more than one address, "
			      "nor flagged.\n", stdout);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

int cmd_identities(int argc, char **argv)
{
	struct sources s = {
		.ao.inactive_after = MS_DEFAULT_INACTIVE_AFTER };
	struct cli_strings files = { 0 };
	bool json = false, suggest = false;
	long limit = -1;
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&s.ao, CLI_WINDOW_HELP),
		{ CLI_OPT_STRING, "tree", 0, &s.ao.tree, "DIR",
		  "a source tree without history, instead of --repo: its "
		  "MAINTAINERS and .mailmap (default: none)" },
		CLI_OPT_ARCHIVE(&s.ao.archives, "a list archive whose senders "
				"join people too, and whose messages count "
				"for the verdicts: mbox (.gz), directory, "
				"public-inbox (repeatable)"),
		CLI_INACTIVE_AFTER_OPTION(&s.ao.inactive_after),
		{ CLI_OPT_FLAG, "suggest-mailmap", 0, &suggest, NULL,
		  "print .mailmap lines for the joins .mailmap lacks" },
		CLI_ENTRY_FILE_OPTION(&files),
		CLI_OPT_LIMIT_ROWS(&limit),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const struct maint_entry **sel = NULL;
	size_t nr_sel = 0;
	GHashTable *rows = g_hash_table_new(g_direct_hash, g_direct_equal);
	GPtrArray *list = g_ptr_array_new_with_free_func(person_row_free);
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		goto done;
	if (json && suggest) {
		rc = cli_usage_error("identities", "--json and "
				     "--suggest-mailmap exclude each other");
		goto done;
	}
	rc = load_sources(&s);
	if (rc != CLI_CONTINUE)
		goto done;
	rc = cli_select_entries("identities", s.mf, s.idx, argc, argv,
				&files, &sel, &nr_sel);
	if (rc != CLI_CONTINUE)
		goto done;
	collect_people(s.id, sel, nr_sel, s.mf, rows, list);
	fill_rows(s.id, list, !s.act && !s.lm);
	if (s.act && !suggest) {
		rc = judge(&s, sel, nr_sel, list);
		if (rc != CLI_CONTINUE)
			goto done;
	}
	rc = print_rows(list, json, suggest, sel != NULL, limit,
			s.act && s.lm ? "never in a commit or message" :
			s.act ? "never in a commit" : "never in a message");
done:
	g_hash_table_destroy(rows);
	g_ptr_array_free(list, TRUE);
	g_free(sel);
	cli_project_close(s.proj);
	return rc;
}
