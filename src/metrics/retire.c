/*
 * retire.c - writing the retire series: MAINTAINERS and CREDITS edited
 * patch after patch.
 */
#include "retire.h"
#include "activity.h"
#include "credits.h"
#include "diff.h"
#include "maintainers.h"
#include "person.h"

#include <string.h>

char *retire_slug(const char *subject)
{
	GString *s = g_string_new(NULL);
	bool dash = false;

	for (const char *p = subject; *p && s->len < 52; p++) {
		unsigned char c = (unsigned char)*p;

		if (g_ascii_isalnum(c) || c == '.' || c == '_') {
			if (dash && s->len)
				g_string_append_c(s, '-');
			dash = false;
			g_string_append_c(s, (char)c);
		} else {
			dash = true;
		}
	}
	while (s->len && (s->str[s->len - 1] == '.' ||
			  s->str[s->len - 1] == '-'))
		g_string_truncate(s, s->len - 1);
	if (!s->len)
		g_string_append(s, "patch");
	return g_string_free(s, FALSE);
}

char *retire_wrap(const char *text, size_t width)
{
	GString *out = g_string_new(NULL);
	char **paras = g_strsplit(text, "\n\n", -1);

	for (char **p = paras; *p; p++) {
		char **words = g_strsplit_set(*p, " \n", -1);
		size_t col = 0;

		if (p != paras)
			g_string_append(out, "\n\n");
		for (char **w = words; *w; w++) {
			size_t n = g_utf8_strlen(*w, -1);

			if (!n)
				continue;
			if (col && col + 1 + n > width) {
				g_string_append_c(out, '\n');
				col = 0;
			} else if (col) {
				g_string_append_c(out, ' ');
				col++;
			}
			g_string_append(out, *w);
			col += n;
		}
		g_strfreev(words);
	}
	g_strfreev(paras);
	return g_string_free(out, FALSE);
}

char *retire_short_name(const char *entry)
{
	GString *s = g_string_new(NULL);
	int depth = 0;

	/* "ARM/Allwinner sunXi SoC support (xyz)": drop parentheses */
	for (const char *p = entry; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth)
			g_string_append_c(s, *p);
	}
	g_strstrip(s->str);
	g_string_set_size(s, strlen(s->str));
	if (!s->len)
		g_string_assign(s, entry);
	if (g_utf8_strlen(s->str, -1) > 40) {
		char *cut = g_utf8_offset_to_pointer(s->str, 40);
		char *space;

		*cut = '\0';
		space = strrchr(s->str, ' ');
		if (space && space - s->str > 20)
			*space = '\0';
		g_string_set_size(s, strlen(s->str));
	}
	return g_string_free(s, FALSE);
}

static char *norm(const char *email, bool fold)
{
	return email ? ms_email_normalize(email, fold) : NULL;
}

static const char *display(const struct retire_person *p)
{
	return p->name && *p->name ? p->name : p->email;
}

/* Does any M:/R: line of `mf` name this address? */
static bool still_listed(const struct maint_file *mf, const char *email,
			 bool fold)
{
	bool found = false;

	for (size_t i = 0; i < maint_file_nr_entries(mf) && !found; i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t k = 0; k < e->nr_fields && !found; k++) {
			char *n, *m, *x;

			if (e->fields[k].key != 'M' && e->fields[k].key != 'R')
				continue;
			maint_parse_person(e->fields[k].value, &n, &m);
			x = norm(m, fold);
			found = x && !strcmp(x, email);
			g_free(n);
			g_free(m);
			g_free(x);
		}
	}
	return found;
}

static const struct maint_field *find_field(const struct maint_entry *e,
					    const struct retire_person *p,
					    bool fold)
{
	char *want = norm(p->email, fold);
	const struct maint_field *f = NULL;

	for (size_t k = 0; k < e->nr_fields && !f; k++) {
		char *n, *m, *x;

		if (e->fields[k].key != p->role)
			continue;
		maint_parse_person(e->fields[k].value, &n, &m);
		x = norm(m, fold);
		if (want ? (x && !strcmp(x, want)) :
		    (n && p->name && !strcmp(n, p->name)))
			f = &e->fields[k];
		g_free(n);
		g_free(m);
		g_free(x);
	}
	g_free(want);
	return f;
}

