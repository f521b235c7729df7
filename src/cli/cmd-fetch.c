/*
 * cmd-fetch.c - maintstat fetch: mirror public-inbox archives, or save a
 * search or a thread as an mbox.
 */
#include "cli.h"
#include "cli-urls.h"
#include "commands.h"
#include "error.h"
#include "fetch.h"
#include "output.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct progress_state {
	char *what;   /* as the library names the transfer */
	char *label;  /* what the progress line shows */
	bool objects;
};

static void on_progress(void *data, const struct ms_fetch_progress *p)
{
	struct progress_state *st = data;
	bool objects = p->total_objects > 0;

	if (!st->what || strcmp(st->what, p->what) ||
	    st->objects != objects) {
		cli_progress_done();
		g_free(st->what);
		g_free(st->label);
		st->what = g_strdup(p->what);
		st->label = g_strdup_printf("%s: %s", p->what, objects ?
					    "objects" : "bytes");
		st->objects = objects;
		cli_progress_start(st->label, p->total_objects);
	}
	cli_progress_update(objects ? p->objects : p->bytes);
}

static int exit_code(int rc)
{
	cli_progress_done();
	if (rc == MS_EUSAGE) {
		cli_error("%s", ms_error_last());
		return EXIT_USAGE;
	}
	return cli_error_last();
}

static void print_result_text(FILE *fp, const struct ms_fetch_result *r)
{
	fprintf(fp, "%s: %s -> %s\n", r->inbox, r->url, r->path);
	for (size_t i = 0; i < r->nr_epochs; i++) {
		const struct ms_fetch_epoch *e = &r->epochs[i];

		if (e->is_new)
			fprintf(fp, "  epoch %u: new, %zu message%s\n", e->n,
				e->new_messages,
				e->new_messages == 1 ? "" : "s");
		else if (e->new_messages)
			fprintf(fp, "  epoch %u: %zu new message%s\n", e->n,
				e->new_messages,
				e->new_messages == 1 ? "" : "s");
		else
			fprintf(fp, "  epoch %u: up to date\n", e->n);
	}
	fprintf(fp, "%s: %zu new message%s in %zu epoch%s\n", r->inbox,
		r->new_messages, r->new_messages == 1 ? "" : "s",
		r->nr_epochs, r->nr_epochs == 1 ? "" : "s");
}

static void print_result_json(struct ms_out *o, const struct ms_fetch_result *r)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "inbox", r->inbox);
	ms_out_kv_string(o, "url", r->url);
	ms_out_kv_string(o, "path", r->path);
	ms_out_kv_string(o, "epochs_from", r->from_manifest ? "manifest" :
			 "probe");
	ms_out_kv_int(o, "new_messages", (int64_t)r->new_messages);
	ms_out_kv_begin_list(o, "epochs");
	for (size_t i = 0; i < r->nr_epochs; i++) {
		const struct ms_fetch_epoch *e = &r->epochs[i];

		ms_out_begin_object(o);
		ms_out_kv_int(o, "epoch", e->n);
		ms_out_kv_bool(o, "new", e->is_new);
		ms_out_kv_int(o, "new_messages", (int64_t)e->new_messages);
		ms_out_kv_string(o, "tip", e->tip);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_end_object(o);
}

static int mirror(int argc, char **argv, const char *dest,
		  const struct ms_fetch_opts *opts, bool json)
{
	struct ms_out *o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	char *def = NULL;
	int failed = 0, usage = 0;

	if (!dest) {
		def = g_build_filename(g_get_user_data_dir(), "maintstat",
				       "inboxes", NULL);
		dest = def;
	}
	if (json) {
		ms_out_begin_document(o);
		ms_out_kv_begin_list(o, "inboxes");
	}
	for (int i = 0; i < argc; i++) {
		struct ms_fetch_result *r = NULL;
		int rc = ms_fetch_mirror(argv[i], dest, opts, &r);

		cli_progress_done();
		if (rc) {
			cli_error("%s", ms_error_last());
			failed++;
			usage += rc == MS_EUSAGE;
			continue;
		}
		if (json)
			print_result_json(o, r);
		else
			print_result_text(stdout, r);
		ms_fetch_result_free(r);
	}
	if (json && ms_out_finish(o))
		failed++;
	ms_out_free(o);
	g_free(def);
	if (usage && usage == failed)
		return EXIT_USAGE;
	return failed ? EXIT_RUNTIME : EXIT_OK;
}

static int save_mbox(const char *url, const char *query, bool threads,
		     const char *msgid, const char *output,
		     const struct ms_fetch_opts *opts, bool json)
{
	size_t n = 0;
	int rc;

	if (query)
		rc = ms_fetch_query(url, query, threads, output, opts, &n);
	else
		rc = ms_fetch_thread(url, msgid, output, opts, &n);
	if (rc)
		return exit_code(rc);
	cli_progress_done();
	if (json) {
		struct ms_out *o = ms_out_new(MS_OUT_JSON, stdout);

		ms_out_begin_document(o);
		ms_out_kv_string(o, "url", url);
		if (query) {
			ms_out_kv_string(o, "query", query);
			ms_out_kv_bool(o, "whole_threads", threads);
		} else {
			ms_out_kv_string(o, "thread", msgid);
		}
		ms_out_kv_string(o, "output", output);
		ms_out_kv_int(o, "messages", (int64_t)n);
		rc = ms_out_finish(o);
		ms_out_free(o);
		return rc ? EXIT_RUNTIME : EXIT_OK;
	}
	printf("wrote %zu message%s to %s\n", n, n == 1 ? "" : "s", output);
	return EXIT_OK;
}

