/*
 * test-store.c - ms_store_history_walk() against ms_history_walk() on the
 * small repository of history-repo.h: for every kind of walk (merges, no
 * paths, a revision, prepare and release, a walk stopped by its callback,
 * a partial mirror with a missing tree) the store, cold and then warm,
 * delivers exactly what the plain walk does, with the same return value,
 * statistics, diagnostics and prepare results.  And the replay of stored
 * messages (several batches, read on a thread of their own) delivers
 * them all in order, and stops cleanly when the callback fails.
 */
#include "test.h"
#include "history.h"
#include "history-repo.h"
#include "mail.h"
#include "store.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

struct run {
	GString *out;
	int stop_at;            /* stop after this many commits (0: never) */
	int n;
};

static void *prepare(const struct ms_commit *c, void *data)
{
	(void)data;
	return g_strdup_printf("%s/%zu", c->id, c->nr_paths);
}

static void release(void *user, void *data)
{
	(void)data;
	g_free(user);
}

static int collect(const struct ms_commit *c, void *data)
{
	struct run *r = data;

	g_string_append_printf(r->out, "%s %u %s <%s> %lld %d | %s <%s> "
			       "%lld %d |", c->id, c->nr_parents,
			       c->author.name, c->author.email,
			       (long long)c->author.time, c->author.offset,
			       c->committer.name, c->committer.email,
			       (long long)c->committer.time,
			       c->committer.offset);
	for (unsigned i = 0; i < c->nr_parents; i++)
		g_string_append_printf(r->out, " p=%s", c->parents[i]);
	for (size_t i = 0; i < c->nr_paths; i++)
		g_string_append_printf(r->out, " %s", c->paths[i]);
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];

		g_string_append_printf(r->out, " %d:%s=%s[%d %s %s]",
				       (int)t->kind, t->token, t->value,
				       t->is_person, t->name ? t->name : "-",
				       t->email ? t->email : "-");
	}
	if (c->incomplete)
		g_string_append(r->out, " INCOMPLETE");
	if (c->user) {
		g_string_append_printf(r->out, " user=%s",
				       (const char *)c->user);
		g_free(c->user);
	}
	g_string_append_c(r->out, '\n');
	if (r->stop_at && ++r->n >= r->stop_at)
		return 42;
	return 0;
}

/* One walk, described as text: return value, stats, diags, commits. */
static char *walk(struct ms_store *s, const char *git,
		  const struct ms_walk_opts *base, int stop_at)
{
	struct ms_walk_opts o = *base;
	struct ms_walk_stats st = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct run r = { g_string_new(NULL), stop_at, 0 };
	int rc;

	o.fn = collect;
	o.data = &r;
	rc = ms_store_history_walk(s, git, &o, &st, &diags);
	g_string_prepend(r.out, "\n");
	for (size_t i = diags.nr; i-- > 0;) {
		g_string_prepend(r.out, diags.items[i].message);
		g_string_prepend(r.out, "diag: ");
	}
	{
		char *head = g_strdup_printf("rc %d walked %zu delivered %zu "
					     "merges %zu incomplete %zu\n",
					     rc, st.walked, st.delivered,
					     st.merges, st.incomplete);

		g_string_prepend(r.out, head);
		g_free(head);
	}
	ms_diags_release(&diags);
	return g_string_free(r.out, FALSE);
}

static void compare(const char *dir, const char *git, const char *what,
		    const struct ms_walk_opts *o, int stop_at)
{
	char *db = g_build_filename(dir, "store.sqlite", NULL);
	char *want = walk(NULL, git, o, stop_at);
	struct ms_store *s = NULL;
	const char *state[] = { "cold", "warm", "warm again" };

	for (int i = 0; i < 3; i++) {
		char *got;
		char *label;

		if (i == 0) {
			char *aux = g_strconcat(db, "-wal", NULL);

			g_unlink(db);
			g_unlink(aux);
			g_free(aux);
		}
		if (ms_store_open(db, NULL, &s, NULL) < 0) {
			ok(0, "open the store: %s", ms_error_last());
			break;
		}
		got = walk(s, git, o, stop_at);
		label = g_strdup_printf("%s, %s store: same as without", what,
					state[i]);
		is_str(got, want, label);
		g_free(label);
		g_free(got);
		ms_store_free(s);
	}
	g_free(want);
	g_free(db);
}

