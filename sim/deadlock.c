/* deadlock.c: the text the runtime prints when every goroutine is asleep.
 *
 * checkdead (proc.go) calls fatal("all goroutines are asleep - deadlock!");
 * a fatal error prints every goroutine (gotraceback: all for a throw), in
 * allgs order, each as goroutineheader writes it ("goroutine 5 [chan
 * receive]:") followed by its stack, and each after a blank line
 * (tracebackothers). Here the stack is the one function the goroutine runs,
 * as Go names it: main.NAME().
 *
 * A hang (driver.c: goroutines parked in the poller for data nobody will
 * write, which the runtime does not report) lists them the same way under
 * gosim's own first line, not the runtime's.
 *
 * Simplification: no file:line or pc offsets under the frame, no "created
 * by" line, and at most DEADLOCK_SHOWN goroutines, then a count of the rest
 * (the runtime prints them all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "state.h"

#define DEADLOCK_SHOWN 10

struct text {
	char *s;
	size_t n, cap;
	int failed;
};

static void put(struct text *t, const char *a, const char *b, const char *c)
{
	const char *parts[] = { a, b, c };
	for (int i = 0; i < 3 && !t->failed; i++) {
		size_t k = strlen(parts[i]);
		if (t->n + k + 1 > t->cap) {
			size_t cap = (t->n + k + 1) * 2;
			char *ns = realloc(t->s, cap);
			if (!ns) {
				t->failed = 1;
				break;
			}
			t->s = ns;
			t->cap = cap;
		}
		memcpy(t->s + t->n, parts[i], k + 1);
		t->n += k;
	}
}

char *sim_deadlock_text(const struct sim *s) { return sim_goroutines_text(s, "fatal error: all goroutines are asleep - deadlock!\n"); }

char *sim_goroutines_text(const struct sim *s, const char *head)
{
	struct text t = { 0 };
	int64_t shown = 0, waiting = 0;
	char line[64];
	put(&t, head, "", "");
	for (int32_t gi = 0; gi < s->ng; gi++) {
		const struct g *gp = &s->allg[gi];
		if (g_status(gp) == G_DEAD)
			continue;
		waiting++;
		if (shown == DEADLOCK_SHOWN)
			continue;
		shown++;
		snprintf(line, sizeof line, "\ngoroutine %d [", goid(s, gi));
		put(&t, line, g_status(gp) == G_WAITING ? sim_waitreason_name(gp->waitreason) : "runnable", "]:\n");
		char *name = quote_dup(s->prog->funcs[gp->fn].name); /* one line per frame */
		t.failed |= !name;
		put(&t, "main.", name ? name : "", "()\n");
		free(name);
	}
	if (waiting > shown) {
		snprintf(line, sizeof line, "\n...and %lld more goroutines\n", (long long)(waiting - shown));
		put(&t, line, "", "");
	}
	if (t.failed || !t.s) {
		free(t.s);
		return NULL;
	}
	if (t.n > 0 && t.s[t.n - 1] == '\n')
		t.s[--t.n] = 0; /* the caller ends the last line */
	return t.s;
}
