/*
 * maintainers.c - parsing MAINTAINERS files the way get_maintainer.pl
 * reads them, and finding them in a tree.
 *
 * get_maintainer.pl's reader is line based: a line "X:<spaces>value" with X
 * a capital letter is a field, a blank or '#' line is ignored, anything
 * else starts a new section.  We keep that, and call a section an entry
 * when it has at least one field; the prose at the top of the file (title
 * lines with no fields) is therefore not an entry, whatever project the
 * file comes from.
 */
#include "maintainers.h"
#include "person.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

#define MAX_LINE (64 * 1024)
/*
 * The largest MAINTAINERS file read: 40 times the kernel's (0.8 MiB).
 * Each F: line costs some 170 bytes of index, so a file of hundreds of
 * MiB would take gigabytes; refused with a message instead.
 */
#define MAX_FILE ((size_t)32 << 20)
/* Fields of all the files read: each costs some 200 bytes once matched
 * (its entry's share, its value, the index's pattern), so a file of
 * millions of one-letter F: lines took 726 MB.  The kernel's has 17,466. */
#define MAX_FIELDS 200000
#define MAX_REPORTS 5 /* warnings of one kind per file before a summary */

struct maint_file {
	GPtrArray *entries;    /* struct maint_entry * */
	GStringChunk *names;   /* file names */
	GStringChunk *values;  /* the fields' values: one allocation per
				* 64 KiB rather than one per field */
	GHashTable *by_name;   /* entry name -> first entry of that name */
	unsigned nr_tv;        /* get_maintainer.pl's @typevalue so far */
	size_t nr_fields;      /* of every entry, up to MAX_FIELDS */
	bool qemu;             /* QEMU's syntax (maint_file_set_qemu_syntax) */
};

struct maint_file *maint_file_new(void)
{
	struct maint_file *mf = g_new0(struct maint_file, 1);

	mf->entries = g_ptr_array_new();
	mf->names = g_string_chunk_new(256);
	mf->values = g_string_chunk_new(64 * 1024);
	mf->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	return mf;
}

static void entry_free(struct maint_entry *e)
{
	g_free(e->fields);
	g_free(e->name);
	g_free(e->underline);
	g_free(e);
}

void maint_file_free(struct maint_file *mf)
{
	if (!mf)
		return;
	for (guint i = 0; i < mf->entries->len; i++)
		entry_free(g_ptr_array_index(mf->entries, i));
	g_ptr_array_free(mf->entries, TRUE);
	g_hash_table_destroy(mf->by_name);
	g_string_chunk_free(mf->names);
	g_string_chunk_free(mf->values);
	g_free(mf);
}

size_t maint_file_nr_entries(const struct maint_file *mf)
{
	return mf->entries->len;
}

const struct maint_entry *maint_file_entry(const struct maint_file *mf,
					   size_t i)
{
	return i < mf->entries->len ? g_ptr_array_index(mf->entries, i) : NULL;
}

const struct maint_entry *maint_file_find(const struct maint_file *mf,
					  const char *name)
{
	return g_hash_table_lookup(mf->by_name, name);
}

bool maint_entry_catch_all(const struct maint_entry *e)
{
	for (size_t f = 0; f < e->nr_fields; f++)
		if (e->fields[f].key == 'F' &&
		    (!strcmp(e->fields[f].value, "*") ||
		     !strcmp(e->fields[f].value, "*/")))
			return true;
	return false;
}

bool maint_k_joinable(const char *v)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	for (const char *p = v; *p; p++) {
		if (*p == '\\') {
			if (!p[1] || strchr("AzZGRXQ", p[1]))
				return false;
			p++;
		} else if (*p == '(' && p[1] == '*') {
			return false;
		} else if (*p == '(' && p[1] == '?') {
			/* (?= (?! (?<= (?<! (?> (?* (?<*; (?-m) (?^) */
			const char *q = p + 2 + (p[2] == '<');

			if (strchr("=!>*", *q) ||
			    strchr("-^", p[2 + strspn(p + 2, letters)]))
				return false;
		} else if (strchr("*+?}", *p) && p[1] == '+') {
			return false;
		}
	}
	return true;
}

