/*
 * html.h - the HTML writer of the static report (`maintstat report`):
 * escaping, the page skeleton, tables and plot elements.  Plots are
 * <canvas> elements whose data sit in data- attributes (never JSON built
 * by hand); the report's script hands them to the charting library, and
 * the tables beside them carry every number, so the pages read without
 * JavaScript.  Nothing here knows what the numbers mean.
 */
#ifndef MS_HTML_H
#define MS_HTML_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Text and attribute values, escaped (NULL writes nothing). */
void ms_html_text(FILE *fp, const char *s);
/* printf-style, every argument string escaped: only %s, %d, %zu, %%. */
void ms_html_printf(FILE *fp, const char *fmt, ...);

/*
 * The page's head and body start: `title` (escaped), the stylesheet and
 * scripts under `assets/` of the report directory.
 */
void ms_html_begin(FILE *fp, const char *title);
void ms_html_end(FILE *fp);

/* A plot series: `values` (NAN: no value, a gap), named `name`;
 * `faded` draws it pale and dotted, "(faded)" after its name in the
 * legend (an inactive person, say). */
struct ms_html_series {
	const char *name;
	const double *values;
	int faded;
};

/*
 * A plot: kind "bar" or "line" (markers on every point, a different
 * marker per series, not colour alone), `labels` on the x axis, one or
 * more series, axis titles with their units; `title` is the caption and
 * the accessible name.  `spark` draws a small one without axes (in a
 * table cell).  A plot without any value is not drawn: a sentence
 * says so (nothing, for a spark).
 */
void ms_html_plot(FILE *fp, const char *kind, const char *title,
		  const char *xtitle, const char *ytitle,
		  const char *const *labels, size_t nr,
		  const struct ms_html_series *series, size_t nr_series,
		  int spark);

/*
 * The report's script (plots through Chart.js, from the data- attributes
 * ms_html_plot() writes; a faded series pale and dotted; sortable
 * tables, by data-sort when a cell has one) and its stylesheet.
 */
extern const char *const ms_html_report_js;
extern const char *const ms_html_report_css;

#endif
