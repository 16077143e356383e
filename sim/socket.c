/* socket.c: sockets' reads and writes over the poller (see socket.h). */
#include "socket.h"

#include "netpoll.h"
#include "park.h"

#define PARAM_FDLOCK 2 /* rwunlock woke it: it holds the read lock now */

/* fd.readUnlock: the lock goes to the first G waiting for it (rwunlock:
 * runtime_Semrelease(&mu.rsema) readies it into the releaser's runnext). */
static void read_unlock(struct sim *s, int32_t gi, int32_t si)
{
	struct sock *sk = &s->socks[si];
	sk->holder = -1;
	int32_t sg = park_dequeue(s, &sk->rsemaq);
	if (sg < 0)
		return;
	sk->holder = s->sudogs[sg].g;
	park_goready(s, sg, -1, s->allg[gi].p, PARAM_FDLOCK, R_UNLOCK);
}

/* Holding the read lock: the read syscall. Data there is taken (1);
 * otherwise EAGAIN, and pd.waitRead parks the G in the poller (0). */
static int try_read(struct sim *s, int32_t gi, int32_t si)
{
	struct sock *sk = &s->socks[si];
	if (sk->data > 0) {
		sk->data--;
		read_unlock(s, gi, si);
		s->allg[gi].pc++;
		return 1;
	}
	sk->reader = gi; /* pollDesc.rg: the G parked for reading */
	netpoll_park(s, gi, si);
	return 0;
}

int socket_read(struct sim *s, int32_t gi, int32_t si)
{
	struct g *gp = &s->allg[gi];
	struct sock *sk = &s->socks[si];
	if (gp->param == PARAM_FDLOCK) { /* rwlock returns: the lock is its */
		gp->param = PARAM_NONE;
		return try_read(s, gi, si);
	}
	if (gp->param != PARAM_NONE) { /* netpoll returned it: its data is there (the write took it for it) */
		gp->param = PARAM_NONE;
		read_unlock(s, gi, si);
		gp->pc++;
		return 1;
	}
	if (sk->holder >= 0) { /* fdMutex.rwlock: held, runtime_Semacquire(&mu.rsema) */
		park_gopark(s, gi, WR_SEMACQUIRE, R_LOCK, si);
		park_enqueue(s, &sk->rsemaq, gi, WQ_FDMU, si, -1);
		return 0;
	}
	sk->holder = gi;
	return try_read(s, gi, si);
}

int socket_write(struct sim *s, int32_t gi, int32_t si)
{
	struct sock *sk = &s->socks[si];
	int32_t r = sk->reader;
	if (r >= 0) { /* the fd turns readable: netpollready puts the reader on the poller's ready list */
		sk->reader = -1;
		netpoll_ready(s, r, s->allg[r].parkgen);
	} else {
		sk->data++;
	}
	s->allg[gi].pc++;
	return 1;
}
