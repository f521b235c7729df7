/*
 * test-history.c - the history walk on the small repository of
 * history-repo.h: commit order, merges, signatures (missing email,
 * Latin-1 name, offsets), trailers, touched paths, and a commit whose
 * tree is missing (a partial mirror).
 */
#include "test.h"
#include "history.h"
#include "history-repo.h"

#include <glib.h>
#include <glib/gstdio.h>

struct seen {
	GPtrArray *ids;      /* first char of subject marks... just ids */
	GPtrArray *lines;    /* one summary line per commit */
};

static int collect(const struct ms_commit *c, void *data)
{
	struct seen *s = data;
	GString *l = g_string_new(NULL);

	g_string_append_printf(l, "%s <%s> %lld %d | %s <%s> %d |",
			       c->author.name, c->author.email,
			       (long long)c->author.time, c->author.offset,
			       c->committer.name, c->committer.email,
			       c->committer.offset);
	for (size_t i = 0; i < c->nr_paths; i++)
		g_string_append_printf(l, " %s", c->paths[i]);
	g_string_append(l, " |");
	for (size_t i = 0; i < c->nr_trailers; i++)
		g_string_append_printf(l, " %s=%s/%s", c->trailers[i].token,
				       c->trailers[i].name ?
				       c->trailers[i].name : "-",
				       c->trailers[i].email ?
				       c->trailers[i].email : "-");
	if (c->incomplete)
		g_string_append(l, " INCOMPLETE");
	g_ptr_array_add(s->lines, g_string_free(l, FALSE));
	g_ptr_array_add(s->ids, g_strdup(c->id));
	return 0;
}

static void *prepare(const struct ms_commit *c, void *data)
{
	(void)data;
	return g_strdup_printf("%zu", c->nr_paths);
}

static int count_prepared(const struct ms_commit *c, void *data)
{
	int *n = data;

	if (c->user && atoi(c->user) == (int)c->nr_paths)
		(*n)++;
	g_free(c->user);
	return 0;
}

static int stop_after_two(const struct ms_commit *c, void *data)
{
	int *n = data;

	g_free(c->user);
	return ++*n == 2 ? 42 : 0;
}

