/*
 * bench-manifest - what reading the epochs of a public-inbox
 * manifest.js.gz costs (issue 20: a manifest listing 200,000 epochs took
 * 7 s when each key was looked up in the list so far).
 *
 *   bench-manifest [MAX-EPOCHS]    (default 1,000,000)
 *
 * For manifests of 1,000 to MAX-EPOCHS epochs (every epoch listed twice,
 * plus as many non-canonical "00N.git" keys, in reverse order: the worst
 * case for the old per-key scan), prints the time of
 * ms_fetch_manifest_epochs() against the named baseline, jansson's
 * json_loadb() of the same text and a walk of its keys (what a reader
 * built on a JSON library does), and the ratio baseline / ours.
 */
#include "fetch.h"

#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

static GString *manifest(unsigned n)
{
	GString *m = g_string_new("{");

	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = n; i-- > 0;)
			g_string_append_printf(m, "%s\"/lab/git/%u.git\": "
					       "{\"modified\": %u, "
					       "\"fingerprint\": \"%040u\"}, "
					       "\"/lab/git/00%u.git\": {}",
					       m->len > 1 ? ", " : "", i, i,
					       i, i);
	g_string_append(m, "}");
	return m;
}

static double ours(const GString *m, guint *count)
{
	GArray *e = g_array_new(FALSE, FALSE, sizeof(unsigned));
	gint64 t0 = g_get_monotonic_time();

	ms_fetch_manifest_epochs(m->str, m->len, e);
	*count = e->len;
	g_array_free(e, TRUE);
	return (g_get_monotonic_time() - t0) / 1e6;
}

static double baseline(const GString *m, guint *count)
{
	gint64 t0 = g_get_monotonic_time();
	json_error_t err;
	json_t *doc = json_loadb(m->str, m->len, 0, &err);
	const char *key;
	json_t *v;
	GHashTable *seen = g_hash_table_new(NULL, NULL);

	if (!doc) {
		fprintf(stderr, "bench-manifest: %s\n", err.text);
		exit(1);
	}
	json_object_foreach(doc, key, v) {
		char *end;
		const char *d = g_strrstr(key, "/git/");
		unsigned long e;

		(void)v;
		if (!d || (d[5] == '0' && d[6] != '.'))
			continue;
		e = strtoul(d + 5, &end, 10);
		if (end != d + 5 && g_str_equal(end, ".git"))
			g_hash_table_add(seen, GUINT_TO_POINTER(e + 1));
	}
	*count = g_hash_table_size(seen);
	g_hash_table_unref(seen);
	json_decref(doc);
	return (g_get_monotonic_time() - t0) / 1e6;
}

int main(int argc, char **argv)
{
	unsigned max = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) :
				  1000000;

	printf("%10s %10s %10s %12s %8s\n", "epochs", "MiB", "ours",
	       "jansson", "ratio");
	for (unsigned n = 1000; n <= max; n = n < max && n * 10 > max ?
						      max : n * 10) {
		GString *m = manifest(n);
		guint a, b;
		double t1 = ours(m, &a), t2 = baseline(m, &b);

		if (a != n || b != n) {
			fprintf(stderr, "bench-manifest: %u epochs read as %u "
				"and %u\n", n, a, b);
			return 1;
		}
		printf("%10u %10.1f %9.3fs %11.3fs %7.1fx\n", n,
		       m->len / 1048576.0, t1, t2, t2 / t1);
		g_string_free(m, TRUE);
		if (n == max)
			break;
	}
	return 0;
}
