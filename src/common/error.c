#include "error.h"

#include <glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * Room for a message quoting a few paths of PATH_MAX (4 KiB) and more:
 * 1 KiB cut messages naming long paths.  A longer one ends in "...".
 */
static _Thread_local char last_error[16384];

static void mark_cut(int n)
{
	if (n >= (int)sizeof(last_error))
		memcpy(last_error + sizeof(last_error) - 4, "...", 4);
}

static void vset(const char *fmt, va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);   /* may quote last_error */

	mark_cut(snprintf(last_error, sizeof(last_error), "%s", msg));
	g_free(msg);
}

int ms_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	return code;
}

int ms_error_set_errno(int code, int errno_value, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	len = strlen(last_error);
	mark_cut((int)len + snprintf(last_error + len, sizeof(last_error) -
				     len, ": %s", g_strerror(errno_value)));
	return code;
}

const char *ms_error_last(void)
{
	return last_error;
}

void ms_error_clear(void)
{
	last_error[0] = '\0';
}

void ms_diags_add(struct ms_diags *d, const char *file, unsigned line,
		  const char *fmt, ...)
{
	struct ms_diag *diag;
	va_list ap;

	if (d->nr == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 16;
		d->items = g_renew(struct ms_diag, d->items, d->alloc);
	}
	diag = &d->items[d->nr++];
	diag->file = g_strdup(file);
	diag->line = line;
	va_start(ap, fmt);
	diag->message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

void ms_diags_release(struct ms_diags *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		g_free(d->items[i].file);
		g_free(d->items[i].message);
	}
	g_free(d->items);
	d->items = NULL;
	d->nr = d->alloc = 0;
}
