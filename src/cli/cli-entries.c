/*
 * cli-entries.c - choosing MAINTAINERS entries on the command line, the
 * same way in every command that takes ENTRY arguments: a name matches
 * exactly, else case-insensitively, else as the one entry it is a prefix
 * of, else as the one entry it is a substring of; --file PATH adds the
 * entries of a path; anything else is a usage error that proposes up to
 * five names (the entries the name is part of, else those sharing the
 * most distinctive words with it, else the nearest by edit distance).
 */
#include "person.h"
#include "cli.h"
#include "maintainers.h"

#include <glib.h>
#include <string.h>

#define MAX_SUGGESTIONS 5

size_t cli_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *prev = g_new(size_t, lb + 1), *cur = g_new(size_t, lb + 1);
	size_t d;

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = MIN(sub, MIN(del, ins));
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	g_free(prev);
	g_free(cur);
	return d;
}

/*
 * How far the folded name `want` is from the folded entry name `have`:
 * the nearest of the whole name and each of its words, so that "erofz"
 * is 1 from "erofs file system" and 3 from "kernfs".
 */
static size_t name_distance(const char *have, const char *want)
{
	char **words = g_regex_split_simple("[^[:alnum:]]+", have, 0, 0);
	size_t d = cli_distance(have, want);

	for (char **w = words; *w; w++)
		if (**w)
			d = MIN(d, cli_distance(*w, want));
	g_strfreev(words);
	return d;
}

struct cand {
	const struct maint_entry *e;
	size_t score;
};

/* Words of entry names too common to tell entries apart. */
static bool generic_word(const char *w)
{
	static const char *const words[] = {
		"driver", "drivers", "support", "subsystem", "and", "the",
		"for", "core", "framework", "interface", "device", "devices",
	};

	if (strlen(w) < 3)
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(words); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/* How many distinctive words of the folded name `want` are words of the
 * folded name `have` ("mlx5 core vdpa driver" and "mellanox mlx5 core
 * vpi driver" share one: mlx5). */
static size_t shared_words(const char *have, const char *want)
{
	char **hw = g_regex_split_simple("[^[:alnum:]]+", have, 0, 0);
	char **ww = g_regex_split_simple("[^[:alnum:]]+", want, 0, 0);
	size_t n = 0;

	for (char **w = ww; *w; w++) {
		if (generic_word(*w))
			continue;
		for (char **h = hw; *h; h++)
			if (!strcmp(*h, *w)) {
				n++;
				break;
			}
	}
	g_strfreev(hw);
	g_strfreev(ww);
	return n;
}

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->e->index < y->e->index ? -1 : x->e->index > y->e->index;
}

/*
 * The entry `name` designates, or NULL with the candidates (up to
 * MAX_SUGGESTIONS) in `sugg` and *ambiguous set when several entries
 * matched as well as each other.
 */
static const struct maint_entry *resolve(const struct maint_file *mf,
					 const char *name, GPtrArray *sugg,
					 bool *ambiguous)
{
	const struct maint_entry *e = maint_file_find(mf, name);
	size_t n = maint_file_nr_entries(mf);
	char *want = ms_casefold(name, -1);
	GArray *exact = g_array_new(FALSE, FALSE, sizeof(struct cand));
	GArray *prefix = g_array_new(FALSE, FALSE, sizeof(struct cand));
	GArray *sub = g_array_new(FALSE, FALSE, sizeof(struct cand));
	GArray *near = g_array_new(FALSE, FALSE, sizeof(struct cand));
	GArray *words = g_array_new(FALSE, FALSE, sizeof(struct cand));
	GArray *pick = NULL;

	*ambiguous = false;
	if (e)
		goto done;
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *x = maint_file_entry(mf, i);
		char *have = ms_casefold(x->name, -1);
		struct cand c = { x, 0 };
		size_t shared;

		if (!strcmp(have, want))
			g_array_append_val(exact, c);
		else if (g_str_has_prefix(have, want))
			g_array_append_val(prefix, c);
		else if (*want && strstr(have, want))
			g_array_append_val(sub, c);
		c.score = name_distance(have, want);
		g_array_append_val(near, c);
		shared = shared_words(have, want);
		if (shared) {
			/* most shared words first, then the nearer */
			c.score += SIZE_MAX / 2 - shared * 4096;
			g_array_append_val(words, c);
		}
		g_free(have);
	}
	if (exact->len)
		pick = exact;
	else if (prefix->len)
		pick = prefix;
	else if (sub->len)
		pick = sub;
	if (pick && pick->len == 1) {
		e = g_array_index(pick, struct cand, 0).e;
		goto done;
	}
	if (pick) {
		*ambiguous = true;
		for (guint i = 0; i < pick->len && sugg->len < MAX_SUGGESTIONS;
		     i++)
			g_ptr_array_add(sugg, (gpointer)
					g_array_index(pick, struct cand, i).e);
		goto done;
	}
	/* nothing contains the name: those sharing its words, else the
	 * nearest names, if near at all */
	g_array_sort(words, cmp_cand);
	for (guint i = 0; i < words->len && sugg->len < MAX_SUGGESTIONS; i++)
		g_ptr_array_add(sugg, (gpointer)
				g_array_index(words, struct cand, i).e);
	g_array_sort(near, cmp_cand);
	for (guint i = 0; !words->len && i < near->len &&
	     sugg->len < MAX_SUGGESTIONS; i++) {
		const struct cand *c = &g_array_index(near, struct cand, i);

		/* near at all, and about as near as the nearest */
		if (c->score > MAX(3, strlen(want) / 2) ||
		    c->score > g_array_index(near, struct cand, 0).score + 1)
			break;
		g_ptr_array_add(sugg, (gpointer)c->e);
	}