bool maint_k_maybe(const GRegex *joined, const char *all, size_t len)
{
	GError *err = NULL;
	bool hit;

	if (!joined)
		return true;
	hit = g_regex_match_full(joined, all, (gssize)len, 0, 0, NULL, &err);
	if (err)
		g_error_free(err);
	return hit || err;
}

void maint_parse_person(const char *value, char **name, char **email)
{
	ms_person_parse(value, -1, name, email);
}

void maint_file_set_qemu_syntax(struct maint_file *mf, bool on)
{
	mf->qemu = on;
}

/* A line get_maintainer.pl skips: blank, or (the kernel's) a comment. */
static bool is_blank_or_comment(const struct maint_file *mf, const char *l,
				size_t n)
{
	size_t i = 0;

	while (i < n && g_ascii_isspace(l[i]))
		i++;
	return i == n || (l[i] == '#' && !mf->qemu);
}

/* A "X:" field line: X any byte for QEMU's script, a capital otherwise. */
static bool is_field(const struct maint_file *mf, const char *l, size_t n)
{
	return n >= 2 && l[1] == ':' &&
	       (mf->qemu || (l[0] >= 'A' && l[0] <= 'Z'));
}

static bool is_underline(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && (l[i] == '-' || l[i] == '=' || l[i] == '~'))
		i++;
	while (i < n && g_ascii_isspace(l[i]))
		i++;
	return i == n && n >= 3 && (l[0] == '-' || l[0] == '=' || l[0] == '~');
}

/* Counters for warnings that may repeat on every line of a bad file. */
struct report {
	const char *file;
	struct ms_diags *diags;
	unsigned counts[4];
};

enum { R_LONG, R_NUL, R_ORPHAN_KEY, R_UTF8 };

static void report(struct report *r, int kind, unsigned line,
		   const char *what)
{
	if (++r->counts[kind] <= MAX_REPORTS)
		ms_diags_add(r->diags, r->file, line, "%s", what);
}

static void report_summary(struct report *r)
{
	static const char *const what[] = {
		"lines longer than 64 KiB skipped",
		"lines with NUL bytes skipped",
		"fields before any entry name skipped",
		"lines that are not valid UTF-8",
	};

	for (int k = 0; k < 4; k++)
		if (r->counts[k] > MAX_REPORTS)
			ms_diags_add(r->diags, r->file, 0, "%u more %s",
				     r->counts[k] - MAX_REPORTS, what[k]);
}

static struct maint_entry *new_entry(const char *file,
				     unsigned line, const char *title,
				     size_t len)
{
	struct maint_entry *e = g_new0(struct maint_entry, 1);

	e->name = g_strndup(title, len);
	e->file = file;
	e->line = line;
	return e;
}

static void add_entry(struct maint_file *mf, struct maint_entry *e)
{
	e->index = mf->entries->len;
	g_ptr_array_add(mf->entries, e);
	if (!g_hash_table_contains(mf->by_name, e->name))
		g_hash_table_insert(mf->by_name, e->name, e);
}

/* The entry `e` ends: its fields are those gathered in `fields`. */
static void close_entry(struct maint_file *mf, struct maint_entry *e,
			GArray *fields)
{
	e->nr_fields = fields->len;
	e->fields = g_new(struct maint_field, fields->len ? fields->len : 1);
	memcpy(e->fields, fields->data,
	       fields->len * sizeof(struct maint_field));
	g_array_set_size(fields, 0);
	add_entry(mf, e);
}

