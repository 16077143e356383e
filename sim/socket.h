/* socket.h: a connected socket's reads and writes ({"read": S}, {"write":
 * S}; top-level "sockets": ["S", ...]), over the network poller
 * (netpoll.h). internal/poll/fd_unix.go, fd_mutex.go; runtime/netpoll.go.
 *
 * A read (FD.Read) first takes the socket's read lock (fd.readLock:
 * fdMutex.rwlock(true)); a G that finds it held waits on its semaphore
 * (runtime_Semacquire(&mu.rsema): waitReasonSemacquire) until the holder's
 * readUnlock wakes it (rwunlock: runtime_Semrelease, goready into the
 * waker's runnext). Holding the lock, it reads: data written before and
 * not yet read is taken at once (the read syscall returns it, no wait);
 * otherwise the read gets EAGAIN and the G parks in the poller (fd.pd.
 * waitRead -> runtime_pollWait -> netpollblock: gopark, waitReasonIOWait),
 * holding no M and still holding the read lock, exactly as a {"net": DUR}
 * read parks (netpoll_park). A write (FD.Write) makes data available;
 * when a reader is parked it becomes ready in the poller (the kernel marks
 * the fd readable; netpoll's netpollready puts the G on the ready list,
 * netpoll_ready), and is returned by the next netpoll (an M blocked in
 * netpoll, findRunnable's poll, sysmon's), as a net read's data arrival
 * is. The woken reader then reads its data and releases the lock.
 *
 * Simplifications: a socket carries messages, not bytes: each read takes
 * the data of one write (io.ReadFull of what one Write sent); a write
 * never blocks (the send buffer never fills); the read and write system
 * calls cost no time of their own (an imported workload's stints hold
 * them); rwunlock hands the lock to the G it wakes (the runtime's woken G
 * competes for it again with new arrivals in rwlock's CAS loop); one
 * direction only: a socket is a one-way pipe, a connection is two.
 *
 * Invariants (check.c): a socket's parked reader is waiting in IO wait
 * and holds the read lock; its rsema queue's Gs wait in semacquire. */
#ifndef GOSIM_SOCKET_H
#define GOSIM_SOCKET_H

#include "state.h"

/* {"read": si} by the running G gi (or resumed after a wait): 1 if it
 * runs on (pc moved past the op), 0 if it parked. */
int socket_read(struct sim *s, int32_t gi, int32_t si);
/* {"write": si} by the running G gi: 1 (it runs on, pc moved). */
int socket_write(struct sim *s, int32_t gi, int32_t si);

#endif
