/*
 * cli-urls.c - maintstat coverage --check-urls: the web links of
 * MAINTAINERS entries, checked with fetch/urlcheck.h.
 */
#include "cli.h"
#include "cli-urls.h"

#include "maintainers.h"
#include "output.h"
#include "urlcheck.h"

#include "verdict.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int cli_urls_check_args(const char *cmd, struct cli_urls *u)
{
	const char *age = u->stale_after ? u->stale_after :
		MS_DEFAULT_STALE_AFTER;

	if (u->stale_after && !u->check)
		return cli_usage_error(cmd, "--stale-after goes with "
				       "--check-urls");
	if (ms_urlcheck_parse_age(age, &u->stale_seconds) < 0)
		return cli_usage_error(cmd, "--stale-after: %s",
				       ms_error_last());
	if ((u->rate || u->retries != -1 || u->timeout != -1) && !u->check)
		return cli_usage_error(cmd, "--rate, --retries and --timeout "
				       "go with --check-urls");
	return cli_fetch_limits(cmd, u->rate, u->retries, u->timeout,
				&u->fetch);
}

int cli_fetch_limits(const char *cmd, const char *rate, long retries,
		     long timeout, struct ms_fetch_opts *opts)
{
	if (rate) {
		char *end;

		opts->rate = g_ascii_strtod(rate, &end);
		if (end == rate || *end || !(opts->rate > 0))
			return cli_usage_error(cmd, "--rate takes a positive "
					       "number, not '%s'", rate);
	}
	if (retries != -1 && (retries < 0 || retries > 100))
		return cli_usage_error(cmd, "--retries takes 0 to 100");
	if (retries != -1)
		opts->retries = (int)retries;
	if (timeout != -1 && (timeout < 1 || timeout > 86400))
		return cli_usage_error(cmd, "--timeout takes 1 to 86400 "
				       "seconds");
	if (timeout != -1) {
		opts->stall_timeout = timeout;
		if (opts->connect_timeout > timeout)
			opts->connect_timeout = timeout;
	}
	return CLI_CONTINUE;
}

/* One link: which entry and field it came from. */
struct link {
	const struct maint_entry *entry;
	const struct maint_field *field;
	char *url;
	size_t idx;  /* in the checker */
};

static bool is_link_key(char key)
{
	return key == 'W' || key == 'B' || key == 'Q' || key == 'T';
}

static char *iso_date(int64_t t, bool with_time)
{
	GDateTime *dt = g_date_time_new_from_unix_utc(t);
	char *s = dt ? g_date_time_format(dt, with_time ?
					  "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d") :
		NULL;

	if (dt)
		g_date_time_unref(dt);
	return s;
}

static void on_progress(void *data, const struct ms_fetch_progress *p)
{
	bool *started = data;

	if (!*started) {
		cli_progress_start("checking links", p->total_objects);
		*started = true;
	}
	cli_progress_update(p->objects);
}

static void emit_json(struct ms_out *o, const struct cli_urls *u,
		      const struct ms_urlcheck *c, const GArray *links)
{
	ms_out_kv_int(o, "urls_stale_after_seconds", u->stale_seconds);
	ms_out_kv_begin_list(o, "urls");
	for (guint i = 0; i < links->len; i++) {
		const struct link *l = &g_array_index(links, struct link, i);
		const struct ms_url_result *r = ms_urlcheck_result(c, l->idx);
		char key[2] = { l->field->key, 0 };
		char *lm = r->last_modified >= 0 ?
			iso_date(r->last_modified, true) : NULL;

		ms_out_begin_object(o);
		ms_out_kv_string(o, "entry", l->entry->name);
		ms_out_kv_string(o, "key", key);
		ms_out_kv_string(o, "url", l->url);
		if (r->status)
			ms_out_kv_int(o, "status", r->status);
		else
			ms_out_kv_null(o, "status");
		ms_out_kv_string(o, "final_url", r->final_url);
		ms_out_kv_string(o, "last_modified", lm);
		ms_out_kv_string(o, "verdict", ms_url_verdict_name(r->verdict));
		ms_out_kv_string(o, "error", r->status ? NULL : r->error);
		ms_out_kv_string(o, "file", l->field->file);
		ms_out_kv_int(o, "line", l->field->line);
		ms_out_end_object(o);
		g_free(lm);
	}
	ms_out_end_list(o);
}

