/*
 * workers.c - the one worker-thread count of every parallel stage.
 */
#include "workers.h"
#include "error.h"

#include <glib.h>

static unsigned workers; /* 0: one per processor */

int ms_workers_set(unsigned n)
{
	if (n > MS_WORKERS_MAX)
		return ms_error_set(MS_EUSAGE, "%u worker threads: at most %d",
				    n, MS_WORKERS_MAX);
	workers = n;
	return 0;
}

unsigned ms_workers(void)
{
	unsigned n = workers ? workers : g_get_num_processors();

	return n ? n : 1;
}
