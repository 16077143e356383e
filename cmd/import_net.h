/* import_net.h: network reads paired with their writers (gosim import
 * --net=socket, docs/import.md): a goroutine's wait in a socket read
 * becomes {"read": S} and the write that ended it {"write": S} in the
 * writer, so that a replay at other settings moves the wait with the
 * writer instead of replaying the captured wait ({"net": WAIT}).
 *
 * The trace does not say who ended a network wait: netpoll readies the
 * reader (GoUnblock) on an M that runs no goroutine. What it does show is
 * each goroutine's write system calls (GoSyscallBegin with a stack through
 * net.(*netFD).Write) and each read's wait (GoBlock "network" with a stack
 * through net.(*netFD).Read: internal/poll's FD.Read got EAGAIN and
 * pd.waitRead parked it, fd_unix.go), from the read syscall that found no
 * data to the wake. The data that ended a wait was written in that window.
 * A reader's candidate partners are the goroutines among the last
 * WINDOW_SCAN writes before the wake in its WINDOWS_SCANNED windows with
 * the fewest writes (none if even its smallest window holds more: the
 * scan would not see it whole), each scored by the share of its waits
 * whose window holds one of that goroutine's writes (per goroutine, by
 * binary search in its writes); at least half, or it is no candidate.
 * Goroutines that are each other's candidates form connections, taken
 * best score sum first, each goroutine in one; where two connections of
 * one goroutine score alike neither is taken (at GOMAXPROCS=1 every
 * goroutine's writes fall in every window: the timing cannot tell them
 * apart), and those goroutines pair with nobody. A reader in no
 * connection pairs with its best-scored candidate that is in none either
 * (a one-way stream), unless two score alike. Each paired wait then pairs
 * with the partner's last write in its window, and both ends name one
 * socket per (writer,
 * reader) pair: net_WRITER_READER, then _2, _3 for more pairs of the same
 * functions, the two directions of a connection under one number, unless
 * that name is taken (the two directions between goroutines of one
 * function, or names joined at an underscore: a_b + c and a + b_c): then
 * the next free number, so that every name is one socket's. Waits with no
 * write of the partner in their window, and the
 * reads of goroutines with no partner (or accepts, connects: not reads),
 * stay {"net": WAIT}. Each paired wait has its own write (the windows of
 * one reader do not overlap), in time order, so a replay's reads and
 * writes of a socket pair one to one (socket.h: a read takes one write's
 * data).
 *
 * Simplifications: a connection is matched by timing, not by file
 * descriptor (the trace has none), and a goroutine that reads and writes
 * sockets is taken to talk to one other goroutine; a write whose data a read took without
 * waiting is not replayed as a write (the read did not wait either); the
 * data is there from the write syscall's start. */
#ifndef GOSIM_IMPORT_NET_H
#define GOSIM_IMPORT_NET_H

#include <stddef.h>
#include <stdint.h>

#define WINDOWS_SCANNED 3 /* a reader's windows whose writers are its candidate partners */
#define WINDOW_SCAN 256   /* the writes looked at back from the wake in each */

/* The first pass's records, in time order: goroutine k's ord-th socket
 * read wait, from lo (its read syscall) to its wake; its ord-th socket
 * write at ns. */
struct net_log {
	struct net_wait { size_t k; long ord; int64_t lo, wake; } *w;
	size_t nw, capw;
	struct net_write { size_t k; long ord; int64_t ns; } *wr;
	size_t nwr, capwr;
};

/* What the second pass writes: goroutine k's ord-th wait reads socket
 * sock, its ord-th write writes it (sorted by k, ord); the sockets' names. */
struct net_pairs {
	struct net_asg { size_t k; long ord; size_t sock; } *rd, *wr;
	size_t nrd, nwr;
	char **names;
	struct net_end { size_t w, r, num; } *ends; /* each socket's writer, reader and number */
	size_t nsock;
};

/* Record a wait, a write; 0, or -1 out of memory. */
int net_log_wait(struct net_log *l, size_t k, long ord, int64_t lo, int64_t wake);
int net_log_write(struct net_log *l, size_t k, long ord, int64_t ns);
void net_log_free(struct net_log *l);

/* The pairs from log l over ng goroutines, fn[k] each one's function name
 * (NULL: not a user goroutine). 0, or -1 out of memory. */
int net_pair(const struct net_log *l, const char *const *fn, size_t ng, struct net_pairs *out);
/* The socket goroutine k's ord-th wait reads, or -1. */
long net_read_sock(const struct net_pairs *p, size_t k, long ord);
/* The sockets goroutine k's ord-th write writes: the first entry's index
 * in p->wr (entries k, ord follow each other), or -1. */
long net_write_first(const struct net_pairs *p, size_t k, long ord);
void net_pairs_free(struct net_pairs *p);

#endif
