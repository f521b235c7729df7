/*
 * diff.c - git format-patch output.
 */
#include "diff.h"
#include "error.h"

#include <stdbool.h>
#include <stdio.h>

#include <string.h>
#include <time.h>

static bool needs_encoding(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return true;
	return false;
}

/* RFC 2047 "Q" encoding of a whole phrase, as git does for non-ASCII. */
static void append_q(GString *out, const char *s)
{
	g_string_append(out, "=?UTF-8?q?");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == ' ')
			g_string_append_c(out, '_');
		else if (c >= 0x80 || c == '=' || c == '?' || c == '_' ||
			 c < 0x20 || strchr("\"(),.:;<>@[\\]", c))
			g_string_append_printf(out, "=%02X", c);
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append(out, "?=");
}

static void append_from(GString *out, const char *from)
{
	const char *lt = strchr(from, '<');

	if (!lt || !needs_encoding(from)) {
		g_string_append(out, from);
		return;
	}
	{
		char *name = g_strstrip(g_strndup(from, (gsize)(lt - from)));
		size_t n = strlen(name);

		/* an encoded word needs no quotes (ms_person_format()) */
		if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
			char *w = name;

			name[n - 1] = 0;
			for (const char *r = name + 1; *r; r++) {
				if (*r == '\\' && r[1])
					r++;
				*w++ = *r;
			}
			*w = 0;
		}
		append_q(out, name);
		g_string_append_printf(out, " %s", lt);
		g_free(name);
	}
}

void ms_append_date_rfc2822(GString *out, int64_t t, int off)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					    "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
					      "May", "Jun", "Jul", "Aug",
					      "Sep", "Oct", "Nov", "Dec" };
	time_t local = (time_t)(t + (int64_t)off * 60);
	struct tm tm;
	int a = off < 0 ? -off : off;

	gmtime_r(&local, &tm);
	g_string_append_printf(out, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
			       days[tm.tm_wday], tm.tm_mday,
			       months[tm.tm_mon], tm.tm_year + 1900,
			       tm.tm_hour, tm.tm_min, tm.tm_sec,
			       off < 0 ? '-' : '+', a / 60, a % 60);
}

int ms_format_patch(const struct ms_patch *p, GString *out)
{
	GString *diffs = g_string_new(NULL);
	size_t *add = g_new0(size_t, p->nr_files + 1);
	size_t *del = g_new0(size_t, p->nr_files + 1);
	size_t width = 0, changed = 0, tadd = 0, tdel = 0, maxn = 0;
	char prefix[64];
	int rc = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct ms_patch_file *f = &p->files[i];

		rc = ms_diff_buffers(f->path, f->old, strlen(f->old), f->new,
				     strlen(f->new), diffs, &add[i], &del[i]);
		if (rc < 0)
			goto done;
		if (add[i] || del[i]) {
			changed++;
			tadd += add[i];
			tdel += del[i];
			if (strlen(f->path) > width)
				width = strlen(f->path);
			if (add[i] + del[i] > maxn)
				maxn = add[i] + del[i];
		}
	}

	if (p->total == 0)
		snprintf(prefix, sizeof(prefix), "[PATCH]");
	else
		snprintf(prefix, sizeof(prefix), "[PATCH %0*u/%u]",
			 p->total >= 10 ? (p->total >= 100 ? 3 : 2) : 1,
			 p->nr, p->total);
	g_string_append(out, "From 0000000000000000000000000000000000000000 "
			"Mon Sep 17 00:00:00 2001\nFrom: ");
	append_from(out, p->from);
	g_string_append(out, "\nDate: ");
	ms_append_date_rfc2822(out, p->date, p->date_offset);
	g_string_append_printf(out, "\nSubject: %s ", prefix);
	if (needs_encoding(p->subject))
		append_q(out, p->subject);
	else
		g_string_append(out, p->subject);
	g_string_append(out, "\nMIME-Version: 1.0\n"
			"Content-Type: text/plain; charset=UTF-8\n"
			"Content-Transfer-Encoding: 8bit\n");
	/* where and as git format-patch --to writes it: verbatim (git
	 * send-email encodes what needs it) */
	for (size_t i = 0; i < p->nr_to; i++)
		g_string_append_printf(out, "%s%s", i ? ",\n    " : "To: ",
				       p->to[i]);
	g_string_append(out, p->nr_to ? "\n\n" : "\n");
	g_string_append(out, p->body);
	if (out->len && out->str[out->len - 1] != '\n')
		g_string_append_c(out, '\n');
	g_string_append(out, "---\n");
	if (changed) {
		/* git's diffstat: graph scaled to fit 80 columns */
		size_t graph = 80 - 1 - width - 3 - 5;

		if (graph > 50)
			graph = 50;
		for (size_t i = 0; i < p->nr_files; i++) {
			size_t n = add[i] + del[i], a = add[i], d = del[i];

			if (!n)
				continue;
			if (maxn > graph) {
				a = (a * graph + maxn - 1) / maxn;
				d = (d * graph + maxn - 1) / maxn;
			}
			g_string_append_printf(out, " %-*s | %zu ", (int)width,
					       p->files[i].path, n);
			for (size_t k = 0; k < a; k++)
				g_string_append_c(out, '+');
			for (size_t k = 0; k < d; k++)
				g_string_append_c(out, '-');
			g_string_append_c(out, '\n');
		}
		g_string_append_printf(out, " %zu file%s changed", changed,
				       changed == 1 ? "" : "s");
		if (tadd)
			g_string_append_printf(out, ", %zu insertion%s(+)",
					       tadd, tadd == 1 ? "" : "s");
		if (tdel)
			g_string_append_printf(out, ", %zu deletion%s(-)",
					       tdel, tdel == 1 ? "" : "s");
		g_string_append(out, "\n\n");
	}
	if (!p->stat_only)
		g_string_append_len(out, diffs->str, (gssize)diffs->len);
	g_string_append_printf(out, "-- \nmaintstat %s\n\n", MS_VERSION);
done:
	g_string_free(diffs, TRUE);
	g_free(add);
	g_free(del);
	return rc;
}