int maint_file_parse(struct maint_file *mf, const char *name,
		     const char *buf, size_t len, struct ms_diags *diags)
{
	const char *file = g_string_chunk_insert_const(mf->names, name);
	struct report r = { file, diags, { 0 } };
	struct maint_entry *cur = NULL;  /* entry being filled */
	const char *title = NULL;        /* pending title line */
	const char *ul = NULL;           /* and its underline */
	size_t title_len = 0, ul_len = 0, nr_before = mf->entries->len;
	unsigned title_line = 0, lineno = 0, tv;
	GArray *fields;
	size_t pos = 0;
	bool documented[26] = { false };  /* letters the preamble explains */

	if (len > MAX_FILE)
		return ms_error_set(MS_EPARSE, "'%s' is %zu MiB: over the %zu "
				    "MiB a MAINTAINERS file may have (the "
				    "kernel's is under 1 MiB); not read", name,
				    len >> 20, MAX_FILE >> 20);
	/* one scratch array for every entry's fields, copied out at the end
	 * of each entry at its size: no realloc per field */
	fields = g_array_sized_new(FALSE, FALSE, sizeof(struct maint_field),
				   256);
	while (pos < len) {
		const char *l = buf + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;

		pos += n + (nl ? 1 : 0);
		lineno++;
		/* get_maintainer.pl keeps every line but blanks and comments */
		tv = mf->nr_tv;
		if (is_field(mf, l, n) || !is_blank_or_comment(mf, l, n))
			mf->nr_tv++;
		if (n > MAX_LINE) {
			report(&r, R_LONG, lineno,
			       "line longer than 64 KiB skipped");
			continue;
		}
		if (memchr(l, '\0', n)) {
			report(&r, R_NUL, lineno,
			       "line with NUL bytes skipped (binary data?)");
			continue;
		}
		if (!g_utf8_validate(l, (gssize)n, NULL))
			report(&r, R_UTF8, lineno,
			       "line is not valid UTF-8");
		if (is_field(mf, l, n)) {
			struct maint_field f;
			size_t v = 2;

			if (!cur && !title) {
				report(&r, R_ORPHAN_KEY, lineno,
				       "field before any entry name skipped");
				continue;
			}
			if (++mf->nr_fields > MAX_FIELDS) {
				if (cur)
					entry_free(cur);
				g_array_free(fields, TRUE);
				return ms_error_set(MS_EPARSE, "%s:%u: more "
					"than %d fields: over what a "
					"MAINTAINERS file may have (the "
					"kernel's has under 20000); not read",
					name, lineno, MAX_FIELDS);
			}
			if (!cur) {
				cur = new_entry(file, title_line, title,
						title_len);
				if (ul)
					cur->underline = g_strndup(ul, ul_len);
				title = NULL;
				ul = NULL;
			}
			while (v < n && g_ascii_isspace(l[v]))
				v++;
			f.key = l[0];
			f.value = g_string_chunk_insert_len(mf->values, l + v,
							   (gssize)(n - v));
			f.file = file;
			f.line = lineno;
			f.tv = tv;
			/* V: is Xen's (its get_maintainer.pl documents it);
			 * a file may explain its own (rdma-core's H:) */
			if (!strchr("MRLSWQBCPTFXNKV", f.key) &&
			    !(f.key >= 'A' && f.key <= 'Z' &&
			      documented[f.key - 'A']))
				ms_diags_add(diags, file, lineno,
					     "unknown field '%c:' in entry '%s'",
					     g_ascii_isprint(f.key) ? f.key : '?',
					     cur->name);
			g_array_append_val(fields, f);
			continue;
		}
		/* the preamble's list of fields, "\tH: Historical authors":
		 * indented, before any entry */
		if (mf->entries->len == nr_before && !cur && n > 3 &&
		    g_ascii_isspace(l[0])) {
			size_t i = 0;

			while (i < n && g_ascii_isspace(l[i]))
				i++;
			if (i + 2 < n && l[i] >= 'A' && l[i] <= 'Z' &&
			    l[i + 1] == ':' && g_ascii_isspace(l[i + 2]))
				documented[l[i] - 'A'] = true;
		}
		if (is_blank_or_comment(mf, l, n))
			continue;
		/*
		 * QEMU and Xen underline their section titles ("-----");
		 * an underline keeps the title above it.
		 */
		if (title && !cur && is_underline(l, n)) {
			ul = l;
			ul_len = n;
			continue;
		}
		/* a title line: close the current entry */
		if (cur) {
			close_entry(mf, cur, fields);
			cur = NULL;
		}
		title = l;
		title_len = n;
		ul = NULL;
		while (title_len && g_ascii_isspace(title[title_len - 1]))
			title_len--;
		title_line = lineno;
	}
	if (cur)
		close_entry(mf, cur, fields);
	g_array_free(fields, TRUE);
	report_summary(&r);
	if (mf->entries->len == nr_before)
		ms_diags_add(diags, file, 0, "no entries found");
	return 0;
}

