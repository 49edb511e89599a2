/* Waiting on several connections: the one poll() every caller uses (the fan-out, the renewal
 * thread through it, notified waiting), through rl_wait_poll (a coroutine yields there); and one
 * question asked of several nodes at once (Sentinel, cluster map). See rl_conn.h. */
#include <math.h>

#include "net/rl_conn.h"
#include "net/rl_wait.h"
#include "net/rl_wait_cancel.h"
#include "net/rl_net_private.h"

int rl_conn_poll_timeout(double wait_until, double now)
{
	double left;

	if (wait_until == HUGE_VAL) {
		return -1;
	}
	left = wait_until - now;
	if (left <= 0) {
		return 0;
	}
	if (left > 1e9) {
		return 1000000000; /* poll() takes an int: never past 2^31 ms */
	}
	{
		/* ceil() without the call into libm: a wait is rounded up, never cut short */
		int whole = (int) left;
		return whole < left ? whole + 1 : whole;
	}
}

int rl_conn_poll(rl_pollfd *fds, const size_t *owner, size_t used, const rl_conn *conns, double wait_until,
	double now)
{
	int timeout = rl_conn_poll_timeout(wait_until, now);
	int buffered = 0, ready;
	size_t k;

	if (used == 0) {
		rl_wait_sleep_ms(timeout);
		return 0;
	}
	for (k = 0; k < used; k++) {
		buffered |= rl_conn_buffered(&conns[owner[k]]);
	}
	ready = rl_wait_poll(fds, (unsigned long) used, buffered ? 0 : timeout);
	if (buffered && ready >= 0) {
		ready = 0;
		for (k = 0; k < used; k++) {
			if (rl_conn_buffered(&conns[owner[k]])) {
				fds[k].revents |= POLLIN;
			}
			ready += fds[k].revents != 0;
		}
	}
	return ready;
}

void rl_ask_round_open(rl_ask_round *r, int argc, const char **argv, const size_t *argvlen)
{
	size_t i;

	r->pending = 0;
	for (i = 0; i < r->count; i++) {
		const rl_endpoint *one = &r->asked[i];

		rl_conn_init(&r->conns[i]);
		rl_outcome_reset(&r->said[i]);
		r->asking[i] = 0;
		if (rl_conn_open(&r->conns[i], one, rl_now_ms(), &r->said[i]) != 0) {
			continue;
		}
		if (rl_conn_append_setup(&r->conns[i], one) != 0 || rl_conn_append(&r->conns[i], argc, argv, argvlen) != 0) {
			rl_outcome_set(&r->said[i], RL_OUTCOME_IO, "out of memory");
			continue;
		}
		r->asking[i] = 1;
		r->pending++;
	}
}

void rl_ask_round_done(rl_ask_round *r, size_t i)
{
	r->asking[i] = 0;
	r->pending--;
}

double rl_ask_round_due(const rl_endpoint *endpoints, size_t count, double default_ms, double now,
	double call_deadline, int *cut)
{
	double timeout = 0, due;
	size_t i;

	for (i = 0; i < count; i++) {
		double one = endpoints[i].timeout_ms > 0 ? endpoints[i].timeout_ms : default_ms;
		timeout = one > timeout ? one : timeout;
	}
	due = now + timeout;
	*cut = 0;
	if (call_deadline > 0 && call_deadline < due) {
		due = call_deadline;
		*cut = 1;
	}
	return due;
}

/* One poll of the nodes still asked (those past due time out). 0 to go on, -1 when no node is left
 * to wait for (the poll failed or was cancelled: each such node's reason set). */
static int ask_round_wait(rl_ask_round *r, double due)
{
	rl_pollfd pfds[RL_ASK_ROUND_MAX];
	size_t owner_of[RL_ASK_ROUND_MAX], used = 0, i, k;
	double now = rl_now_ms();
	int ready;

	for (i = 0; i < r->count; i++) {
		if (r->asking[i] && now >= due) {
			rl_outcome_set(&r->said[i], RL_OUTCOME_TIMEOUT,
				r->conns[i].state == RL_CONN_READY ? "timeout" : "connect: timeout");
			rl_ask_round_done(r, i);
		} else if (r->asking[i]) {
			pfds[used].fd = rl_conn_fd(&r->conns[i]);
			pfds[used].events = rl_conn_poll_events(&r->conns[i]);
			pfds[used].revents = 0;
			owner_of[used++] = i;
		}
	}
	if (used == 0) {
		return -1;
	}
	ready = rl_conn_poll(pfds, owner_of, used, r->conns, due, now);
	if (ready < 0 && !rl_poll_interrupted()) {
		for (k = 0; k < used; k++) {
			rl_outcome_set(&r->said[owner_of[k]], RL_OUTCOME_IO,
				rl_wait_cancelled(ready) ? "cancelled: the Fiber or coroutine stopped waiting" : "poll failed");
			rl_ask_round_done(r, owner_of[k]);
		}
		return -1;
	}
	for (k = 0; ready > 0 && k < used; k++) {
		i = owner_of[k];
		if (pfds[k].revents != 0 && rl_conn_on_events(&r->conns[i], &r->asked[i], pfds[k].revents, &r->said[i]) != 0) {
			rl_ask_round_done(r, i);
		}
	}
	return 0;
}

int rl_ask_round_run(rl_ask_round *r, double due, int (*take)(void *ctx, size_t i, const rl_reply *reply), void *ctx)
{
	size_t i;

	while (r->pending > 0) {
		for (i = 0; i < r->count; i++) {
			rl_reply reply;
			int got;

			if (!r->asking[i]) {
				continue;
			}
			got = r->conns[i].state == RL_CONN_READY ? rl_conn_next_reply(&r->conns[i], &reply, &r->said[i]) : 0;
			if (got < 0) {
				rl_ask_round_done(r, i);
			} else if (got == 1) {
				rl_ask_round_done(r, i);
				if (take(ctx, i, &reply) == 0) {
					return 0;
				}
			}
		}
		if (r->pending == 0 || ask_round_wait(r, due) != 0) {
			break;
		}
	}
	return -1;
}
