/*
 * mail-notice.c - what a message's new text announces about the patch it
 * answers (mail.h, enum ms_mail_notice; docs/review.md, "Where each patch
 * stands"): applied notices in words and b4 ty items with their commits,
 * rejections, withdrawals, and notes of thanks.
 */
#include "mail-notice.h"

#include <glib.h>
#include <string.h>

/* Line `s` (`n` bytes, blanks trimmed) of the new text starts with
 * `what` (lowercase), followed by the line's end or a non-letter. */
static bool line_says(const char *s, size_t n, const char *what)
{
	size_t w = strlen(what);

	return n >= w && !g_ascii_strncasecmp(s, what, w) &&
	       (n == w || !g_ascii_isalpha(s[w]));
}

/*
 * A b4 ty commit line, "commit: <sha>" or a cgit/kernel.org ".../c/<sha>"
 * URL: sets *id, *id_n to the commit id (7 hex digits or more).
 */
static bool line_commit(const char *s, size_t n, const char **id,
			size_t *id_n)
{
	const char *c;
	size_t h = 0;

	if (line_says(s, n, "commit:")) {
		s += 7, n -= 7;
	} else if (n > 8 && !g_ascii_strncasecmp(s, "https://", 8) &&
		   (c = g_strrstr_len(s, (gssize)n, "/c/"))) {
		n -= (size_t)(c + 3 - s);
		s = c + 3;
	} else {
		return false;
	}
	while (n && *s == ' ')
		s++, n--;
	while (h < n && g_ascii_isxdigit(s[h]))
		h++;
	*id = s;
	*id_n = h;
	return h >= 7 && (h == n || s[h] == ' ');
}

/* A b4 ty item line, "[1/3] subject": the subject, or NULL. */
static const char *line_item(const char *s, size_t n, size_t *subj_n)
{
	size_t k = 1;

	if (!n || s[0] != '[')
		return NULL;
	while (k < n && (g_ascii_isdigit(s[k]) || s[k] == '/'))
		k++;
	if (k == 1 || k + 1 >= n || s[k] != ']' || s[k + 1] != ' ')
		return NULL;
	for (k += 2; k < n && s[k] == ' '; k++)
		;
	*subj_n = n - k;
	return k < n ? s + k : NULL;
}

/* `s` (`n` bytes) starts with `what` (lowercase); then *s, *n skip it. */
static bool eat(const char **s, size_t *n, const char *what)
{
	size_t w = strlen(what);

	if (*n < w || g_ascii_strncasecmp(*s, what, w))
		return false;
	*s += w;
	*n -= w;
	return true;
}

/* The rest of a line `s` (`n` bytes) is a smiley, ":)", ":-)", ";)",
 * ";-)" or ":D" after a blank, with more of them or '.' and '!' up to its
 * end, and nothing else: "Finally merged :)." */
static bool smileys_only(const char *s, size_t n)
{
	static const char *const smileys[] = { ":)", ":-)", ";)", ";-)", ":d" };
	bool one = false;

	if (!n || *s != ' ')
		return false;
	while (n) {
		bool ate = eat(&s, &n, " ");

		for (size_t i = 0; !ate && i < G_N_ELEMENTS(smileys); i++)
			one |= ate = eat(&s, &n, smileys[i]);
		if (!ate && one && (*s == '.' || *s == '!'))
			ate = eat(&s, &n, *s == '.' ? "." : "!");
		if (!ate)
			return false;
	}
	return one;
}

/*
 * The clause `s` (`n` bytes) says the patch was applied: a verb
 * ("applied", "pushed", "merged"), after one optional word ("patch",
 * "patchset", "series", "both", "and", "fyi", "finally"), and optionally
 * followed by " this one", then the line's end, ',', '.', '!', " with ",
 * " to ", " both to " or smileys only: "Pushed, thanks.", "Patchset
 * merged!", "Applied to for-next", "Pushed with a minor change", "Finally
 * merged, thanks to all reviewers.", "Merged this one.", "Finally merged
 * :)."
 */
static bool clause_applied(const char *s, size_t n)
{
	static const char *const leads[] = {
		"patch ", "patchset ", "series ", "both ", "and ", "fyi ",
		"finally ", "",
	};
	static const char *const verbs[] = { "applied", "pushed", "merged" };
	static const char *const tails[] = {
		",", ".", "!", " with ", " to ", " both to ",
	};

	for (size_t l = 0; l < G_N_ELEMENTS(leads); l++) {
		const char *a = s;
		size_t an = n;

		if (!eat(&a, &an, leads[l]))
			continue;
		for (size_t v = 0; v < G_N_ELEMENTS(verbs); v++) {
			const char *b = a;
			size_t bn = an;

			if (!eat(&b, &bn, verbs[v]))
				continue;
			(void)eat(&b, &bn, " this one");
			if (!bn || smileys_only(b, bn))
				return true;
			for (size_t t = 0; t < G_N_ELEMENTS(tails); t++)
				if (eat(&b, &bn, tails[t]))
					return true;
		}
	}
	return false;
}

