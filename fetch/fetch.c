/*
 * fetch.c - the libcurl adapter of the fetcher.
 */
#include "fetch.h"

#include <curl/curl.h>

const char *ms_fetch_curl_version(void)
{
	return curl_version();
}
