/*
 * recruit.c - the recruit series (recruit.h): proposals from the areas,
 * written with the patch writer retire uses (diff.h's ms_format_patch(),
 * retire.h's subject and wrapping helpers).
 */
#include "recruit.h"
#include "activity.h"
#include "areas.h"
#include "diff.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"
#include "retire.h"
#include "review.h"
#include "verdict.h"

#include <string.h>

/* One proposal: R: lines for an entry, or a new entry for an area. */
struct proposal {
	const struct ms_areas_entry *e;
	const struct ms_area *area;         /* a new entry's */
	GPtrArray *people;                  /* const struct ms_area_person */
	GPtrArray *where;                   /* the area of each */
	GPtrArray *listp;                   /* const struct ms_rv_person:
					       de-facto on the list ... */
	const struct ms_rv_entry *re;       /* ... of the entry's review */
	GPtrArray *also;                    /* ... and in `people` too:
					       their list evidence */
};

static bool kept(const struct recruit_opts *o, const char *who_name,
		 const char *who_email)
{
	char *email = ms_email_normalize(who_email, o->plus_fold);
	char *name = ms_casefold(who_name ? who_name : "", -1);
	bool found = false;

	for (size_t i = 0; i < o->nr_keep && !found; i++)
		found = !strcmp(o->keep[i], email) || !strcmp(o->keep[i], name);
	g_free(email);
	g_free(name);
	return found;
}

static struct proposal *proposal_new(const struct ms_areas_entry *e,
				     const struct ms_area *area)
{
	struct proposal *p = g_new0(struct proposal, 1);

	p->e = e;
	p->area = area;
	p->people = g_ptr_array_new();
	p->where = g_ptr_array_new();
	p->listp = g_ptr_array_new();
	p->also = g_ptr_array_new();
	return p;
}

static void proposal_free(gpointer x)
{
	struct proposal *p = x;

	g_ptr_array_free(p->people, TRUE);
	g_ptr_array_free(p->where, TRUE);
	g_ptr_array_free(p->listp, TRUE);
	g_ptr_array_free(p->also, TRUE);
	g_free(p);
}

/* Whether proposal `p` names `person` already. */
static bool proposes(const struct proposal *p, unsigned person)
{
	for (guint u = 0; u < p->people->len; u++)
		if (((const struct ms_area_person *)p->people->pdata[u])
		    ->person == person)
			return true;
	for (guint u = 0; u < p->listp->len; u++)
		if (((const struct ms_rv_person *)p->listp->pdata[u])
		    ->person == person)
			return true;
	return false;
}

/* The de-facto maintainers on the list of entry `e` (review `re`), into
 * its R: proposal *rp. */
static void list_people(const struct ms_activity *a,
			const struct ms_rv_entry *re,
			const struct ms_areas_entry *e,
			const struct recruit_opts *o, struct proposal **rp,
			size_t *nr_kept)
{
	for (guint i = 0; i < re->others->len; i++) {
		const struct ms_rv_person *p = re->others->pdata[i];

		/* (one listed for its files in another entry, as THE REST's
		 * or an arch's maintainer, is named for them already) */
		if (!ms_rv_defacto(re, p) || (p->person != MS_IDENT_NONE &&
		    ms_areas_listed_in(a, e, p->person)))
			continue;
		if (kept(o, p->name, p->email)) {
			(*nr_kept)++;
			continue;
		}
		if (!*rp)
			*rp = proposal_new(e, NULL);
		(*rp)->re = re;
		/* (de-facto in git too: one R: line, both evidences) */
		g_ptr_array_add(p->person != MS_IDENT_NONE &&
				proposes(*rp, p->person) ? (*rp)->also :
				(*rp)->listp, (gpointer)p);
	}
}