/*
 * "I took it to for-next", "I took these two", "I took this to -rc,":
 * linux-rdma's maintainers' words.  " to " must name a branch (a word
 * with "next", "rc", "fixes", '-' or '/'): "I took it to mean" is none.
 */
static bool clause_took(const char *s, size_t n)
{
	static const char *const what[] = { "it", "this", "these", "them" };
	static const char *const more[] = { " two", " one", "" };

	if (!eat(&s, &n, "i took "))
		return false;
	for (size_t w = 0; w < G_N_ELEMENTS(what); w++) {
		const char *a = s;
		size_t an = n, k = 0;

		if (!eat(&a, &an, what[w]))
			continue;
		for (size_t m = 0; m < G_N_ELEMENTS(more); m++)
			if (eat(&a, &an, more[m]))
				break;
		if (!an || *a == ',' || *a == '.' || *a == '!')
			return true;
		if (!eat(&a, &an, " to "))
			return false;
		while (k < an && a[k] != ' ' && a[k] != ',')
			k++;
		return g_strstr_len(a, (gssize)k, "next") ||
		       g_strstr_len(a, (gssize)k, "rc") ||
		       g_strstr_len(a, (gssize)k, "fixes") ||
		       memchr(a, '-', k) || memchr(a, '/', k);
	}
	return false;
}

/* The line `s` says the patch was applied: its first clause, or its
 * second after thanks or "Good catch" ("Thanks for the review, merged!",
 * "Thanks! Applied."). */
static bool says_applied(const char *s, size_t n)
{
	size_t k = 0;

	if (clause_applied(s, n) || clause_took(s, n) ||
	    line_says(s, n, "thanks, applied"))
		return true;    /* "Thanks, applied and changed as ..." */
	while (k < n && s[k] != ',' && s[k] != '!' && s[k] != '.')
		k++;
	if (k == n || !(line_says(s, n, "thank") ||
			line_says(s, n, "thanks") ||
			(k == 10 && line_says(s, n, "good catch"))))
		return false;
	for (k++; k < n && s[k] == ' '; k++)
		;
	return clause_applied(s + k, n - k);
}

/*
 * The notice line `s` (new text, `n` bytes, blanks trimmed) gives, if
 * any.  The phrases are few and strict (docs/review.md).
 */
static enum ms_mail_notice notice_line(const char *s, size_t n)
{
	static const char *const rejected[] = {
		"nak", "nack", "nacked", "not applying", "dropped from",
	};
	static const char *const withdrawn[] = {
		"please ignore", "self-nak", "self nak",
	};

	if (says_applied(s, n))
		return MS_MAIL_NOTICE_APPLIED;
	for (size_t i = 0; i < G_N_ELEMENTS(withdrawn); i++)
		if (line_says(s, n, withdrawn[i]))
			return MS_MAIL_NOTICE_WITHDRAWN;
	for (size_t i = 0; i < G_N_ELEMENTS(rejected); i++)
		if (line_says(s, n, rejected[i]))
			return MS_MAIL_NOTICE_REJECTED;
	return MS_MAIL_NOTICE_NONE;
}

void ms_mail_notice_add(struct ms_mail *m, enum ms_mail_notice v)
{
	if (v != MS_MAIL_NOTICE_NONE && m->notice != MS_MAIL_NOTICE_APPLIED)
		m->notice = (uint8_t)v;
}

/* A b4 ty item and its commit line: an applied notice naming that
 * patch (a MS_TRAILER_APPLIED "trailer": subject, commit id). */
static void add_applied(struct ms_mail *m, const char *subj, size_t subj_n,
			const char *id, size_t id_n)
{
	struct ms_mail_trailer *t = g_new0(struct ms_mail_trailer, 1);

	t->kind = MS_TRAILER_APPLIED;
	t->token = g_strndup(subj, subj_n);
	t->value = g_ascii_strdown(id, (gssize)id_n);
	g_ptr_array_add(m->trailers, t);
	ms_mail_notice_add(m, MS_MAIL_NOTICE_APPLIED);
}

/* A line of thanks or approval (MS_MAIL_NOTICE_NOTE). */
static bool line_note(const char *s, size_t n)
{
	static const char *const notes[] = {
		"thanks", "thank you", "lgtm", "looks good", "+1", "ack",
		"acked",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(notes); i++)
		if (line_says(s, n, notes[i]))
			return true;
	return false;
}

/* A greeting ("Hi Ann,") or an attribution ("On Mon, X wrote:"). */
static bool line_aside(const char *s, size_t n)
{
	return (n <= 32 && (line_says(s, n, "hi") || line_says(s, n, "hello") ||
			    line_says(s, n, "hey"))) ||
	       (n > 7 && (!memcmp(s + n - 6, "wrote:", 6) ||
			  !memcmp(s + n - 7, "writes:", 7)));
}