done:
	g_free(want);
	g_array_free(exact, TRUE);
	g_array_free(prefix, TRUE);
	g_array_free(sub, TRUE);
	g_array_free(near, TRUE);
	g_array_free(words, TRUE);
	return e;
}

static void add_unique(GPtrArray *sel, GHashTable *seen,
		       const struct maint_entry *e)
{
	if (g_hash_table_contains(seen, e))
		return;
	g_hash_table_add(seen, (gpointer)e);
	g_ptr_array_add(sel, (gpointer)e);
}

int cli_select_entries(const char *cmd, const struct maint_file *mf,
		       const struct maint_index *idx, int argc, char **argv,
		       const struct cli_strings *files,
		       const struct maint_entry ***out, size_t *nr)
{
	GPtrArray *sel = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	int rc = CLI_CONTINUE;

	*out = NULL;
	*nr = 0;
	for (int i = 0; i < argc && rc == CLI_CONTINUE; i++) {
		GPtrArray *sugg = g_ptr_array_new();
		bool ambiguous;
		const struct maint_entry *e = resolve(mf, argv[i], sugg,
						      &ambiguous);

		if (e) {
			add_unique(sel, seen, e);
		} else {
			GString *msg = g_string_new(NULL);

			g_string_append_printf(msg, ambiguous ?
					       "entry name '%s' is ambiguous" :
					       "no entry '%s' in MAINTAINERS",
					       argv[i]);
			/* "--archive *.mbox": the shell gave the rest as
			 * entry names */
			if (!ambiguous && !sugg->len &&
			    g_file_test(argv[i], G_FILE_TEST_EXISTS))
				g_string_append(msg, " (a file: each archive "
						"takes its own --archive)");
			if (sugg->len)
				g_string_append(msg, "; did you mean:");
			for (guint k = 0; k < sugg->len; k++)
				g_string_append_printf(msg, "\n\t%s",
					((const struct maint_entry *)
					 sugg->pdata[k])->name);
			rc = cli_usage_error(cmd, "%s", msg->str);
			g_string_free(msg, TRUE);
		}
		g_ptr_array_free(sugg, TRUE);
	}
	for (int i = 0; files && i < files->nr && rc == CLI_CONTINUE; i++) {
		const char *p = files->items[i];
		struct maint_match local[64], *m = local;
		size_t n;

		if (!idx) {
			rc = cli_usage_error(cmd, "--file needs the tree's "
					     "MAINTAINERS index");
			break;
		}
		n = maint_index_match_depth(idx, p, local, 64);
		if (n > 64) {
			m = g_new(struct maint_match, n);
			maint_index_match_depth(idx, p, m, n);
		}
		if (!n)
			rc = cli_usage_error(cmd, "no entry matches the path "
					     "'%s'", p);
		for (size_t k = 0; k < n; k++)
			add_unique(sel, seen, m[k].entry);
		if (m != local)
			g_free(m);
	}
	g_hash_table_destroy(seen);
	if (rc != CLI_CONTINUE || !sel->len) {
		g_ptr_array_free(sel, TRUE);
		return rc;
	}
	*nr = sel->len;
	*out = (const struct maint_entry **)g_ptr_array_free(sel, FALSE);
	return rc;
}