/* The proposals the areas support, R: ones first (entry order). */
static GPtrArray *proposals(const struct ms_activity *a,
			    const struct ms_areas *ar,
			    const struct recruit_opts *o, size_t *nr_kept)
{
	GPtrArray *r = g_ptr_array_new_with_free_func(proposal_free);
	GPtrArray *fresh = g_ptr_array_new();

	for (size_t i = 0; i < ar->nr_entries; i++) {
		const struct ms_areas_entry *e = &ar->entries[i];
		struct proposal *rp = NULL;

		for (size_t k = 0; k < e->nr_areas; k++) {
			const struct ms_area *x = &e->areas[k];
			bool subtree = (x->flags & MS_AREA_UNATTENDED) &&
				e->nr_areas > 1 && g_str_has_suffix(x->path,
								    "/");
			struct proposal *np = NULL;

			bool inner = x->nr_covers && x->covers[0].inner;

			/* the catch-all (THE REST's '*'): no proposal; nor
			 * for an area an inner entry covers (most of): that
			 * entry is where its people belong, and its own
			 * areas propose them, where an R: line here would
			 * Cc them on all of this entry (U-Boot's ARM, for
			 * the imx8ulp/ that ARM FREESCALE IMX covers) */
			if (!(x->flags & MS_AREA_DEFACTO) ||
			    x->path[0] == '*' || (inner && (e->whole_tree ||
			    2 * x->covers[0].commits >= x->commits)))
				continue;
			/* the whole tree's entry (THE REST) gets no R: line
			 * for a part, only a new entry for a top-level
			 * directory no other entry covers from inside */
			subtree = subtree || e->whole_tree;
			for (size_t t = 0; t < x->nr_top; t++) {
				const struct ms_area_person *p = &x->top[t];
				struct proposal *to;
				bool dup = false;

				if (!ms_area_defacto(p))
					continue;
				if (kept(o, p->name, p->email)) {
					(*nr_kept)++;
					continue;
				}
				if (subtree) {
					if (!np)
						np = proposal_new(e, x);
					to = np;
				} else {
					if (!rp)
						rp = proposal_new(e, NULL);
					to = rp;
				}
				for (guint u = 0; u < to->people->len; u++)
					dup = dup || ((const struct
						ms_area_person *)
						to->people->pdata[u])->person ==
						p->person;
				if (dup)
					continue;
				g_ptr_array_add(to->people, (gpointer)p);
				g_ptr_array_add(to->where, (gpointer)x);
			}
			if (np)
				g_ptr_array_add(fresh, np);
		}
		if (o->list && o->list[i] && !e->whole_tree)
			list_people(a, o->list[i], e, o, &rp, nr_kept);
		if (rp)
			g_ptr_array_add(r, rp);
	}
	for (guint i = 0; i < fresh->len; i++)
		g_ptr_array_add(r, fresh->pdata[i]);
	g_ptr_array_free(fresh, TRUE);
	return r;
}

/* `text` with `add` inserted before its line `line` (1-based; past the
 * end: appended). */
static char *insert_at(const char *text, unsigned line, const char *add)
{
	const char *p = text;
	GString *s;

	for (unsigned l = 1; l < line && *p; l++) {
		const char *nl = strchr(p, '\n');

		p = nl ? nl + 1 : p + strlen(p);
	}
	s = g_string_new_len(text, p - text);
	if (s->len && s->str[s->len - 1] != '\n')
		g_string_append_c(s, '\n');
	g_string_append(s, add);
	g_string_append(s, p);
	return g_string_free(s, FALSE);
}

static const struct maint_entry *find_entry(const struct maint_file *mf,
					    const char *name)
{
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++)
		if (!strcmp(maint_file_entry(mf, i)->name, name))
			return maint_file_entry(mf, i);
	return NULL;
}

/* The name of a new entry for area `x` of entry `e`: "ENTRY - dir", or
 * for a top-level directory of the whole tree's entry (THE REST) the
 * directory's name in capitals, as MAINTAINERS names its entries. */
static char *new_name(const struct ms_areas_entry *e, const struct ms_area *x)
{
	char *path = g_strndup(x->path, strlen(x->path) - 1);
	char *n = e->whole_tree ? g_ascii_strup(path, -1) :
		g_strdup_printf("%s - %s", e->entry->name, path);

	g_free(path);
	return n;
}