static void print_text(FILE *fp, const struct cli_urls *u,
		       const struct ms_urlcheck *c, const GArray *links)
{
	size_t count[MS_URL_ERROR + 1] = { 0 };
	GHashTable *schemes = g_hash_table_new_full(g_str_hash, g_str_equal,
						    g_free, NULL);
	const struct maint_entry *last = NULL;
	GHashTableIter it;
	gpointer k, v;
	bool first = true;

	for (guint i = 0; i < links->len; i++) {
		const struct link *l = &g_array_index(links, struct link, i);
		const struct ms_url_result *r = ms_urlcheck_result(c, l->idx);
		const char *colon = strchr(l->url, ':');
		char *scheme;

		count[r->verdict]++;
		if (r->verdict != MS_URL_UNCHECKED)
			continue;
		scheme = colon ? g_strndup(l->url, (gsize)(colon - l->url)) :
			g_strdup("no scheme");
		v = g_hash_table_lookup(schemes, scheme);
		g_hash_table_replace(schemes, scheme,
				     GSIZE_TO_POINTER(GPOINTER_TO_SIZE(v) + 1));
	}
	fprintf(fp, "\nWeb links (W:, B:, Q:, T:): %u; %zu ok, %zu stale "
		"(unchanged for over %.1f years), %zu dead, %zu failing, "
		"%zu unchecked\n", links->len, count[MS_URL_OK],
		count[MS_URL_STALE], (double)u->stale_seconds /
		(365.25 * 86400), count[MS_URL_DEAD], count[MS_URL_ERROR],
		count[MS_URL_UNCHECKED]);
	if (count[MS_URL_UNCHECKED]) {
		fprintf(fp, "  unchecked (not http or https):");
		g_hash_table_iter_init(&it, schemes);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			fprintf(fp, "%s %s %zu", first ? "" : ",",
				(char *)k, GPOINTER_TO_SIZE(v));
			first = false;
		}
		fprintf(fp, "\n");
	}
	for (guint i = 0; i < links->len; i++) {
		const struct link *l = &g_array_index(links, struct link, i);
		const struct ms_url_result *r = ms_urlcheck_result(c, l->idx);

		if (r->verdict == MS_URL_OK || r->verdict == MS_URL_UNCHECKED)
			continue;
		if (l->entry != last)
			fprintf(fp, "  %s\n", l->entry->name);
		last = l->entry;
		fprintf(fp, "    %c: %s  %s", l->field->key, l->url,
			ms_url_verdict_name(r->verdict));
		if (r->verdict == MS_URL_STALE) {
			char *d = iso_date(r->last_modified, false);

			fprintf(fp, " (last modified %s)", d);
			g_free(d);
		} else if (r->status) {
			fprintf(fp, " (%ld)", r->status);
		} else if (r->error) {
			fprintf(fp, " (%s)", r->error);
		}
		fprintf(fp, "\n");
	}
	g_hash_table_destroy(schemes);
}

int cli_urls_report(struct ms_out *o, const struct cli_urls *u,
		    const struct maint_file *mf)
{
	struct ms_fetch_opts opts = u->fetch;
	struct ms_urlcheck *c;
	GArray *links;
	bool started = false;
	int rc = EXIT_OK;

	if (!u->check)
		return EXIT_OK;
	c = ms_urlcheck_new();
	links = g_array_new(FALSE, FALSE, sizeof(struct link));
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t j = 0; j < e->nr_fields; j++) {
			struct link l = { e, &e->fields[j], NULL, 0 };

			if (!is_link_key(l.field->key))
				continue;
			l.url = ms_urlcheck_extract(l.field->value);
			if (!l.url)
				continue;
			l.idx = ms_urlcheck_add(c, l.url);
			g_array_append_val(links, l);
		}
	}
	opts.progress = on_progress;
	opts.progress_data = &started;
	if (ms_urlcheck_run(c, &opts, 8, (int64_t)time(NULL),
			    u->stale_seconds) < 0) {
		cli_progress_done();
		rc = cli_error_last();
		goto out;
	}
	cli_progress_done();
	if (ms_out_is_json(o))
		emit_json(o, u, c, links);
	else
		print_text(ms_out_fp(o), u, c, links);
	{
		size_t dead = 0;

		for (guint i = 0; i < links->len; i++) {
			const struct link *l = &g_array_index(links,
							      struct link, i);

			if (ms_urlcheck_result(c, l->idx)->verdict ==
			    MS_URL_DEAD)
				dead++;
		}
		if (dead)
			rc = cli_error("%zu dead link%s in MAINTAINERS", dead,
				       dead == 1 ? "" : "s");
	}
out:
	for (guint i = 0; i < links->len; i++)
		g_free(g_array_index(links, struct link, i).url);
	g_array_free(links, TRUE);
	ms_urlcheck_free(c);
	return rc;
}