/* "A", "A and B", "A, B and C" */
static void append_names(GString *s, GPtrArray *names)
{
	for (guint i = 0; i < names->len; i++) {
		if (i)
			g_string_append(s, i + 1 == names->len ? " and " :
					", ");
		g_string_append(s, names->pdata[i]);
	}
}

/* The names' last words: "Ann Example" -> "Example". */
static GPtrArray *surnames(GPtrArray *names)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < names->len; i++) {
		const char *n = names->pdata[i];
		const char *sp = strrchr(n, ' ');

		g_ptr_array_add(out, g_strdup(sp && sp[1] && !strchr(n, '@') ?
					      sp + 1 : n));
	}
	return out;
}

static void subject_form(GString *subj, const char *short_name,
			 GPtrArray *moved, GPtrArray *removed,
			 GPtrArray *reviewers)
{
	g_string_printf(subj, "MAINTAINERS: %s: ", short_name);
	if (moved->len) {
		g_string_append(subj, "move ");
		append_names(subj, moved);
		g_string_append(subj, " to CREDITS");
	}
	if (removed->len) {
		g_string_append(subj, moved->len ? ", remove " : "remove ");
		append_names(subj, removed);
	}
	if (reviewers->len) {
		g_string_append(subj, moved->len || removed->len ?
				", remove " : "remove ");
		append_names(subj, reviewers);
		g_string_append(subj, " from reviewers");
	}
}

#define SUBJECT_MAX 75

/*
 * The subject within SUBJECT_MAX characters: full names, else surnames,
 * else a count, else the entry's name cut.
 */
static void fit_subject(GString *subj, const char *short_name,
			GPtrArray *moved, GPtrArray *removed,
			GPtrArray *reviewers)
{
	GPtrArray *m, *r, *v;
	size_t n = moved->len + removed->len + reviewers->len;
	char *name;

	subject_form(subj, short_name, moved, removed, reviewers);
	if (g_utf8_strlen(subj->str, -1) <= SUBJECT_MAX)
		return;
	m = surnames(moved);
	r = surnames(removed);
	v = surnames(reviewers);
	subject_form(subj, short_name, m, r, v);
	g_ptr_array_free(m, TRUE);
	g_ptr_array_free(r, TRUE);
	g_ptr_array_free(v, TRUE);
	if (g_utf8_strlen(subj->str, -1) <= SUBJECT_MAX)
		return;
	name = g_strdup(short_name);
	for (;;) {
		g_string_printf(subj, "MAINTAINERS: %s: retire %zu inactive "
				"%s", name, n, n == 1 ? "person" : "people");
		if (g_utf8_strlen(subj->str, -1) <= SUBJECT_MAX ||
		    !*name)
			break;
		*g_utf8_offset_to_pointer(name, g_utf8_strlen(name, -1) - 1)
			= '\0';
		g_strchomp(name);
	}
	g_free(name);
}

/*
 * Add "Cc: [name] <address>" to `ccs` unless the address, in lowercase
 * and with user+tag folded when `fold`, is in `seen`.
 */
static void add_cc(GArray *ccs, GHashTable *seen, const char *name,
		   const char *address, const struct retire_person *who,
		   bool last_used, bool fold)
{
	struct retire_cc cc = { 0 };
	char *key = norm(address, fold);

	if (g_hash_table_contains(seen, key)) {
		g_free(key);
		return;
	}
	g_hash_table_add(seen, key);
	cc.line = name && *name ? g_strdup_printf("%s <%s>", name, address) :
		  g_strdup(address);
	cc.address = g_strdup(address);
	cc.who = who;
	cc.last_used = last_used;
	g_array_append_val(ccs, cc);
}