/*
 * Apply proposal `p` to `text` (the file `path`): the new text, or NULL
 * when its entry is not there.
 */
static char *apply(const struct proposal *p, const char *path,
		   const char *text)
{
	struct maint_file *mf = maint_file_new();
	const struct maint_entry *me;
	GString *add = g_string_new(NULL);
	unsigned line = 0;
	char *r = NULL;

	maint_file_parse(mf, path, text, strlen(text), NULL);
	me = find_entry(mf, p->e->entry->name);
	if (!me)
		goto out;
	for (guint i = 0; i < p->people->len; i++) {
		const struct ms_area_person *x = p->people->pdata[i];
		char *who = ms_person_format(x->name, x->email);

		g_string_append_printf(add, "R:\t%s\n", who);
		g_free(who);
	}
	for (guint i = 0; i < p->listp->len; i++) {
		const struct ms_rv_person *x = p->listp->pdata[i];
		char *who = ms_person_format(x->name, x->email);

		g_string_append_printf(add, "R:\t%s\n", who);
		g_free(who);
	}
	if (!p->area) {
		/* after the entry's last M: or R: line */
		line = me->line + 1;
		for (size_t f = 0; f < me->nr_fields; f++)
			if (me->fields[f].key == 'M' || me->fields[f].key == 'R')
				line = me->fields[f].line + 1;
		r = insert_at(text, line, add->str);
		goto out;
	} else {
		char *name = new_name(p->e, p->area);
		GString *block = g_string_new(name);
		const struct maint_entry *next = NULL;

		g_string_append_c(block, '\n');
		g_string_append(block, add->str);
		for (size_t f = 0; f < me->nr_fields; f++)
			if (me->fields[f].key == 'L' || me->fields[f].key == 'S')
				g_string_append_printf(block, "%c:\t%s\n",
						       me->fields[f].key,
						       me->fields[f].value);
		g_string_append_printf(block, "F:\t%s\n\n", p->area->path);
		/* MAINTAINERS' order: before the first entry after the
		 * parent (for the whole tree's, THE REST, which comes last:
		 * the first entry) whose name sorts after the new one */
		for (size_t i = p->e->whole_tree ? 0 : me->index + 1;
		     i < maint_file_nr_entries(mf); i++) {
			const struct maint_entry *n = maint_file_entry(mf, i);

			if (strcmp(n->name, name) > 0) {
				next = n;
				break;
			}
		}
		if (next) {
			r = insert_at(text, next->line, block->str);
		} else {
			g_string_prepend_c(block, '\n');
			g_string_truncate(block, block->len - 1);
			r = insert_at(text, (unsigned)-1, block->str);
		}
		g_string_free(block, TRUE);
		g_free(name);
	}
out:
	g_string_free(add, TRUE);
	maint_file_free(mf);
	return r;
}

static void day(int64_t t, char buf[32])
{
	ms_act_format(t, 0, false, true, buf);
}

/*
 * The subject, within 75 characters (retire_subject(): the entry's name
 * shortened, never a person's), of proposal `p` to file `path`:
 * "MAINTAINERS: ENTRY: add ...", and in another file, as U-Boot titles
 * changes to its board files, "board: acme: add ..." (with the entry's
 * name when the file holds several: `several`).
 */
static char *subject(const struct proposal *p, const char *path,
		     bool several)
{
	char *tag = retire_file_tag(path), *name, *tail, *s;
	unsigned n = p->people->len + p->listp->len;

	name = (!strchr(path, '/') || several) && !p->area ?
		retire_short_name(p->e->entry->name) : g_strdup("");
	if (p->area) {
		char *nn = new_name(p->e, p->area);

		tail = g_strdup_printf("add %s", nn);
		if (g_utf8_strlen(tag, -1) + 2 + g_utf8_strlen(tail, -1) > 75) {
			g_free(tail);
			tail = g_strdup_printf("add an entry for %s",
					       p->area->path);
		}
		g_free(nn);
	} else if (n == 1) {
		tail = g_strdup_printf("add %s as reviewer", p->people->len ?
			((const struct ms_area_person *)
			 p->people->pdata[0])->name :
			((const struct ms_rv_person *)p->listp->pdata[0])->name);
	} else {
		tail = g_strdup_printf("add %u reviewers", n);
	}
	s = retire_subject(tag, name, tail);
	g_free(tail);
	g_free(name);
	g_free(tag);
	return s;
}