/* Finding the MAINTAINERS files of a tree. */

static int parse_from_tree(struct maint_file *mf, const struct ms_tree *t,
			   const char *path, struct ms_diags *diags)
{
	char *buf, *display;
	size_t len;
	int rc = ms_tree_read(t, path, &buf, &len);

	if (rc < 0)
		return rc;
	display = ms_tree_display_path(t, path);
	rc = maint_file_parse(mf, display, buf, len, diags);
	g_free(display);
	g_free(buf);
	return rc;
}

static int parse_from_disk(struct maint_file *mf, const char *path,
			   struct ms_diags *diags)
{
	GError *err = NULL;
	char *buf;
	gsize len;
	int rc;

	if (!g_file_get_contents(path, &buf, &len, &err)) {
		rc = err->code == G_FILE_ERROR_NOENT ? MS_ENOTFOUND : MS_ERROR;
		ms_error_set(rc, "cannot read MAINTAINERS file '%s': %s", path,
			     err->message);
		g_error_free(err);
		return rc;
	}
	rc = maint_file_parse(mf, path, buf, len, diags);
	g_free(buf);
	return rc;
}

/*
 * The tree's .get_maintainer.conf, as get_maintainer.pl reads it: words,
 * '#' comments; we honour --find-maintainer-files and --mpath /
 * --maintainer-path (with '=' or as the next word).
 */
static void read_conf(const struct ms_tree *t, struct maint_load_opts *o,
		      char **mpath)
{
	char *buf;
	size_t len;
	char **lines;

	if (ms_tree_read(t, ".get_maintainer.conf", &buf, &len) < 0) {
		ms_error_clear();
		return;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char **words = g_strsplit_set(g_strstrip(*l), " \t", -1);

		for (char **w = words; *w; w++) {
			const char *eq;

			if (**w == '#')
				break;
			if (!strcmp(*w, "--find-maintainer-files"))
				o->find_maintainer_files = true;
			else if (!strcmp(*w, "--nofind-maintainer-files") ||
				 !strcmp(*w, "--no-find-maintainer-files"))
				o->find_maintainer_files = false;
			else if ((!strcmp(*w, "--mpath") ||
				  !strcmp(*w, "--maintainer-path")) && w[1]) {
				g_free(*mpath);
				*mpath = g_strdup(w[1]);
				w++;
			} else if ((eq = strchr(*w, '=')) &&
				   (!strncmp(*w, "--mpath=", 8) ||
				    !strncmp(*w, "--maintainer-path=", 18))) {
				g_free(*mpath);
				*mpath = g_strdup(eq + 1);
			}
		}
		g_strfreev(words);
	}
	g_strfreev(lines);
	g_free(buf);
}

static bool is_maintainers_below(const char *path, const char *dir)
{
	size_t dl = strlen(dir);
	const char *base = strrchr(path, '/');

	if (!base || strcmp(base, "/MAINTAINERS"))
		return false;
	return dl == 0 || (!strncmp(path, dir, dl) && path[dl] == '/');
}

