/* test_park.c: the one park/ready protocol (gopark, sudogs in wait
 * queues, goready into the waker's runnext) on hand-built states, and the
 * checker's walk of the wait queues. */
#include <criterion/criterion.h>

#include "../sim/park.h"
#include "../sim/runq.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;

static void setup(void)
{
	s = bare_sim(2, &prog, NULL);
	s->cfg.check = 1;
}

static void teardown(void)
{
	sim_free(s);
	program_free((struct program *)prog);
}

TestSuite(park, .init = setup, .fini = teardown);

/* A new G running on P0 / M0. */
static int32_t running_g(void)
{
	int32_t gi = sim_newg(s, 0);
	s->allm[0].curg = gi;
	sim_move_g(s, gi, PL_RUNNING, 0, R_SCHEDULE);
	return gi;
}

/* G gi parks on both channels' recvqs at once, as a blocked select does. */
static void park_on_both(int32_t gi)
{
	park_gopark(s, gi, WR_CHAN_RECV, R_CHAN, -1);
	cr_assert_geq(park_enqueue(s, &s->chans[0].recvq, gi, WQ_CHAN_RECV, 0, 0), 0);
	cr_assert_geq(park_enqueue(s, &s->chans[1].recvq, gi, WQ_CHAN_RECV, 1, 1), 0);
}

Test(park, gopark_frees_the_m_and_queues_one_sudog_per_object)
{
	int32_t gi = running_g();
	park_on_both(gi);
	cr_assert_eq(s->allm[0].curg, -1, "a waiting G holds no M");
	cr_assert_eq(s->allg[gi].place, PL_WAITING);
	cr_assert_eq(s->chans[0].recvq.size, 1);
	cr_assert_eq(s->chans[1].recvq.size, 1);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
}

Test(park, goready_through_one_queue_leaves_every_other_queue)
{
	int32_t gi = running_g();
	park_on_both(gi);
	int32_t sg = park_dequeue(s, &s->chans[1].recvq);
	park_goready(s, sg, -1, 0, 1, R_CHAN);
	cr_assert_eq(s->chans[0].recvq.size, 0, "the other case's sudog is gone");
	cr_assert_eq(s->chans[0].recvq.first, -1);
	cr_assert_eq(s->allg[gi].param, 1, "g.param says which case woke it");
	cr_assert_eq(s->allp[0].runnext, gi, "into the waker's runnext");
	cr_assert_eq(s->sudogs_used, 0);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
}

Test(park, waiters_are_woken_in_fifo_order_and_sudogs_are_recycled)
{
	int32_t a = running_g();
	park_gopark(s, a, WR_CHAN_RECV, R_CHAN, 0);
	park_enqueue(s, &s->chans[0].recvq, a, WQ_CHAN_RECV, 0, -1);
	int32_t b = running_g();
	park_gopark(s, b, WR_CHAN_RECV, R_CHAN, 0);
	park_enqueue(s, &s->chans[0].recvq, b, WQ_CHAN_RECV, 0, -1);
	int32_t sg = park_dequeue(s, &s->chans[0].recvq);
	cr_assert_eq(s->sudogs[sg].g, a);
	park_goready(s, sg, -1, 0, PARAM_OK, R_CHAN);
	int32_t before = s->nsudog;
	int32_t c = running_g();
	park_gopark(s, c, WR_CHAN_SEND, R_CHAN, 0);
	park_enqueue(s, &s->chans[0].sendq, c, WQ_CHAN_SEND, 0, -1);
	cr_assert_eq(s->nsudog, before, "the freed sudog is reused");
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
}

Test(park, the_checker_catches_a_queued_sudog_of_a_running_g)
{
	int32_t gi = running_g();
	park_on_both(gi);
	s->allg[gi].place = PL_RUNNING; /* corrupt: it still has queued sudogs */
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_BROKEN);
}

Test(park, the_checker_catches_a_wrong_queue_size)
{
	int32_t gi = running_g();
	park_on_both(gi);
	s->chans[0].recvq.size = 2;
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(s->msg, "wait queue") != NULL, "%s", s->msg);
}

/* G gi, running, parks in a plain receive on channel 0 (chan_op's park). */
static void park_plain_recv(int32_t gi)
{
	park_gopark(s, gi, WR_CHAN_RECV, R_CHAN, 0);
	cr_assert_eq(park_enqueue_g(s, &s->chans[0].recvq, gi, WQ_CHAN_RECV, 0), 0);
}

Test(park, a_plain_waiter_on_an_empty_queue_waits_inline_and_is_taken_first)
{
	int32_t a = running_g();
	park_plain_recv(a);
	cr_assert_eq(s->sudogs_used, 0, "no sudog for the queue's only plain waiter");
	cr_assert_eq(s->chans[0].recvq.g1, a);
	int32_t b = running_g();
	park_plain_recv(b); /* behind a: a sudog */
	int32_t c = running_g();
	park_on_both(c);
	cr_assert_eq(s->chans[0].recvq.size, 3);
	cr_assert_eq(s->sudogs_used, 3);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
	struct waiter w = park_take(s, &s->chans[0].recvq);
	cr_assert(w.g == a && w.sg == -1, "the inline G first, without a sudog");
	park_goready(s, w.sg, w.g, 0, PARAM_OK, R_CHAN);
	cr_assert_eq(s->allp[0].runnext, a);
	cr_assert_eq(s->allg[a].param, PARAM_OK);
	w = park_take(s, &s->chans[0].recvq);
	cr_assert(w.g == b && w.sg >= 0, "then the sudogs in order");
	park_plain_recv(a); /* the queue is not empty: a goes behind c */
	cr_assert_eq(s->chans[0].recvq.g1, -1);
	park_goready(s, w.sg, w.g, 0, PARAM_OK, R_CHAN);
	cr_assert_eq(park_take(s, &s->chans[0].recvq).g, c);
	cr_assert_eq(park_take(s, &s->chans[0].recvq).g, a);
	cr_assert_eq(park_take(s, &s->chans[0].recvq).g, -1);
}

Test(park, close_takes_the_sudogs_last_first_then_the_inline_g)
{
	int32_t a = running_g();
	park_plain_recv(a);
	int32_t b = running_g();
	park_plain_recv(b);
	struct waiter w = park_take_last(s, &s->chans[0].recvq);
	cr_assert(w.g == b && w.sg >= 0);
	w = park_take_last(s, &s->chans[0].recvq);
	cr_assert(w.g == a && w.sg == -1);
	cr_assert_eq(park_take_last(s, &s->chans[0].recvq).g, -1);
	cr_assert_eq(s->chans[0].recvq.size, 0);
}

Test(park, the_checker_catches_an_inline_g_that_is_not_waiting_there)
{
	int32_t a = running_g();
	park_plain_recv(a);
	s->allg[a].waitreason = WR_CHAN_SEND; /* corrupt: it waits for the other queue */
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(s->msg, "inline") != NULL, "%s", s->msg);
}