/* The evidence for one person in one area. */
static void evidence(GString *b, const struct ms_area_person *x,
		     const struct ms_area *w, const struct recruit_opts *o)
{
	char s[32], u[32], l[32];

	day(o->since, s);
	day(o->until, u);
	day(x->focused_last, l);
	/* the counts the de-facto rule weighs (areas.h) */
	char *did[3] = { NULL, NULL, NULL };
	size_t nd = 0;

	/* what they did, naught left out ("gave 0 of the review tags of
	 * its 0 reviewed ones" says nothing) */
	if (x->focused_committed)
		did[nd++] = g_strdup_printf("applied %zu of its %zu commits",
					    x->focused_committed, w->focused);
	if (x->focused_reviewed)
		did[nd++] = g_strdup_printf("gave %zu of the review tags of "
					    "its %zu reviewed ones",
					    x->focused_reviewed,
					    w->focused_reviewed);
	if (x->focused_authored)
		did[nd++] = g_strdup_printf("authored %zu",
					    x->focused_authored);
	g_string_append_printf(b, "%s <%s> is listed for %s by no entry "
			       "of MAINTAINERS, so get_maintainer.pl names "
			       "them for none of its files; yet from %s to %s "
			       "they ", x->name, x->email, w->path, s, u);
	for (size_t k = 0; k < nd; k++) {
		g_string_append_printf(b, "%s%s", k == 0 ? "" : k + 1 < nd ?
				       ", " : " and ", did[k]);
		g_free(did[k]);
	}
	g_string_append_printf(b, ", the last on %s", l);
	if (w->commits > w->focused)
		g_string_append_printf(b, " (%zu tree-wide commit%s, "
				       "touching more than %d entries, %s "
				       "left out)", w->commits - w->focused,
				       w->commits - w->focused > 1 ? "s" : "",
				       MS_AREAS_TREEWIDE,
				       w->commits - w->focused > 1 ? "are" :
				       "is");
	if (x->custodial)
		g_string_append_printf(b, " (%zu more they applied as the "
				       "custodian of %s's tree count for "
				       "nothing here)", x->custodial,
				       x->custodian_of);
	for (size_t k = 0; k < x->nr_examples; k++)
		g_string_append_printf(b, "%s%.12s", k ? ", " :
				       " (for example commit ",
				       x->examples[k]);
	g_string_append(b, x->nr_examples ? ")." : ".");
	g_string_append_c(b, ' ');
}

/* The evidence for one de-facto maintainer on the list of `p`'s entry:
 * what made them one (ms_rv_defacto()), with dates and example
 * messages. */
