/*
 * html.c - the static report's HTML writer (html.h).
 */
#include "html.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void ms_html_text(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

void ms_html_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			fputc(*p, fp);
			continue;
		}
		p++;
		if (*p == 's') {
			ms_html_text(fp, va_arg(ap, const char *));
		} else if (*p == 'd') {
			fprintf(fp, "%d", va_arg(ap, int));
		} else if (*p == 'z' && p[1] == 'u') {
			fprintf(fp, "%zu", va_arg(ap, size_t));
			p++;
		} else if (*p == '%') {
			fputc('%', fp);
		} else {
			break;          /* unknown: a programmer error */
		}
	}
	va_end(ap);
}

void ms_html_begin(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>", fp);
	ms_html_text(fp, title);
	fputs("</title>\n"
	      "<link rel=\"stylesheet\" href=\"assets/report.css\">\n"
	      "<script src=\"assets/chart.min.js\" defer></script>\n"
	      "<script src=\"assets/report.js\" defer></script>\n"
	      "</head>\n<body>\n", fp);
}

void ms_html_end(FILE *fp)
{
	fputs("</body>\n</html>\n", fp);
}

static void join_values(FILE *fp, const double *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (i)
			fputc(' ', fp);
		if (isnan(v[i]))
			fputs("null", fp);
		else
			fprintf(fp, "%.4g", v[i]);
	}
}

void ms_html_plot(FILE *fp, const char *kind, const char *title,
		  const char *xtitle, const char *ytitle,
		  const char *const *labels, size_t nr,
		  const struct ms_html_series *series, size_t nr_series,
		  int spark)
{
	size_t have = 0;

	for (size_t s = 0; s < nr_series; s++)
		for (size_t i = 0; i < nr; i++)
			if (!isnan(series[s].values[i]))
				have++;
	/* a plot with nothing to draw is a sentence, not an empty box */
	if (!have) {
		if (!spark)
			ms_html_printf(fp, "<p class=\"note\">%s: no data.</p>"
				       "\n", title);
		return;
	}
	ms_html_printf(fp, "<figure class=\"%s\"><canvas class=\"plot\" "
		       "role=\"img\" aria-label=\"%s\" data-kind=\"%s\" "
		       "data-x=\"%s\" data-y=\"%s\" data-labels=\"",
		       spark ? "spark" : "plot", title, kind, xtitle, ytitle);
	for (size_t i = 0; i < nr; i++) {
		if (i)
			fputc('|', fp);
		ms_html_text(fp, labels[i]);
	}
	fputc('"', fp);
	for (size_t s = 0; s < nr_series; s++) {
		ms_html_printf(fp, " data-name%zu=\"%s\" data-values%zu=\"", s,
			       series[s].name, s);
		join_values(fp, series[s].values, nr);
		fputc('"', fp);
		if (series[s].faded)
			ms_html_printf(fp, " data-faded%zu=\"1\"", s);
	}
	ms_html_printf(fp, " data-series=\"%zu\"", nr_series);
	if (spark)
		fputs(" width=\"120\" height=\"30\"></canvas></figure>", fp);
	else
		ms_html_printf(fp, " width=\"640\" height=\"280\"></canvas>"
			       "<figcaption>%s</figcaption></figure>\n",
			       title);
}
