/*
 * urlcheck.c - verdicts on web links.  The requests themselves are made by
 * ms_http_check_many() in http.c.
 */
#include "urlcheck.h"

#include "error.h"
#include "http.h"
#include "when.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

struct item {
	char *url;
	struct ms_http_check check;
	struct ms_url_result result;
};

struct ms_urlcheck {
	GPtrArray *items;     /* struct item * */
	GHashTable *by_url;   /* url (borrowed from item) -> index + 1 */
};

static void item_free(gpointer p)
{
	struct item *it = p;

	g_free(it->url);
	g_free(it->check.final_url);
	g_free(it->check.message);
	g_free(it);
}

struct ms_urlcheck *ms_urlcheck_new(void)
{
	struct ms_urlcheck *c = g_new0(struct ms_urlcheck, 1);

	c->items = g_ptr_array_new_with_free_func(item_free);
	c->by_url = g_hash_table_new(g_str_hash, g_str_equal);
	return c;
}

void ms_urlcheck_free(struct ms_urlcheck *c)
{
	if (!c)
		return;
	g_hash_table_destroy(c->by_url);
	g_ptr_array_free(c->items, TRUE);
	g_free(c);
}

size_t ms_urlcheck_add(struct ms_urlcheck *c, const char *url)
{
	gpointer idx = g_hash_table_lookup(c->by_url, url);
	struct item *it;

	if (idx)
		return GPOINTER_TO_SIZE(idx) - 1;
	it = g_new0(struct item, 1);
	it->url = g_strdup(url);
	it->result.url = it->url;
	it->result.last_modified = -1;
	it->check.last_modified = -1;
	g_ptr_array_add(c->items, it);
	g_hash_table_insert(c->by_url, it->url,
			    GSIZE_TO_POINTER(c->items->len));
	return c->items->len - 1;
}

const struct ms_url_result *ms_urlcheck_result(const struct ms_urlcheck *c,
					       size_t i)
{
	return &((struct item *)c->items->pdata[i])->result;
}

const char *ms_url_verdict_name(enum ms_url_verdict v)
{
	switch (v) {
	case MS_URL_OK:
		return "ok";
	case MS_URL_STALE:
		return "stale";
	case MS_URL_DEAD:
		return "dead";
	case MS_URL_ERROR:
		return "error";
	case MS_URL_UNCHECKED:
		break;
	}
	return "unchecked";
}

static bool is_http(const char *url)
{
	return g_str_has_prefix(url, "http://") ||
		g_str_has_prefix(url, "https://") ||
		!g_ascii_strncasecmp(url, "http://", 7) ||
		!g_ascii_strncasecmp(url, "https://", 8);
}

static enum ms_url_verdict judge(const struct ms_http_check *ck,
				 int64_t now, int64_t stale_after)
{
	if (ck->status >= 200 && ck->status < 300) {
		if (ck->last_modified >= 0 &&
		    now - ck->last_modified > stale_after)
			return MS_URL_STALE;
		return MS_URL_OK;
	}
	if (ck->status == 429 || ck->status >= 500)
		return MS_URL_ERROR;
	if (ck->status >= 300)
		return MS_URL_DEAD;
	/* No answer at all: a name that does not resolve or a refused
	 * connection is a dead link; a timeout or TLS trouble may pass. */
	if (ck->message && (strstr(ck->message, "cannot resolve") ||
			    strstr(ck->message, "cannot connect") ||
			    strstr(ck->message, "too many redirects")))
		return MS_URL_DEAD;
	return MS_URL_ERROR;
}

static void on_checked(void *data, size_t done, size_t n)
{
	const struct ms_fetch_opts *o = data;
	struct ms_fetch_progress p = { "links", 0, done, n };

	if (o->progress)
		o->progress(o->progress_data, &p);
}

int ms_urlcheck_run(struct ms_urlcheck *c, const struct ms_fetch_opts *opts,
		    unsigned parallel, int64_t now, int64_t stale_after)
{
	struct ms_http_check *checks;
	size_t *map, n = 0;
	int rc;

	checks = g_new0(struct ms_http_check, c->items->len);
	map = g_new0(size_t, c->items->len);
	for (guint i = 0; i < c->items->len; i++) {
		struct item *it = c->items->pdata[i];

		if (!is_http(it->url)) {
			it->result.verdict = MS_URL_UNCHECKED;
			continue;
		}
		checks[n].url = it->url;
		map[n++] = i;
	}
	rc = ms_http_check_many(opts, checks, n, parallel, on_checked,
				(void *)opts);
	for (size_t k = 0; k < n; k++) {
		struct item *it = c->items->pdata[map[k]];

		g_free(it->check.final_url);
		g_free(it->check.message);
		it->check = checks[k];
		it->result.status = it->check.status;
		it->result.final_url = it->check.final_url;
		it->result.last_modified = it->check.last_modified;
		it->result.attempts = it->check.attempts;
		it->result.error = it->check.message;
		it->result.verdict = rc ? MS_URL_UNCHECKED :
			judge(&it->check, now, stale_after);
	}
	g_free(checks);
	g_free(map);
	return rc;
}

char *ms_urlcheck_extract(const char *value)
{
	char **words = g_strsplit_set(value ? value : "", " \t", -1);
	char *first = NULL, *url = NULL;

	for (char **w = words; *w; w++) {
		if (!**w)
			continue;
		if (!first)
			first = *w;
		if (strstr(*w, "://")) {
			url = *w;
			break;
		}
	}
	url = g_strdup(url ? url : first);
	g_strfreev(words);
	return url;
}

int ms_urlcheck_parse_age(const char *s, int64_t *seconds)
{
	struct ms_duration d;
	int rc = ms_duration_parse(s, &d);

	if (rc == 0)
		*seconds = ms_duration_seconds(&d);
	return rc;
}
