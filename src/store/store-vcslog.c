/*
 * store-vcslog.c - get_maintainer.pl's git log of each file (see
 * maint-cc-vcs.h), kept in the store's cache of derived data (kind
 * "gm-log", keyed by the commit and the file) with the date its --since
 * resolved to.  A log is made from the history model (the commits of
 * git's walk since that date, ms_store_since_walk(), with their touched
 * paths) and the objects (git-log.h), or by git where they cannot say
 * (a file some commit of the walk adds: --follow's copy search).  It is
 * reused while no commit of the history is dated
 * between that date and the one asked now: git's walk compares each
 * commit's date with the --since date and nothing else, so the log is
 * then the same bytes.  The sorted commit dates are kept too (kind
 * "gm-dates2", keyed by the commit).
 */
#include "store-internal.h"

#include <glib.h>
#include <string.h>

#define LOG_KIND "gm-log1"
#define OLD_LOG_KIND "gm-log0"  /* QEMU's and Xen's command (mcc_vcs.old) */
#define DATES_KIND "gm-dates2"
#define LOG_KEEP 200000     /* files' logs: U-Boot has 38,000 files */

/* The sorted dates as a count and each one's distance from the one
 * before (varints): 107k U-Boot commits take 0.2 MB instead of 0.86,
 * and each warm run reads them (and the store rewrites them as used). */
static void put_dates(struct ms_store_vcs *c)
{
	GByteArray *b = g_byte_array_new();
	gint64 prev = 0;

	ms_put_var(b, c->dates->len);
	for (guint i = 0; i < c->dates->len; i++) {
		gint64 d = g_array_index(c->dates, gint64, i);

		if (i)
			ms_put_var(b, (uint64_t)(d - prev));
		else
			ms_put_svar(b, d);
		prev = d;
	}
	if (ms_store_model_put(c->s, DATES_KIND, c->id, 4, b->data, b->len) < 0)
		ms_error_clear();
	g_byte_array_free(b, TRUE);
}

static bool got_dates(struct ms_store_vcs *c, GBytes *b)
{
	gsize n;
	const void *p = g_bytes_get_data(b, &n);
	struct ms_rd r = MS_RD_INIT(p, n);
	uint64_t count = ms_get_var(&r);
	gint64 d = 0;

	/* a date takes a byte at least */
	if (!r.ok || count > n)
		return false;
	g_array_set_size(c->dates, (guint)count);
	for (uint64_t i = 0; i < count && r.ok; i++) {
		d = i ? d + (gint64)ms_get_var(&r) : ms_get_svar(&r);
		g_array_index(c->dates, gint64, i) = d;
	}
	if (ms_rd_done(&r))
		return true;
	g_array_set_size(c->dates, 0);
	return false;
}

static bool load_dates(struct ms_store_vcs *c)
{
	GBytes *b = NULL;
	bool got = false;

	if (ms_store_model_get(c->s, DATES_KIND, c->id, &b) < 0)
		ms_error_clear();
	if (b) {
		got = got_dates(c, b);
		g_bytes_unref(b);
	}
	if (got)
		return true;
	if (!mcc_vcs_dates(&c->v, c->id, c->dates))
		return false;
	put_dates(c);
	return true;
}

int ms_store_vcs_open(struct ms_store *s, const struct mcc_vcs *v,
		      struct ms_store_vcs **out)
{
	struct ms_store_vcs *c = g_new0(struct ms_store_vcs, 1);

	*out = NULL;
	c->s = s;
	c->v = *v;
	c->dates = g_array_new(FALSE, FALSE, sizeof(gint64));
	if (!mcc_vcs_resolve(v, c->id, &c->v.max_age) || !load_dates(c)) {
		ms_store_vcs_free(c);
		return 0;
	}
	c->v.resolved = true;
	c->v.rev = c->id;
	*out = c;
	return 0;
}

void ms_store_vcs_free(struct ms_store_vcs *c)
{
	if (!c)
		return;
	if (c->drop_window)
		c->drop_window(c);
	g_array_free(c->dates, TRUE);
	g_free(c);
}

/* Whether some commit is dated in [lo, hi). */
static bool dated_between(const GArray *dates, gint64 lo, gint64 hi)
{
	guint a = 0, b = dates->len;

	while (a < b) {
		guint m = a + (b - a) / 2;

		if (g_array_index(dates, gint64, m) < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < dates->len && g_array_index(dates, gint64, a) < hi;
}

static char *log_key(const struct ms_store_vcs *c, const char *file)
{
	return g_strconcat(c->id, "\n", file, NULL);
}

GPtrArray *store_vcs_saved(struct ms_store_vcs *c, const char *file)
{
	char *key = log_key(c, file);
	GBytes *b = NULL;
	GPtrArray *lines = NULL;
	const char *p, *end, *nl;
	gint64 then;
	gsize n;

	if (ms_store_model_get(c->s, c->v.old ? OLD_LOG_KIND : LOG_KIND, key,
			       &b) < 0 || !b) {
		ms_error_clear();
		g_free(key);
		return NULL;
	}
	g_free(key);
	p = g_bytes_get_data(b, &n);
	end = p + n;
	nl = memchr(p, '\n', n);
	if (!nl)
		nl = end;   /* an empty log */
	{
		/* the bytes are not NUL-terminated */
		char *head = g_strndup(p, (gsize)(nl - p));

		then = g_ascii_strtoll(head, NULL, 10);
		g_free(head);
	}
	if (dated_between(c->dates, MIN(then, c->v.max_age),
			  MAX(then, c->v.max_age)))
		goto out;
	lines = g_ptr_array_new_with_free_func(g_free);
	for (p = nl + 1; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		g_ptr_array_add(lines, g_strndup(p, (gsize)(nl - p)));
	}
out:
	g_bytes_unref(b);
	return lines;
}


void store_vcs_save(struct ms_store_vcs *c, const char *file,
		    const GPtrArray *lines)
{
	char *key = log_key(c, file);
	GString *v = g_string_new(NULL);

	g_string_printf(v, "%" G_GINT64_FORMAT, c->v.max_age);
	for (guint i = 0; i < lines->len; i++) {
		g_string_append_c(v, '\n');
		g_string_append(v, lines->pdata[i]);
	}
	if (ms_store_model_put(c->s, c->v.old ? OLD_LOG_KIND : LOG_KIND, key,
			       LOG_KEEP, v->str, v->len) < 0)
		ms_error_clear();
	g_string_free(v, TRUE);
	g_free(key);
}

GPtrArray *ms_store_vcs_saved(const char *file, void *data)
{
	struct ms_store_vcs *c = data;
	GPtrArray *lines = store_vcs_saved(c, file);

	if (lines)
		return lines;
	c->missed = true;
	return g_ptr_array_new_with_free_func(g_free);
}

bool ms_store_vcs_missed(const struct ms_store_vcs *c)
{
	return c->missed;
}
