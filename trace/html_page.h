/* html_page.h: the replay page, compiled in by tools/embed-page.sh from
 * trace/html/ (page.html, page.css, page.js): html.c writes the head, the
 * run's data blocks, then the tail. */
#ifndef GOSIM_TRACE_HTML_PAGE_H
#define GOSIM_TRACE_HTML_PAGE_H

#include <stddef.h>

extern const char trace_html_head[];
extern const size_t trace_html_head_len;
extern const char trace_html_tail[];
extern const size_t trace_html_tail_len;

#endif