int maint_file_load(const struct ms_tree *t, const struct maint_load_opts *opts,
		    struct maint_file **out, struct ms_diags *diags)
{
	struct maint_load_opts o = *opts;
	struct maint_file *mf = maint_file_new();
	char *mpath = NULL;
	int rc = 0;

	*out = NULL;
	maint_file_set_qemu_syntax(mf, o.qemu_syntax);
	if (o.nr_maintainers) {
		for (size_t i = 0; i < o.nr_maintainers && rc == 0; i++)
			rc = parse_from_disk(mf, o.maintainers[i], diags);
		goto done;
	}
	read_conf(t, &o, &mpath);
	if (mpath) {
		char *p = g_strdup(mpath);
		size_t pl = strlen(p);

		while (pl > 1 && p[pl - 1] == '/')
			p[--pl] = '\0';
		/* U-Boot's "--maintainer-path=.": the top of the tree */
		if (!strcmp(p, ".")) {
			p[0] = '\0';
			pl = 0;
		}
		if (pl && ms_tree_has_file(t, p)) {
			rc = parse_from_tree(mf, t, p, diags);
		} else if (!pl || ms_tree_is_dir(t, p)) {
			size_t found = 0;

			for (size_t i = 0; i < ms_tree_nr_files(t); i++) {
				const char *f = ms_tree_path(t, i);
				const char *rest = f + pl;
				bool take;

				if (pl) {
					if (strncmp(f, p, pl) || *rest != '/')
						continue;
					rest++;
				}
				if (o.find_maintainer_files && !pl)
					take = !strcmp(f, "MAINTAINERS") ||
					       is_maintainers_below(f, p);
				else if (o.find_maintainer_files)
					take = is_maintainers_below(f, p);
				else
					take = !strchr(rest, '/') &&
					       rest[0] != '.';
				if (!take)
					continue;
				found++;
				rc = parse_from_tree(mf, t, f, diags);
				if (rc < 0)
					break;
			}
			if (!found && rc == 0)
				rc = ms_error_set(MS_ENOTFOUND,
						  "no MAINTAINERS files in "
						  "'%s/%s'", ms_tree_root(t), p);
		} else {
			rc = ms_error_set(MS_ENOTFOUND,
					  "cannot find MAINTAINERS path '%s' "
					  "(from .get_maintainer.conf) in '%s'",
					  p, ms_tree_root(t));
		}
		g_free(p);
		goto done;
	}
	if (ms_tree_has_file(t, "MAINTAINERS"))
		rc = parse_from_tree(mf, t, "MAINTAINERS", diags);
	else if (!o.find_maintainer_files)
		rc = ms_error_set(MS_ENOTFOUND,
				  "cannot find 'MAINTAINERS' in '%s' (name "
				  "one with --maintainers FILE, or read every "
				  "*/MAINTAINERS with --find-maintainer-files)",
				  ms_tree_root(t));
	if (rc == 0 && o.find_maintainer_files) {
		for (size_t i = 0; i < ms_tree_nr_files(t) && rc == 0; i++) {
			const char *f = ms_tree_path(t, i);

			if (!is_maintainers_below(f, ""))
				continue;
			/* one unreadable file found in the tree is a
			 * warning: the others still say who maintains what */
			if (parse_from_tree(mf, t, f, diags) < 0)
				ms_diags_add(diags, NULL, 0, "%s",
					     ms_error_last());
		}
		if (rc == 0 && maint_file_nr_entries(mf) == 0)
			rc = ms_error_set(MS_ENOTFOUND,
					  "no MAINTAINERS files in '%s'",
					  ms_tree_root(t));
	}
done:
	g_free(mpath);
	if (rc < 0) {
		maint_file_free(mf);
		return rc;
	}
	*out = mf;
	return 0;
}