static void evidence_list(GString *b, const struct ms_rv_person *x,
			  const struct proposal *p,
			  const struct recruit_opts *o)
{
	const struct ms_rv_entry *re = p->re;
	unsigned why = ms_rv_defacto(re, x);
	char s[32], u[32], f[32], l[32];
	GPtrArray *did = g_ptr_array_new_with_free_func(g_free);

	day(o->since, s);
	day(o->until, u);
	day(x->first_reply_since, f);
	day(x->first_reply_until, l);
	if (x->first_responses)
		g_ptr_array_add(did, g_strdup_printf(
			"were the first to answer %zu of the %zu answered, "
			"posted from %s to %s",
			x->first_responses, re->first_replied_total, f, l));
	if (why & MS_RV_DEFACTO_TAGS)
		g_ptr_array_add(did, g_strdup_printf(
			"gave %zu of its %zu review tags",
			x->reviewed_by + x->acked_by, re->tags_total));
	if (why & MS_RV_DEFACTO_NOTICES)
		g_ptr_array_add(did, g_strdup_printf(
			"accepted %zu of its %zu patches an applied notice "
			"accepted",
			x->accepted_by_notice, re->accepted_by_notice));
	if (why & MS_RV_DEFACTO_APPLIED)
		g_ptr_array_add(did, g_strdup_printf(
			"applied %zu of its %zu merged ones", x->applied,
			re->merged));
	g_string_append_printf(b, "%s <%s> is not listed for %s, yet "
			       "maintstat review finds them its de-facto "
			       "maintainer on the list: from %s to %s they "
			       "answered %zu of its %u patches", x->name,
			       x->email, p->e->entry->name, s, u, x->replied,
			       re->patches->len);
	for (guint k = 0; k < did->len; k++)
		g_string_append_printf(b, "%s%s", k + 1 < did->len ? ", " :
				       " and ", (char *)did->pdata[k]);
	g_ptr_array_free(did, TRUE);
	for (size_t k = 0; k < G_N_ELEMENTS(x->first_reply_ids) &&
	     x->first_reply_ids[k]; k++) {
		g_string_append_printf(b, "%s<%s>", k ? ", " :
				       " (for example ",
				       x->first_reply_ids[k]);
		if (o->list_url) {
			char *esc = g_uri_escape_string(x->first_reply_ids[k],
							"@!$&'()*+,;=:", FALSE);

			g_string_append_printf(b, " %s%s%s/", o->list_url,
					       g_str_has_suffix(o->list_url,
								"/") ? "" : "/",
					       esc);
			g_free(esc);
		}
	}
	g_string_append(b, x->first_reply_ids[0] ? ")." : ".");
	g_string_append_c(b, ' ');
}

/* The commit message after the subject, its To: and Cc: lines. */
static char *body(const struct proposal *p, const struct recruit_opts *o,
		  GPtrArray *to, GPtrArray *cc)
{
	const struct maint_entry *me = p->e->entry;
	GString *b = g_string_new(NULL);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	char *w;

	g_string_append_printf(b, "This is a proposal, for the people it "
			       "names to accept or reject, and for those "
			       "listed for %s to comment on: nothing changes "
			       "unless they agree.  It adds them as reviewers "
			       "(R:), never as maintainers (M:): becoming a "
			       "maintainer is their decision.\n\n", me->name);
	for (guint i = 0; i < p->people->len; i++)
		evidence(b, p->people->pdata[i], p->where->pdata[i], o);
	for (guint i = 0; i < p->also->len; i++)
		evidence_list(b, p->also->pdata[i], p, o);
	for (guint i = 0; i < p->listp->len; i++)
		evidence_list(b, p->listp->pdata[i], p, o);
	/* (THE REST's proposals need not be for an unattended area) */
	if (p->area && (p->area->flags & MS_AREA_UNATTENDED))
		g_string_append_printf(b, "None of the people listed for %s "
				       "authored, committed or tagged any of "
				       "them.  ", me->name);
	if (p->area)
		g_string_append_printf(b, "A new entry for %s (its files "
				       "stay in %s too: get_maintainer.pl "
				       "names both) lists them as reviewers "
				       "with %s's lists.", p->area->path,
				       me->name, me->name);
	else
		g_string_append_printf(b, "As reviewers of %s, "
				       "get_maintainer.pl Cc's them on its "
				       "patches.", me->name);
	w = retire_wrap(b->str, 72);
	g_string_assign(b, w);
	g_free(w);
	g_string_append_printf(b, "\n\nFound by maintstat areas%s (its "
			       "figures: non-merge commits, people\njoined as "
			       "it joins them).\n\n", p->listp->len +
			       p->also->len ?
			       " and review" : "");
	for (guint i = 0; i < p->people->len; i++) {
		const struct ms_area_person *x = p->people->pdata[i];

		g_ptr_array_add(to, ms_person_format(x->name, x->email));
		g_hash_table_add(seen, ms_email_normalize(x->email, true));
	}
	for (guint i = 0; i < p->listp->len; i++) {
		const struct ms_rv_person *x = p->listp->pdata[i];

		g_ptr_array_add(to, ms_person_format(x->name, x->email));
		g_hash_table_add(seen, ms_email_normalize(x->email, true));
	}
	for (size_t f = 0; f < me->nr_fields; f++) {
		const struct maint_field *fl = &me->fields[f];
		char *name = NULL, *email = NULL, *key;

		if (fl->key != 'M' && fl->key != 'R' && fl->key != 'L')
			continue;
		maint_parse_person(fl->value, &name, &email);
		if (email) {
			key = ms_email_normalize(email, true);
			if (!g_hash_table_contains(seen, key)) {
				g_hash_table_add(seen, key);
				g_ptr_array_add(cc, ms_person_format(
					fl->key == 'L' ? NULL : name, email));
			} else {
				g_free(key);
			}
		}
		g_free(name);
		g_free(email);
	}
	for (guint i = 0; i < cc->len; i++)
		g_string_append_printf(b, "Cc: %s\n", (char *)cc->pdata[i]);
	g_string_append_printf(b, "Signed-off-by: %s\n", o->from);
	g_hash_table_destroy(seen);
	return g_string_free(b, FALSE);
}