/*
 * The Cc: lines of a patch: the people it removes (at the listed address,
 * and at the one they used last when it is another) and the entry's lists.
 */
static GArray *patch_cc(const struct maint_entry *e, GPtrArray *found,
			bool fold)
{
	GArray *ccs = g_array_new(FALSE, TRUE, sizeof(struct retire_cc));
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);

	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];

		if (rp->email)
			add_cc(ccs, seen, rp->name, rp->email, rp, false, fold);
		/* a no-op when it is the listed one, as the model compares
		 * addresses */
		if (rp->last_email && *rp->last_email)
			add_cc(ccs, seen, rp->name, rp->last_email, rp, true,
			       fold);
	}
	for (size_t k = 0; k < e->nr_fields; k++) {
		char *name = NULL, *email = NULL;

		if (e->fields[k].key != 'L')
			continue;
		maint_parse_person(e->fields[k].value, &name, &email);
		if (email && *email)
			add_cc(ccs, seen, NULL, email, NULL, false, fold);
		g_free(name);
		g_free(email);
	}
	g_hash_table_destroy(seen);
	return ccs;
}

static void cc_free(struct retire_cc *cc, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		g_free(cc[i].line);
		g_free(cc[i].address);
	}
	g_free(cc);
}

/*
 * Rewrite `text` without the lines in `drop` (1-based line numbers, in a
 * hash set), with entry `e`'s S: set to Orphan when `orphan`.
 */
static char *edit_text(const char *text, GHashTable *drop,
		       const struct maint_entry *e, bool orphan)
{
	GString *out = g_string_new(NULL);
	unsigned line = 0, last_kept_people = e->line, s_line = 0;
	size_t pos = 0, len = strlen(text);

	for (size_t k = 0; k < e->nr_fields; k++) {
		const struct maint_field *f = &e->fields[k];

		if (f->key == 'S' && !s_line)
			s_line = f->line;
		if (strchr("MRL", f->key) &&
		    !g_hash_table_contains(drop, GUINT_TO_POINTER(f->line)))
			last_kept_people = f->line;
	}
	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - pos;

		line++;
		pos += n;
		if (g_hash_table_contains(drop, GUINT_TO_POINTER(line)))
			continue;
		if (orphan && line == s_line) {
			g_string_append(out, "S:\tOrphan\n");
			continue;
		}
		g_string_append_len(out, l, (gssize)n);
		if (orphan && !s_line && line == last_kept_people)
			g_string_append(out, "S:\tOrphan\n");
	}
	return g_string_free(out, FALSE);
}

static void patch_free(struct retire_patch *p)
{
	g_free(p->file_name);
	g_free(p->subject);
	g_free(p->people);
	cc_free(p->cc, p->nr_cc);
	if (p->text)
		g_string_free(p->text, TRUE);
}

void retire_series_free(struct retire_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		patch_free(&s->patches[i]);
	g_free(s->patches);
	g_free(s->maintainers);
	g_free(s->credits);
	g_free(s);
}

struct pending {
	const char *entry;
	char *subject;
	char *body;
	char *old_m, *new_m, *old_c, *new_c;
	bool credits_changed, orphaned;
	GPtrArray *people;        /* struct retire_person *, borrowed */
	GArray *cc;               /* struct retire_cc, or NULL once given
				   * to the patch */
};

static void pending_free(gpointer p)
{
	struct pending *x = p;

	if (x->people)
		g_ptr_array_free(x->people, TRUE);
	if (x->cc) {
		size_t n = x->cc->len;

		cc_free((struct retire_cc *)(void *)g_array_free(x->cc, FALSE),
			n);
	}
	g_free(x->subject);
	g_free(x->body);
	g_free(x->old_m);
	g_free(x->new_m);
	g_free(x->old_c);
	g_free(x->new_c);
	g_free(x);
}