void ms_mail_notice_line(struct ms_mail *m, const char *s, size_t n,
			 bool trailer, struct ms_mail_scan *sc)
{
	const char *id;
	size_t id_n;
	bool scoped = false;

	if (sc->shortlog)
		sc->gap = true;
	if (sc->items && sc->items->len) {
		/* under quoted items: "These applied to -rc." */
		scoped = !sc->open && (says_applied(s, n) ||
			 (line_says(s, n, "these") &&
			  clause_applied(s + 6, n - 6)));
		for (guint i = 0; scoped && i < sc->items->len; i++)
			g_ptr_array_add(sc->applied,
					g_steal_pointer(&sc->items->pdata[i]));
		sc->scoped_applied |= scoped;
		g_ptr_array_set_size(sc->items, 0);
	}
	if (sc->item && line_commit(s, n, &id, &id_n))
		add_applied(m, sc->item, sc->item_n, id, id_n);
	else if (sc->item && line_says(s, n, "(no commit info)"))
		add_applied(m, sc->item, sc->item_n, "", 0);
	else if (!sc->open && !scoped)
		ms_mail_notice_add(m, notice_line(s, n));
	sc->item = line_item(s, n, &sc->item_n);
	sc->open = g_ascii_isalnum(s[n - 1]);
	if (n == 2 && !memcmp(s, "--", 2))
		sc->signed_off = true;
	if (!sc->signed_off && !trailer && !line_aside(s, n)) {
		sc->lines++;
		sc->notes += line_note(s, n);
		sc->last_n = n;
	}
}

/* "Ann Author (6):", a shortlog's header line. */
static bool line_shortlog(const char *s, size_t n)
{
	size_t k;

	if (n < 5 || s[0] == ' ' || s[n - 1] != ':' || s[n - 2] != ')')
		return false;
	for (k = n - 2; k && g_ascii_isdigit(s[k - 1]); k--)
		;
	return k >= 3 && k < n - 2 && s[k - 1] == '(' && s[k - 2] == ' ';
}

void ms_mail_notice_quoted(struct ms_mail_scan *sc, const char *s,
			   size_t n)
{
	size_t ind = 0;

	while (n && s[0] == '>') {
		s++, n--;
		if (n && s[0] == ' ')
			s++, n--;
	}
	while (n && g_ascii_isspace(s[n - 1]))
		n--;
	while (ind < n && s[ind] == ' ')
		ind++;
	if (line_shortlog(s, n)) {      /* the next author's too */
		sc->shortlog = true;
		sc->indent = 0;
		if (!sc->items) {
			sc->items = g_ptr_array_new_with_free_func(g_free);
			sc->applied = g_ptr_array_new_with_free_func(g_free);
		}
	} else if (sc->shortlog && ind >= 2 && ind < n &&
		   !memchr(s, '|', n)) {
		char **last = sc->items->len ? (char **)&sc->items->pdata[
				sc->items->len - 1] : NULL;

		if (!sc->indent)
			sc->indent = ind;
		if (ind > sc->indent && last) {   /* a wrapped subject */
			char *j = g_strdup_printf("%s %.*s", *last,
						  (int)(n - ind), s + ind);

			g_free(*last);
			*last = j;
		} else {
			sc->split |= sc->gap;
			g_ptr_array_add(sc->items, g_strndup(s + ind, n - ind));
		}
	} else {
		sc->shortlog = false;
	}
}

void ms_mail_notice_end(struct ms_mail *m, struct ms_mail_scan *sc)
{
	unsigned lines = sc->lines;

	/* a split shortlog's applied line answers its items only; an
	 * unsplit one's, the whole series */
	for (guint i = 0; sc->split && i < sc->applied->len; i++) {
		const char *t = sc->applied->pdata[i];

		add_applied(m, t, strlen(t), "", 0);
	}
	if (sc->scoped_applied && !sc->split)
		ms_mail_notice_add(m, MS_MAIL_NOTICE_APPLIED);
	/* a pull request's shortlog names commits of the puller's tree */
	for (guint i = 0; sc->pull && sc->items && i < sc->items->len; i++) {
		const char *t = sc->items->pdata[i];

		add_applied(m, t, strlen(t), "", 0);
	}
	if (sc->items) {
		g_ptr_array_unref(sc->items);
		g_ptr_array_unref(sc->applied);
	}

	if (lines > 1 && sc->notes < lines && sc->last_n <= 20)
		lines--;        /* "Thanks,\nAmir." */
	if (m->notice == MS_MAIL_NOTICE_NONE && sc->notes &&
	    sc->notes == lines && lines <= 3)
		m->notice = MS_MAIL_NOTICE_NOTE;
}

