/* test_import_net.c: gosim import's pairing of socket reads with their
 * writers (cmd/import_net.h) on hand-built logs: every socket it names is
 * one direction of one goroutine pair, even where two pairs' functions
 * would spell the same name. */
#include <criterion/criterion.h>

#include <string.h>

#include "../cmd/import_net.h"

/* The socket goroutine k's ord-th write writes (its only one), or -1. */
static long write_sock(const struct net_pairs *p, size_t k, long ord)
{
	long i = net_write_first(p, k, ord);
	return i < 0 ? -1 : (long)p->wr[i].sock;
}

static void assert_names_distinct(const struct net_pairs *p)
{
	for (size_t i = 0; i < p->nsock; i++)
		for (size_t j = i + 1; j < p->nsock; j++)
			cr_assert_str_neq(p->names[i], p->names[j], "sockets %zu and %zu share a name", i, j);
}

Test(import_net, two_goroutines_of_one_function_get_a_socket_per_direction)
{
	/* peer 0 waits 10..30 for peer 1's write at 20; peer 1 waits 40..60 for peer 0's at 50 */
	struct net_log l = { 0 };
	cr_assert_eq(net_log_wait(&l, 0, 0, 10, 30), 0);
	cr_assert_eq(net_log_write(&l, 1, 0, 20), 0);
	cr_assert_eq(net_log_wait(&l, 1, 0, 40, 60), 0);
	cr_assert_eq(net_log_write(&l, 0, 0, 50), 0);
	const char *fn[] = { "peer", "peer" };
	struct net_pairs p;
	cr_assert_eq(net_pair(&l, fn, 2, &p), 0);
	cr_assert_eq(p.nsock, 2);
	assert_names_distinct(&p);
	long r0 = net_read_sock(&p, 0, 0), r1 = net_read_sock(&p, 1, 0);
	cr_assert(r0 >= 0 && r1 >= 0 && r0 != r1, "each peer reads its own direction: %ld, %ld", r0, r1);
	cr_assert_eq(write_sock(&p, 1, 0), r0, "peer 1's write ends peer 0's wait");
	cr_assert_eq(write_sock(&p, 0, 0), r1, "peer 0's write ends peer 1's wait");
	cr_assert_str_eq(p.names[r0], "net_peer_peer"); /* readers in goroutine order: peer 0's first */
	cr_assert_str_eq(p.names[r1], "net_peer_peer_2");
	net_pairs_free(&p);
	net_log_free(&l);
}

Test(import_net, functions_that_join_to_one_name_get_two_sockets)
{
	/* a_b (0) writes to c (1), a (2) writes to b_c (3): net_a_b_c both ways of spelling */
	struct net_log l = { 0 };
	cr_assert_eq(net_log_wait(&l, 1, 0, 10, 30), 0);
	cr_assert_eq(net_log_wait(&l, 3, 0, 40, 60), 0);
	cr_assert_eq(net_log_write(&l, 0, 0, 20), 0);
	cr_assert_eq(net_log_write(&l, 2, 0, 50), 0);
	const char *fn[] = { "a_b", "c", "a", "b_c" };
	struct net_pairs p;
	cr_assert_eq(net_pair(&l, fn, 4, &p), 0);
	cr_assert_eq(p.nsock, 2);
	assert_names_distinct(&p);
	cr_assert_neq(net_read_sock(&p, 1, 0), net_read_sock(&p, 3, 0));
	cr_assert_eq(write_sock(&p, 0, 0), net_read_sock(&p, 1, 0));
	cr_assert_eq(write_sock(&p, 2, 0), net_read_sock(&p, 3, 0));
	net_pairs_free(&p);
	net_log_free(&l);
}

Test(import_net, a_reader_pairs_with_its_connection_not_with_a_writer_tied_in_its_windows)
{
	/* handlers 0, 1 and clients 2, 3; connections 0-2 and 1-3. In each of
	 * 3 rounds (at b) handler 1 waits (b, b+10] and sees handler 0's write
	 * at b+3 as well as its client's at b+5 (and client 2's at b+6): the
	 * same count, where the first of a tie (handler 0) was taken, a socket
	 * between two handlers. Handler 0 never sees handler 1's write, so only
	 * 1-3 and 0-2 read each other's writes both ways. */
	struct net_log l = { 0 };
	for (long r = 0; r < 3; r++) {
		int64_t b = 100 * r;
		cr_assert_eq(net_log_wait(&l, 1, r, b, b + 10), 0);
		cr_assert_eq(net_log_wait(&l, 2, r, b + 1, b + 4), 0);
		cr_assert_eq(net_log_wait(&l, 0, r, b + 4, b + 8), 0);
		cr_assert_eq(net_log_wait(&l, 3, r, b + 6, b + 14), 0);
		cr_assert_eq(net_log_write(&l, 0, r, b + 3), 0);
		cr_assert_eq(net_log_write(&l, 3, r, b + 5), 0);
		cr_assert_eq(net_log_write(&l, 2, r, b + 6), 0);
		cr_assert_eq(net_log_write(&l, 1, r, b + 12), 0);
	}
	const char *fn[] = { "handle", "handle", "client", "client" };
	struct net_pairs p;
	cr_assert_eq(net_pair(&l, fn, 4, &p), 0);
	cr_assert_eq(p.nsock, 4);
	for (size_t i = 0; i < p.nsock; i++)
		cr_assert(strcmp(p.names[i], "net_handle_handle") != 0 && strcmp(p.names[i], "net_client_client") != 0,
			  "socket %s joins two goroutines of one side", p.names[i]);
	for (long r = 0; r < 3; r++) {
		cr_assert_eq(net_read_sock(&p, 1, r), write_sock(&p, 3, r), "handler 1 reads client 3's writes");
		cr_assert_eq(net_read_sock(&p, 3, r), write_sock(&p, 1, r), "client 3 reads handler 1's writes");
		cr_assert_eq(net_read_sock(&p, 0, r), write_sock(&p, 2, r), "handler 0 reads client 2's writes");
		cr_assert_eq(net_read_sock(&p, 2, r), write_sock(&p, 0, r), "client 2 reads handler 0's writes");
	}
	net_pairs_free(&p);
	net_log_free(&l);
}