static void free_ptr_array(gpointer p)
{
	g_ptr_array_free(p, TRUE);
}

/*
 * Sort the people `found` in entry `entry` into reviewers, maintainers
 * moved to CREDITS (*new_c edited; none still listed elsewhere in
 * `after`) and maintainers only removed.  `left` collects, per address,
 * every entry a maintainer left so far in the series.
 */
static void sort_people(GPtrArray *found, const char *entry,
			const struct maint_file *after, GHashTable *left,
			bool plus_fold, char **new_c, struct pending *p,
			GPtrArray *moved, GPtrArray *removed,
			GPtrArray *reviewers)
{
	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];
		char *key = norm(rp->email, plus_fold);
		GPtrArray *entries;

		if (rp->role == 'R') {
			g_ptr_array_add(reviewers,
					(gpointer)display(rp));
			g_free(key);
			continue;
		}
		if (!key || !*new_c) {
			g_ptr_array_add(removed, (gpointer)display(rp));
			g_free(key);
			continue;
		}
		entries = g_hash_table_lookup(left, key);
		if (!entries) {
			entries = g_ptr_array_new_with_free_func(
				g_free);
			g_hash_table_insert(left, g_strdup(key),
					    entries);
		}
		g_ptr_array_add(entries, g_strdup(entry));
		if (still_listed(after, key, plus_fold)) {
			g_ptr_array_add(removed, (gpointer)display(rp));
		} else {
			for (guint d = 0; d < entries->len; d++) {
				char *c = credits_add(
					*new_c, display(rp), rp->email,
					rp->also, entries->pdata[d]);

				g_free(*new_c);
				*new_c = c;
			}
			g_ptr_array_add(moved, (gpointer)display(rp));
			p->credits_changed = true;
		}
		g_free(key);
	}

}

/*
 * The commit message of the patch for plan `pl` after its subject, with
 * the Cc: lines `ccs`.
 */
static char *commit_body(const struct retire_plan *pl, GPtrArray *found,
			 const struct pending *p, GPtrArray *moved,
			 GArray *ccs, const struct retire_opts *opts)
{
	GString *body;

	body = g_string_new(NULL);
	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];

		g_string_append_printf(body, "%s%s, listed as %s of "
				       "%s, has %s.", k ? " " : "",
				       display(rp),
				       rp->role == 'M' ? "maintainer" :
				       "reviewer", pl->entry,
				       rp->why ? rp->why :
				       "been inactive");
		for (guint c = 0; c < ccs->len; c++) {
			const struct retire_cc *cc =
				&g_array_index(ccs, struct retire_cc, c);
			char date[32];

			if (cc->who != rp || !cc->last_used)
				continue;
			ms_act_format(rp->last_time, 0, false, true, date);
			g_string_append_printf(body, " %s is also Cc'd at %s, "
					       "the address last used on %s",
					       display(rp), cc->address, date);
			if (rp->last_commit && *rp->last_commit)
				g_string_append_printf(body, " (commit %.12s)",
						       rp->last_commit);
			g_string_append_c(body, '.');
		}
	}
	if (p->orphaned)
		g_string_append(body, " No maintainer remains, so the "
				"entry becomes Orphan.");
	if (moved->len)
		g_string_append(body, " Thank you for your work; "
				"CREDITS keeps it on record.");
	{
		char *w = retire_wrap(body->str, 72);

		g_string_assign(body, w);
		g_free(w);
	}
	g_string_append(body, "\n\n");
	if (pl->report && *pl->report) {
		g_string_append(body, pl->report);
		if (body->str[body->len - 1] != '\n')
			g_string_append_c(body, '\n');
		g_string_append_c(body, '\n');
	}
	for (guint c = 0; c < ccs->len; c++)
		g_string_append_printf(body, "Cc: %s\n", g_array_index(
			ccs, struct retire_cc, c).line);
	g_string_append_printf(body, "Signed-off-by: %s\n", opts->from);
	return g_string_free(body, FALSE);
}