int cmd_fetch(int argc, char **argv)
{
	const char *dest = NULL, *query = NULL, *msgid = NULL;
	const char *output = NULL, *rate = NULL;
	long retries = -1, timeout = -1, max_time = -1, max_size = -1;
	bool threads = false, json = false;
	struct ms_fetch_opts opts = MS_FETCH_OPTS_INIT;
	struct progress_state ps = { NULL, NULL, false };
	const struct cli_option options[] = {
		{ CLI_OPT_STRING, "dest", 0, &dest, "DIR",
		  "mirror into DIR/<inbox>/git/N.git (default: "
		  "$XDG_DATA_HOME/maintstat/inboxes)" },
		{ CLI_OPT_STRING, "query", 0, &query, "QUERY",
		  "save the public-inbox search QUERY as an mbox (-o; "
		  "default: mirror)" },
		{ CLI_OPT_FLAG, "whole-threads", 0, &threads, NULL,
		  "with --query: whole threads of the matches" },
		{ CLI_OPT_STRING, "thread", 0, &msgid, "MSGID",
		  "save the thread of Message-ID MSGID as an mbox (-o; "
		  "default: mirror)" },
		{ CLI_OPT_STRING, "output", 'o', &output, "FILE",
		  "the mbox file --query and --thread write (required "
		  "with them)" },
		{ CLI_OPT_STRING, "rate", 0, &rate, "N",
		  "at most N requests a second per host (default 2)" },
		{ CLI_OPT_INT, "retries", 0, &retries, "N",
		  "retries after a failed request (default 4)" },
		{ CLI_OPT_INT, "timeout", 0, &timeout, "SECONDS",
		  "give up on a transfer stalled (or slower than 1 KiB/s) "
		  "this long (default 60)" },
		{ CLI_OPT_INT, "max-time", 0, &max_time, "SECONDS",
		  "give up on one request after this long (default 3600)" },
		{ CLI_OPT_INT, "max-size", 0, &max_size, "MIB",
		  "refuse a body (inflated) or pack larger than this "
		  "(default 8192)" },
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const struct cli_command_help help = {
		"maintstat fetch [options] URL...\n"
		"       maintstat fetch --query QUERY [--whole-threads] URL -o FILE\n"
		"       maintstat fetch --thread MSGID URL -o FILE",
		"Mirror public-inbox archives (such as "
		"https://lore.kernel.org/netdev/)\nover HTTP, or save a search "
		"or a thread as an mboxrd file.  A run that\nis interrupted "
		"leaves nothing half-written; the next one carries on.",
		"  maintstat fetch https://lore.kernel.org/linux-rdma/\n"
		"  maintstat fetch --query 's:xdp d:2.weeks.ago..' \\\n"
		"      https://lore.kernel.org/netdev/ -o xdp.mbox",
	};
	int rc = cli_parse_options(&argc, &argv, options, &help);

	if (rc != CLI_CONTINUE)
		return rc;
	if (argc < 1)
		return cli_usage_error("fetch", "no URL given");
	if (query && msgid)
		return cli_usage_error("fetch", "--query and --thread "
				       "exclude each other");
	if ((query || msgid) && (!output || argc != 1))
		return cli_usage_error("fetch", "--%s needs one URL and -o "
				       "FILE", query ? "query" : "thread");
	if (!query && !msgid && output)
		return cli_usage_error("fetch", "-o goes with --query or "
				       "--thread");
	if (threads && !query)
		return cli_usage_error("fetch", "--whole-threads goes with "
				       "--query");
	if (query && !*query)
		return cli_usage_error("fetch", "empty --query");
	rc = cli_fetch_limits("fetch", rate, retries, timeout, &opts);
	if (rc != CLI_CONTINUE)
		return rc;
	if (max_time != -1) {
		if (max_time < 1 || max_time > 7 * 86400)
			return cli_usage_error("fetch", "--max-time takes 1 "
					       "to 604800 seconds");
		opts.request_timeout = max_time;
	}
	if (max_size != -1) {
		if (max_size < 1 || max_size > 1024 * 1024)
			return cli_usage_error("fetch", "--max-size takes 1 "
					       "to 1048576 MiB");
		opts.max_bytes = (uint64_t)max_size << 20;
	}
	opts.progress = on_progress;
	opts.progress_data = &ps;
	if (query || msgid)
		rc = save_mbox(argv[0], query, threads, msgid, output, &opts,
			       json);
	else
		rc = mirror(argc, argv, dest, &opts, json);
	cli_progress_done();
	g_free(ps.what);
	g_free(ps.label);
	return rc;
}