static void release(void *user, void *data)
{
	(void)data;
	g_free(user);
}

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return rc == 0 ? 0 : -1;
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-history-XXXXXX", NULL);
	char *git = g_build_filename(dir, "repo.git", NULL);
	char *cmd;
	struct seen s = { g_ptr_array_new_with_free_func(g_free),
			  g_ptr_array_new_with_free_func(g_free) };
	struct ms_walk_opts opts = { 0 };
	struct ms_walk_stats st;
	struct ms_diags diags = MS_DIAGS_INIT;
	char id[41];
	int64_t t;
	int rc, n;

	ok(history_repo_make(git) == 0, "git init and fast-import");

	opts.fn = collect;
	opts.data = &s;
	rc = ms_history_walk(git, &opts, &st, &diags);
	is_int(rc, 0, "walk without merges");
	is_int(st.walked, 5, "five commits walked");
	is_int(st.delivered, 4, "four delivered");
	is_int(st.merges, 1, "one merge skipped");
	is_int(diags.nr, 0, "no diagnostics");
	is_int(s.lines->len, 4, "four lines");
	if (s.lines->len == 4) {
		is_str(s.lines->pdata[0],
		       "Alice Root <alice@example.org> 1600000400 0 | "
		       "Alice Root <alice@example.org> 0 | README docs/README "
		       "|", "newest: file moved into a directory");
		is_str(s.lines->pdata[1],
		       "Ren\xc3\xa9 Latin <rene@example.org> 1600000200 0 | "
		       "Ren\xc3\xa9 Latin <rene@example.org> 0 | lib/x.c |",
		       "Latin-1 name converted, empty message");
		is_str(s.lines->pdata[2],
		       "Nobody <> 1600000100 90 | Carol Commit "
		       "<carol@example.org> -420 | drivers/net/a.c | "
		       "Reviewed-by=Rita Review/rita@example.org "
		       "acked-by=Bob/BOB@Example.org "
		       "Cc=-/stable@vger.kernel.org Link=-/- "
		       "Signed-off-by=Carol Commit/carol@example.org",
		       "missing email, offsets, trailers");
		is_str(s.lines->pdata[3],
		       "Alice Root <alice@example.org> 1600000000 0 | "
		       "Alice Root <alice@example.org> 0 | README "
		       "drivers/net/a.c | Signed-off-by=Alice Root/"
		       "alice@example.org", "root commit lists every file");
	}

	g_ptr_array_set_size(s.lines, 0);
	opts.flags = MS_WALK_MERGES;
	rc = ms_history_walk(git, &opts, &st, NULL);
	is_int(st.delivered, 5, "--merges delivers the merge");
	if (s.lines->len == 5)
		ok(g_str_has_suffix(s.lines->pdata[1], "| lib/x.c |"),
		   "a merge is diffed against its first parent");

	n = 0;
	opts.flags = 0;
	opts.nr_threads = 1;
	opts.prepare = prepare;
	opts.fn = count_prepared;
	opts.data = &n;
	rc = ms_history_walk(git, &opts, NULL, NULL);
	is_int(n, 4, "prepare runs on every delivered commit");

	n = 0;
	opts.nr_threads = 0;
	opts.fn = stop_after_two;
	opts.release = release;
	rc = ms_history_walk(git, &opts, NULL, NULL);
	is_int(rc, 42, "a nonzero callback return stops the walk");

	g_ptr_array_set_size(s.lines, 0);
	opts = (struct ms_walk_opts){ 0 };
	opts.fn = collect;
	opts.data = &s;
	opts.rev = "main~1";
	opts.flags = MS_WALK_NO_PATHS;
	rc = ms_history_walk(git, &opts, &st, NULL);
	is_int(rc, 0, "walk from a revision");
	is_int(st.walked, 4, "main~1 has four commits");
	if (s.lines->len == 3)
		ok(strstr(s.lines->pdata[0], "| |") != NULL,
		   "no paths with MS_WALK_NO_PATHS");

	/* A commit whose tree is missing, as in a partial mirror. */
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
	g_ptr_array_set_size(s.lines, 0);
	opts = (struct ms_walk_opts){ 0 };
	opts.fn = collect;
	opts.data = &s;
	opts.rev = "broken";
	rc = ms_history_walk(git, &opts, &st, &diags);
	is_int(rc, 0, "a missing tree does not stop the walk");
	is_int(st.delivered, 5, "every commit still delivered");
	is_int(st.incomplete, 1, "one commit incomplete");
	is_int(diags.nr, 1, "one warning");
	if (diags.nr)
		ok(strstr(diags.items[0].message, "1 commit had objects "
			  "missing") != NULL, diags.items[0].message);
	if (s.lines->len)
		ok(g_str_has_suffix(s.lines->pdata[0], "INCOMPLETE"),
		   "the broken commit is marked incomplete");
	ms_diags_release(&diags);

	rc = ms_history_resolve(git, "main~2", id, &t);
	is_int(rc, 0, "resolve main~2");
	is_int(t, 1600000100, "its commit date");
	rc = ms_history_resolve(git, "nosuchrev", id, &t);
	is_int(rc, MS_EBADREV, "unknown revision");
	is_str(ms_error_last(), "unknown revision 'nosuchrev'",
	       "unknown revision message");
	rc = ms_history_resolve(dir, NULL, id, &t);
	is_int(rc, MS_ENOTFOUND, "not a repository");
	ok(strstr(ms_error_last(), "not a git repository") != NULL,
	   ms_error_last());

	{
		char *buf;
		size_t len;

		rc = ms_history_read_file(git, "main", "docs/README", &buf,
					  &len);
		is_int(rc, 0, "read a file of a revision");
		is_str(buf, "hello\n", "its content");
		g_free(buf);
		rc = ms_history_read_file(git, "main", "README", &buf, &len);
		is_int(rc, MS_ENOTFOUND, "a file the revision lacks");
		rc = ms_history_read_file(git, "nosuchrev", "docs/README",
					  &buf, &len);
		is_int(rc, MS_EBADREV, "a file of an unknown revision: "
		       "MS_EBADREV, not a missing file");
	}

	cmd = g_strdup_printf("git init -q --bare '%s/empty.git'", dir);
	sh(cmd);
	g_free(cmd);
	cmd = g_strdup_printf("%s/empty.git", dir);
	opts = (struct ms_walk_opts){ 0 };
	rc = ms_history_walk(cmd, &opts, NULL, NULL);
	is_int(rc, MS_EBADREV, "an empty repository: its HEAD names no commit");
	ok(strstr(ms_error_last(), "has no commits") != NULL,
	   ms_error_last());
	g_free(cmd);

	cmd = g_strdup_printf("rm -rf '%s'", dir);
	sh(cmd);
	g_free(cmd);
	g_ptr_array_free(s.lines, TRUE);
	g_ptr_array_free(s.ids, TRUE);
	g_free(git);
	g_free(dir);
	return test_done();
}