/* The cover letter, then one patch per entry of `pend`, into `s`. */
static int format_series(struct retire_series *s, GPtrArray *pend,
			 const char *maintainers, const char *credits,
			 const char *cur_m, const char *cur_c,
			 const struct retire_opts *opts)
{
	int rc = 0;

	s->nr = pend->len + 1;
	s->patches = g_new0(struct retire_patch, s->nr);
	for (size_t i = 0; i <= pend->len && rc == 0; i++) {
		struct retire_patch *rp = &s->patches[i];
		struct ms_patch_file files[2];
		struct ms_patch mp = { 0 };

		mp.from = opts->from;
		mp.date = opts->date;
		mp.date_offset = opts->date_offset;
		mp.nr = (unsigned)i;
		mp.total = (unsigned)pend->len;
		mp.files = files;
		if (i == 0) {
			GString *b = g_string_new(opts->cover_intro ?
						  opts->cover_intro : "");

			if (b->len && b->str[b->len - 1] != '\n')
				g_string_append_c(b, '\n');
			g_string_append(b, "\n");
			for (size_t k = 0; k < pend->len; k++) {
				struct pending *p = pend->pdata[k];

				g_string_append_printf(b, "  %s\n", p->subject);
			}
			rp->subject = g_strdup("MAINTAINERS: retire inactive "
					       "maintainers and reviewers");
			mp.subject = rp->subject;
			mp.body = b->str;
			files[0] = (struct ms_patch_file){ "CREDITS",
				credits ? credits : "", cur_c ? cur_c : "" };
			files[1] = (struct ms_patch_file){ "MAINTAINERS",
				maintainers, cur_m };
			mp.nr_files = cur_c ? 2 : 1;
			if (!cur_c)
				files[0] = files[1];
			mp.stat_only = true;
			rp->text = g_string_new(NULL);
			rc = ms_format_patch(&mp, rp->text);
			g_string_free(b, TRUE);
		} else {
			struct pending *p = pend->pdata[i - 1];
			size_t nf = 0;

			if (p->credits_changed)
				files[nf++] = (struct ms_patch_file){
					"CREDITS", p->old_c, p->new_c };
			files[nf++] = (struct ms_patch_file){ "MAINTAINERS",
				p->old_m, p->new_m };
			mp.nr_files = nf;
			rp->entry = p->entry;
			rp->subject = g_strdup(p->subject);
			mp.subject = rp->subject;
			mp.body = p->body;
			rp->credits_changed = p->credits_changed;
			rp->orphaned = p->orphaned;
			rp->nr_people = p->people->len;
			rp->people = (const struct retire_person **)
				g_ptr_array_free(p->people, FALSE);
			p->people = NULL;
			rp->nr_cc = p->cc->len;
			rp->cc = (struct retire_cc *)(void *)
				g_array_free(p->cc, FALSE);
			p->cc = NULL;
			rp->text = g_string_new(NULL);
			rc = ms_format_patch(&mp, rp->text);
		}
		{
			char *slug = retire_slug(rp->subject);

			rp->file_name = g_strdup_printf("%04zu-%s.patch", i,
							i ? slug :
							"cover-letter");
			g_free(slug);
		}
	}
	return rc;
}

