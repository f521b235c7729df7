#include "test.h"
#include "error.h"

#include <errno.h>
#include <glib.h>
#include <pthread.h>

static void *other_thread(void *arg)
{
	(void)arg;
	ms_error_set(MS_ERROR, "from the other thread");
	return NULL;
}

int main(void)
{
	struct ms_diags d = MS_DIAGS_INIT;
	pthread_t t;

	ms_error_clear();
	is_str(ms_error_last(), "", "no error at start");
	is_int(ms_error_set(MS_EPARSE, "bad '%s'", "x"), MS_EPARSE,
	       "ms_error_set returns its code");
	is_str(ms_error_last(), "bad 'x'", "message kept");
	ms_error_set_errno(MS_ERROR, ENOENT, "cannot open '%s'", "M");
	is_str(ms_error_last(), "cannot open 'M': No such file or directory",
	       "errno text appended");

	{
		/* a message naming a path of PATH_MAX is kept whole (the
		 * 1 KiB buffer cut it), and one quoting itself works */
		char *path = g_strnfill(4096, 'p');
		char *want = g_strdup_printf("cannot open '%s': No such file "
					     "or directory", path);

		ms_error_set_errno(MS_ERROR, ENOENT, "cannot open '%s'", path);
		is_str(ms_error_last(), want, "a 4 KiB path is not cut");
		ms_error_set(MS_ERROR, "%s; skipped", ms_error_last());
		ok(g_str_has_suffix(ms_error_last(), "directory; skipped"),
		   "a message may quote the last one");
		g_free(want);
		g_free(path);
		path = g_strnfill(40000, 'q');
		ms_error_set(MS_ERROR, "%s", path);
		ok(g_str_has_suffix(ms_error_last(), "qq..."),
		   "a longer one is cut with '...'");
		g_free(path);
		ms_error_set_errno(MS_ERROR, ENOENT, "cannot open '%s'", "M");
	}
	pthread_create(&t, NULL, other_thread, NULL);
	pthread_join(t, NULL);
	is_str(ms_error_last(), "cannot open 'M': No such file or directory",
	       "last error is per thread");

	for (int i = 0; i < 40; i++)
		ms_diags_add(&d, i % 2 ? "MAINTAINERS" : NULL, (unsigned)i,
			     "warning %d", i);
	is_int(d.nr, 40, "diags grow");
	is_str(d.items[39].message, "warning 39", "diag message");
	is_str(d.items[1].file, "MAINTAINERS", "diag file");
	ok(d.items[0].file == NULL, "diag without file");
	ms_diags_release(&d);
	is_int(d.nr, 0, "released");
	return test_done();
}
