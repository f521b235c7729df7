/*
 * fuzz-manifest.c - libFuzzer target for the reader of a public-inbox
 * server's grokmirror manifest (manifest.js.gz, inflated): the epochs it
 * names must come out sorted, unique and canonical, whatever the bytes.
 */
#include "fetch.h"

#include <glib.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GArray *epochs = g_array_new(FALSE, FALSE, sizeof(unsigned));

	ms_fetch_manifest_epochs((const char *)data, size, epochs);
	for (guint i = 1; i < epochs->len; i++)
		if (g_array_index(epochs, unsigned, i - 1) >=
		    g_array_index(epochs, unsigned, i))
			abort();        /* not sorted and unique */
	for (guint i = 0; i < epochs->len; i++)
		if (g_array_index(epochs, unsigned, i) > 9999999)
			abort();
	g_array_free(epochs, TRUE);
	return 0;
}