/* A MAINTAINERS file the series edits: as read, and after the patches
 * so far. */
struct mfile {
	char *path, *orig, *cur;
	bool bad;                 /* could not be read */
};

static void mfile_free(gpointer x)
{
	struct mfile *f = x;

	g_free(f->path);
	g_free(f->orig);
	g_free(f->cur);
	g_free(f);
}

/* The file entry `me` was read from, read on first use into `files`
 * (file -> struct mfile); NULL when it cannot be read (said once). */
static struct mfile *file_of(GHashTable *files, GPtrArray *order,
			     const struct maint_entry *me,
			     recruit_read_fn read, void *data,
			     struct ms_diags *diags)
{
	struct mfile *f = g_hash_table_lookup(files, me->file);

	if (!f) {
		f = g_new0(struct mfile, 1);
		g_hash_table_insert(files, (gpointer)me->file, f);
		if (read(me->file, &f->path, &f->orig, data) < 0) {
			f->bad = true;
			ms_diags_add(diags, me->file, 0, "proposals for its "
				     "entries are left out: %s",
				     ms_error_last());
			ms_error_clear();
		} else {
			f->cur = g_strdup(f->orig);
			g_ptr_array_add(order, f);
		}
	}
	return f->bad ? NULL : f;
}

/* Whether the file of proposal p's entry holds other entries too. */
static bool several(const struct ms_activity *a, const struct proposal *p)
{
	const struct maint_file *mf = ms_activity_maintainers(a);
	const struct maint_entry *me = p->e->entry;

	for (size_t i = 0; i < maint_file_nr_entries(mf); i++)
		if (maint_file_entry(mf, i) != me &&
		    !strcmp(maint_file_entry(mf, i)->file, me->file))
			return true;
	return false;
}

/* The cover letter: every proposal's subject, the diffstat of `files`. */
static int cover(struct recruit_series *s, GPtrArray *files,
		 const struct recruit_opts *o)
{
	struct recruit_patch *rp = &s->patches[0];
	struct ms_patch mp = { 0 };
	struct ms_patch_file *f = g_new0(struct ms_patch_file, files->len);
	GString *b = g_string_new("Proposals from maintstat areas: "
				  "people who in fact apply or review "
				  "the changes to parts of an entry "
				  "but are listed for them nowhere. "
				  "Each patch is a proposal for them "
				  "and the entry's people to accept "
				  "or reject; none adds a maintainer "
				  "(M:).\n\n");
	int rc;

	for (size_t i = 1; i < s->nr; i++)
		g_string_append_printf(b, "  %s\n", s->patches[i].subject);
	for (guint i = 0; i < files->len; i++) {
		const struct mfile *m = files->pdata[i];

		f[i] = (struct ms_patch_file){ m->path, m->orig, m->cur };
	}
	rp->subject = g_strdup("MAINTAINERS: reviewers for the parts "
			       "their people look after");
	mp.from = o->from;
	mp.date = o->date;
	mp.subject = rp->subject;
	mp.total = s->nr - 1;
	mp.body = b->str;
	mp.files = f;
	mp.nr_files = files->len;
	mp.stat_only = true;
	rp->text = g_string_new(NULL);
	rc = ms_format_patch(&mp, rp->text);
	rp->file_name = retire_patch_name(0, rp->subject);
	rp->to = g_new0(char *, 1);
	rp->cc = g_new0(char *, 1);
	g_string_free(b, TRUE);
	g_free(f);
	return rc;
}

