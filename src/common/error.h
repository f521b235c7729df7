/*
 * error.h - error codes, the per-thread last error, and diagnostics.
 *
 * Fallible library functions return 0 on success or a negative MS_E* code,
 * and leave a one-line, lowercase message for ms_error_last().  Callers
 * pass the code up unchanged; they do not overwrite a precise message with
 * a vaguer one.
 *
 * Warnings about input that the library recovers from (a bad line, an
 * unknown charset) are not errors: they are collected in a struct ms_diags
 * that the caller owns and the CLI prints.  Library code never prints.
 */
#ifndef MS_ERROR_H
#define MS_ERROR_H

#include <stddef.h>

enum ms_error_code {
	MS_OK = 0,
	MS_ERROR = -1,     /* generic runtime failure */
	MS_ENOTFOUND = -2, /* a named thing does not exist */
	MS_EPARSE = -3,    /* input could not be parsed */
	MS_ENET = -4,      /* network failure */
	MS_EUSAGE = -5,    /* the caller asked for something impossible */
	MS_EBUSY = -7,     /* resource locked by another process */
	MS_EBADREV = -8,   /* a revision that names no commit */
	MS_ESTALE = -9,    /* a caller's saved state no longer applies */
};

#if defined(__GNUC__)
#define MS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MS_PRINTF(f, a)
#endif

/*
 * Set the calling thread's last error message; returns `code` so that
 * `return ms_error_set(MS_EPARSE, "...")` reads naturally.
 */
int ms_error_set(int code, const char *fmt, ...) MS_PRINTF(2, 3);

/* Like ms_error_set() with ": strerror(errno_value)" appended. */
int ms_error_set_errno(int code, int errno_value, const char *fmt, ...)
	MS_PRINTF(3, 4);

/*
 * The calling thread's last error message.  Borrowed; valid until the next
 * ms_error_set() on this thread.  Never NULL ("" if none was set).
 */
const char *ms_error_last(void);

/* Forget the last error. */
void ms_error_clear(void);

/* One diagnostic: a warning about input, with its location when known. */
struct ms_diag {
	char *file;      /* NULL when not tied to a file */
	unsigned line;   /* 0 when unknown */
	char *message;   /* one line, lowercase */
};

/* A growing list of diagnostics.  Zero-initialise or use MS_DIAGS_INIT. */
struct ms_diags {
	struct ms_diag *items;
	size_t nr, alloc;
};
#define MS_DIAGS_INIT { NULL, 0, 0 }

/* Append a diagnostic; `file` may be NULL. */
void ms_diags_add(struct ms_diags *d, const char *file, unsigned line,
		  const char *fmt, ...) MS_PRINTF(4, 5);

/* Free the contents of `d` and reset it to empty. */
void ms_diags_release(struct ms_diags *d);

#endif