int retire_build(const char *maintainers, const char *credits,
		 const struct retire_plan *plans, size_t nr_plans,
		 const struct retire_opts *opts, struct retire_series **out,
		 struct ms_diags *diags)
{
	char *cur_m = g_strdup(maintainers);
	char *cur_c = opts->no_credits ? NULL : g_strdup(credits ? credits :
							  "");
	GHashTable *left = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, free_ptr_array);
	GPtrArray *pend = g_ptr_array_new_with_free_func(pending_free);
	struct retire_series *s = g_new0(struct retire_series, 1);
	int rc = 0;

	*out = NULL;
	for (size_t i = 0; i < nr_plans; i++) {
		const struct retire_plan *pl = &plans[i];
		struct maint_file *mf = maint_file_new();
		struct maint_file *after = NULL;
		const struct maint_entry *e;
		GHashTable *drop = g_hash_table_new(g_direct_hash,
						    g_direct_equal);
		GPtrArray *moved = g_ptr_array_new();
		GPtrArray *removed = g_ptr_array_new();
		GPtrArray *reviewers = g_ptr_array_new();
		GPtrArray *found = g_ptr_array_new();
		struct ms_diags ignore = MS_DIAGS_INIT;
		size_t kept_m = 0;
		struct pending *p;
		char *new_m, *new_c = cur_c ? g_strdup(cur_c) : NULL;
		char *short_name;
		GString *subj;

		maint_file_parse(mf, "MAINTAINERS", cur_m, strlen(cur_m),
				 &ignore);
		e = maint_file_find(mf, pl->entry);
		if (!e) {
			ms_diags_add(diags, NULL, 0, "no entry '%s' in "
				     "MAINTAINERS: skipped", pl->entry);
			goto next;
		}
		for (size_t k = 0; k < pl->nr_people; k++) {
			const struct maint_field *f =
				find_field(e, &pl->people[k], opts->plus_fold);

			if (!f) {
				ms_diags_add(diags, NULL, 0, "entry '%s' has "
					     "no %c: line for '%s': skipped",
					     pl->entry, pl->people[k].role,
					     display(&pl->people[k]));
				continue;
			}
			g_hash_table_add(drop, GUINT_TO_POINTER(f->line));
			g_ptr_array_add(found, &pl->people[k]);
		}
		if (!found->len)
			goto next;
		for (size_t k = 0; k < e->nr_fields; k++)
			if (e->fields[k].key == 'M' &&
			    !g_hash_table_contains(drop, GUINT_TO_POINTER(
				    e->fields[k].line)))
				kept_m++;
		p = g_new0(struct pending, 1);
		p->orphaned = kept_m == 0;
		new_m = edit_text(cur_m, drop, e, p->orphaned);

		after = maint_file_new();
		maint_file_parse(after, "MAINTAINERS", new_m, strlen(new_m),
				 &ignore);
		sort_people(found, pl->entry, after, left, opts->plus_fold,
			    &new_c, p, moved, removed, reviewers);
		short_name = retire_short_name(pl->entry);
		subj = g_string_new(NULL);
		fit_subject(subj, short_name, moved, removed, reviewers);
		p->cc = patch_cc(e, found, opts->plus_fold);
		p->body = commit_body(pl, found, p, moved, p->cc, opts);
		p->people = g_ptr_array_copy(found, NULL, NULL);
		p->entry = pl->entry;
		p->subject = g_string_free(subj, FALSE);
		p->old_m = cur_m;
		p->new_m = g_strdup(new_m);
		p->old_c = cur_c ? g_strdup(cur_c) : NULL;
		p->new_c = new_c ? g_strdup(new_c) : NULL;
		g_ptr_array_add(pend, p);
		cur_m = new_m;
		g_free(cur_c);
		cur_c = new_c;
		new_c = NULL;
		g_free(short_name);
next:
		g_free(new_c);
		ms_diags_release(&ignore);
		g_ptr_array_free(found, TRUE);
		g_ptr_array_free(moved, TRUE);
		g_ptr_array_free(removed, TRUE);
		g_ptr_array_free(reviewers, TRUE);
		g_hash_table_destroy(drop);
		maint_file_free(after);
		maint_file_free(mf);
	}

	rc = format_series(s, pend, maintainers, credits, cur_m, cur_c,
			   opts);
	s->maintainers = cur_m;
	s->credits = cur_c;
	g_ptr_array_free(pend, TRUE);
	g_hash_table_destroy(left);
	if (rc < 0) {
		retire_series_free(s);
		return rc;
	}
	*out = s;
	return 0;
}