/* Proposal `p`, number i of `total`, as a patch of file `f` (holding
 * several entries: `several`). */
static int one_patch(struct recruit_patch *rp, const struct proposal *p,
		     struct mfile *f, bool several, size_t i, size_t total,
		     const struct recruit_opts *o)
{
	GPtrArray *to = g_ptr_array_new(), *cc = g_ptr_array_new();
	struct ms_patch mp = { 0 };
	struct ms_patch_file pf;
	char *next = apply(p, f->path, f->cur), *msg;
	int rc;

	if (!next)
		next = g_strdup(f->cur);
	msg = body(p, o, to, cc);
	rp->subject = subject(p, f->path, several);
	pf = (struct ms_patch_file){ f->path, f->cur, next };
	mp.from = o->from;
	mp.date = o->date;
	mp.subject = rp->subject;
	mp.to = (const char *const *)to->pdata;
	mp.nr_to = to->len;
	mp.nr = i;
	mp.total = total;
	mp.body = msg;
	mp.files = &pf;
	mp.nr_files = 1;
	rp->text = g_string_new(NULL);
	rc = ms_format_patch(&mp, rp->text);
	rp->file_name = retire_patch_name(i, rp->subject);
	g_ptr_array_add(to, NULL);
	g_ptr_array_add(cc, NULL);
	rp->to = (char **)g_ptr_array_free(to, FALSE);
	rp->cc = (char **)g_ptr_array_free(cc, FALSE);
	g_free(msg);
	g_free(f->cur);
	f->cur = next;
	return rc;
}

int recruit_build(const struct ms_activity *a, const struct ms_areas *ar,
		  recruit_read_fn read, void *data,
		  const struct recruit_opts *o, struct recruit_series **out,
		  struct ms_diags *diags)
{
	struct recruit_series *s = g_new0(struct recruit_series, 1);
	GPtrArray *props, *use = g_ptr_array_new(), *at = g_ptr_array_new();
	GPtrArray *order = g_ptr_array_new();
	GHashTable *files = g_hash_table_new_full(g_str_hash, g_str_equal,
						  NULL, mfile_free);
	int rc = 0;

	props = proposals(a, ar, o, &s->kept);
	for (guint i = 0; i < props->len; i++) {
		struct proposal *p = props->pdata[i];
		struct mfile *f = file_of(files, order, p->e->entry, read,
					  data, diags);

		if (f) {
			g_ptr_array_add(use, p);
			g_ptr_array_add(at, f);
		}
	}
	s->nr = use->len ? use->len + 1 : 0;
	s->patches = g_new0(struct recruit_patch, s->nr + 1);
	for (guint i = 0; i < use->len && rc == 0; i++)
		rc = one_patch(&s->patches[i + 1], use->pdata[i],
			       at->pdata[i], several(a, use->pdata[i]), i + 1,
			       use->len, o);
	if (use->len && rc == 0)
		rc = cover(s, order, o);
	g_ptr_array_free(use, TRUE);
	g_ptr_array_free(at, TRUE);
	g_ptr_array_free(order, TRUE);
	g_hash_table_destroy(files);
	g_ptr_array_free(props, TRUE);
	if (rc < 0) {
		recruit_series_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void recruit_series_free(struct recruit_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		struct recruit_patch *rp = &s->patches[i];

		g_free(rp->file_name);
		g_free(rp->subject);
		if (rp->text)
			g_string_free(rp->text, TRUE);
		g_strfreev(rp->to);
		g_strfreev(rp->cc);
	}
	g_free(s->patches);
	g_free(s);
}