static int sh(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- messages ---- */

#define NR_MAILS 2600           /* more than two replay batches (1024) */

struct mails {
	GString *ids;
	int calls;
	int fail_at;            /* fail on this call (0: never) */
};

static int on_mail(struct ms_mail *m, const struct ms_mail_source *src,
		   void *data)
{
	struct mails *ms = data;

	(void)src;
	ms->calls++;
	g_string_append_printf(ms->ids, "%s %s\n", m->message_id,
			       m->subject.normalized);
	/* every field a record keeps, so that a replay must give them all */
	g_string_append_printf(ms->ids, " %s %s %s %" G_GINT64_FORMAT " %d %d"
		" %s %s %s %s %d %s %s %s %s %s %u %d%d%d%d%d %u %u %u %s %u %u"
		" %s %d %d %u %u %s %d %u %u %zu", m->in_reply_to, m->date_raw,
		m->references->len ? (char *)m->references->pdata[0] : "-",
		m->date, m->date_tz, m->date_valid, m->from_name, m->from_email,
		m->sender_name, m->sender_email, m->sender_rewritten, m->to,
		m->cc, m->list_id, m->subject_raw, m->subject.prefixes,
		m->subject.reply_depth, m->subject.forward, m->subject.patch,
		m->subject.rfc, m->subject.resend, m->subject.pull,
		m->subject.version, m->subject.number, m->subject.total,
		m->subject.tree, m->new_lines, m->quoted_lines, m->change_id,
		m->has_diff, m->diff_in_attachment, m->lines_added,
		m->lines_removed, m->patch_id, (int)m->kind, m->notice,
		m->problems, m->size);
	for (guint i = 0; i < m->trailers->len; i++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[i];

		g_string_append_printf(ms->ids, " %d:%s:%s", (int)t->kind,
				       t->token, t->email);
	}
	for (guint i = 0; i < m->files->len; i++)
		g_string_append_printf(ms->ids, " %s",
				       (char *)m->files->pdata[i]);
	g_string_append_c(ms->ids, '\n');
	ms_mail_free(m);
	if (ms->calls == ms->fail_at)
		return ms_error_set(MS_ERROR, "stopped at %d", ms->calls);
	return 0;
}

static int read_mails(struct ms_store *s, const char *path, struct mails *ms)
{
	struct ms_mail_read_result r;
	int rc;

	ms_mail_read_result_init(&r);
	rc = ms_store_mail_parse_archive(s, path, 0, on_mail, ms, &r, NULL);
	ms_mail_read_result_release(&r);
	return rc;
}

static void test_mail_replay(const char *dir)
{
	char *mbox = g_build_filename(dir, "list.mbox", NULL);
	char *db = g_build_filename(dir, "mail.sqlite", NULL);
	GString *text = g_string_new(NULL);
	struct mails plain = { g_string_new(NULL), 0, 0 };
	struct mails cold = { g_string_new(NULL), 0, 0 };
	struct mails warm = { g_string_new(NULL), 0, 0 };
	struct mails stop = { g_string_new(NULL), 0, 1500 };
	struct ms_store *s = NULL;

	/* every third a reply with a review tag, a zone west of UTC, a
	 * version, a number and a tree; every other carries a diff */
	for (int i = 0; i < NR_MAILS; i++)
		g_string_append_printf(text,
			"From m%d@x Thu Jan  1 00:00:00 2024\n"
			"From: P%d <p%d@x.org>\nTo: l@x.org\nCc: c%d@x.org\n"
			"Subject: %s[PATCH%s] message %d\n"
			"Message-ID: <m%d@x>\nReferences: <m%d@x>\n"
			"Date: Mon, 1 Jan 2024 00:%02d:00 %s\n\nbody %d\n"
			"> quoted\n%s\n%s", i, i % 7, i % 7, i % 5,
			i % 3 ? "" : "Re: ", i % 3 ? "" : " v2 3/5 net",
			i, i, i / 2, i % 60, i % 3 ? "+0000" : "-0130", i,
			i % 3 ? "" : "Reviewed-by: R <r@x.org>\n",
			i % 2 ? "" : "---\ndiff --git a/f.c b/f.c\n--- a/f.c\n"
			"+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n\n");
	ok(g_file_set_contents(mbox, text->str, (gssize)text->len, NULL),
	   "write an mbox of 2600 messages");
	is_int(read_mails(NULL, mbox, &plain), 0, "read it without a store");
	is_int(plain.calls, NR_MAILS, "... every message");
	ok(ms_store_open(db, NULL, &s, NULL) == 0, "open a store");
	is_int(read_mails(s, mbox, &cold), 0, "read it into the store");
	ok(!strcmp(cold.ids->str, plain.ids->str), "... the same messages");
	is_int(read_mails(s, mbox, &warm), 0, "replay it from the store");
	is_int(warm.calls, NR_MAILS, "... every message");
	ok(!strcmp(warm.ids->str, plain.ids->str), "... in the same order");
	is_int(read_mails(s, mbox, &stop), MS_ERROR,
	       "a callback failing mid-replay stops it with its code");
	is_int(stop.calls, 1500, "... no call after the failure");
	is_str(ms_error_last(), "stopped at 1500", "... with its message");
	warm.calls = 0;
	g_string_truncate(warm.ids, 0);
	is_int(read_mails(s, mbox, &warm), 0, "the store is still whole");
	ok(!strcmp(warm.ids->str, plain.ids->str), "... replaying it all");
	ms_store_free(s);
	g_string_free(plain.ids, TRUE);
	g_string_free(cold.ids, TRUE);
	g_string_free(warm.ids, TRUE);
	g_string_free(stop.ids, TRUE);
	g_string_free(text, TRUE);
	g_free(mbox);
	g_free(db);
}

/* Patch-ids stored, read back and found by commit id. */
static void test_patchids(const char *dir)
{
	static const char *const ids[] = {
		"0123456789abcdef0123456789abcdef01234567",
		"fedcba9876543210fedcba9876543210fedcba98",
	};
	struct ms_store_patchid a = { "1111111111111111111111111111111111111111",
				      "net: one" };
	struct ms_store_patchid b = { "", "merge: nothing changed" };
	const struct ms_store_patchid *v[] = { &a, &b };
	const struct ms_store_patchid *got;
	struct ms_store_patchids *p = NULL;
	char *db = g_build_filename(dir, "p.sqlite", NULL);
	struct ms_store *s = NULL;

	ok(ms_store_open(db, NULL, &s, NULL) == 0, "open a store");
	is_int(ms_store_patchids_get(s, &p), 0, "no patch-ids yet");
	ok(!ms_store_patchids_find(p, ids[0]), "... none found");
	ms_store_patchids_free(p);
	is_int(ms_store_patchids_put(s, ids, v, 2), 0, "store two");
	is_int(ms_store_patchids_get(s, &p), 0, "read them back");
	got = ms_store_patchids_find(p, ids[0]);
	ok(got && !strcmp(got->patch_id, a.patch_id) &&
	   !strcmp(got->summary, "net: one"), "the first, by its id");
	got = ms_store_patchids_find(p, ids[1]);
	ok(got && !*got->patch_id &&
	   !strcmp(got->summary, "merge: nothing changed"),
	   "the second: no patch-id");
	ok(!ms_store_patchids_find(p, "0123456789abcdef0123456789abcdef"
				   "01234568"), "another id: none");
	ok(!ms_store_patchids_find(p, "0123"), "a short id: none");
	ok(!ms_store_patchids_find(p, "0123456789abcdef0123456789abcdef"
				   "0123456g"), "a non-hex id: none");
	ms_store_patchids_free(p);
	ms_store_patchids_free(NULL);
	ms_store_free(s);
	g_free(db);
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-store-XXXXXX", NULL);
	char *git = g_build_filename(dir, "repo.git", NULL);
	struct ms_walk_opts o = { 0 };
	struct ms_store *s = NULL;
	char *cmd, *db;

	ok(history_repo_make(git) == 0, "git init and fast-import");

	compare(dir, git, "plain walk", &o, 0);
	o.flags = MS_WALK_MERGES;
	compare(dir, git, "--merges", &o, 0);
	o.flags = MS_WALK_NO_PATHS;
	o.rev = "main~1";
	compare(dir, git, "no paths, from main~1", &o, 0);
	o = (struct ms_walk_opts){ 0 };
	o.prepare = prepare;
	o.release = release;
	compare(dir, git, "prepare on worker threads", &o, 0);
	o.flags = MS_WALK_NO_PATHS;
	compare(dir, git, "prepare sees no paths with NO_PATHS", &o, 0);
	o.flags = 0;
	o.nr_threads = 1;
	compare(dir, git, "stopped by the callback (release frees the rest)",
		&o, 2);

	/* A commit whose tree is missing, as in a partial mirror: its
	 * record stays incomplete and is extracted again each time. */
	cmd = g_strdup_printf(
		"cd '%s' && c=$(printf 'tree %s\\nparent %%s\\n"
		"author A <a@x> 1600000500 +0000\\n"
		"committer A <a@x> 1600000500 +0000\\n\\nbroken\\n' "
		"$(git --git-dir='%s' rev-parse main) | "
		"git --git-dir='%s' hash-object -t commit -w --literally "
		"--stdin) && git --git-dir='%s' update-ref refs/heads/broken "
		"$c", dir, "1234567890123456789012345678901234567890", git,
		git, git);
	ok(sh(cmd) == 0, "write a commit with a missing tree");
	g_free(cmd);
	o = (struct ms_walk_opts){ 0 };
	o.rev = "broken";
	compare(dir, git, "a missing tree", &o, 0);

	/* A commit whose parent is missing: the walk falls back to git's
	 * own revwalk, which reports the history as ending early. */
	cmd = g_strdup_printf(
		"cd '%s' && c=$(printf 'tree %%s\\nparent %s\\n"
		"author A <a@x> 1600000600 +0000\\n"
		"committer A <a@x> 1600000600 +0000\\n\\norphan\\n' "
		"$(git --git-dir='%s' rev-parse main^{tree}) | "
		"git --git-dir='%s' hash-object -t commit -w --literally "
		"--stdin) && git --git-dir='%s' update-ref refs/heads/orphan "
		"$c", dir, "abcdefabcdefabcdefabcdefabcdefabcdefabcd", git,
		git, git);
	ok(sh(cmd) == 0, "write a commit with a missing parent");
	g_free(cmd);
	o.rev = "orphan";
	compare(dir, git, "a missing parent", &o, 0);

	test_mail_replay(dir);
	test_patchids(dir);

	/* errors are ms_history_walk()'s */
	db = g_build_filename(dir, "e.sqlite", NULL);
	ok(ms_store_open(db, NULL, &s, NULL) == 0, "open a store");
	o.rev = "nosuch";
	is_int(ms_store_history_walk(s, git, &o, NULL, NULL), MS_EBADREV,
	       "unknown revision: MS_EBADREV");
	is_str(ms_error_last(), "unknown revision 'nosuch'",
	       "... with the walk's message");
	ms_store_free(s);
	g_free(db);
	db = g_build_filename(dir, "repo.git", "HEAD", "x.sqlite", NULL);
	is_int(ms_store_open(db, NULL, &s, NULL), MS_ERROR,
	       "a store below a file: MS_ERROR");
	ok(strstr(ms_error_last(), "cannot create directory") != NULL,
	   "... saying why: %s", ms_error_last());
	g_free(db);

	cmd = g_strdup_printf("rm -rf '%s'", dir);
	sh(cmd);
	g_free(cmd);
	g_free(git);
	g_free(dir);
	return test_done();
}
