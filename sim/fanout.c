/* The client's connection layer as ext/net/rl_conn.c, ext/net/rl_fanout.c and ext/net/rl_pool.c apply it (main
 * after the rewrite): rl_conn_begin_call decides at a call's start whether a connection is reused,
 * closed (stale replies overdue) or opened; each call's deadline on a server runs from its first
 * byte; stale replies are due by stale_deadline; a rollback queues behind a silent SET; the
 * fan-out polls before it judges timeouts; the retry pause closes what is overdue; a freed object's
 * connections go to the per-process pool with their debt. The client loop (client.c) hears back
 * through client_fan_done() and client_drain_done(). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* --- Timers --------------------------------------------------------------------------------- */

/* One live timer per client: arming again cancels the previous one. */
void client_arm(sim_world *w, sim_client *c, double at)
{
	sim_event ev = {0};

	c->timer_gen++;
	if (at == HUGE_VAL) {
		return;
	}
	ev.kind = EV_TIMER;
	ev.a = c->id;
	ev.gen = c->timer_gen;
	ev.at = at < w->now ? w->now : at;
	world_push(w, &ev);
}

/* When a poll() made now to wait until `until` returns without events: rl_fanout.c's
 * poll_timeout() rounds the wait up to whole ms. */
static double poll_wake(const sim_world *w, double until)
{
	return until == HUGE_VAL ? HUGE_VAL : w->now + fmax(0, ceil(until - w->now));
}

/* --- One connection, client side (rl_conn) ----------------------------------------------------- */

/* What poll() would report on it: a finished or failed connect, replies, the server's reset. For
 * a READY connection this is also probe_idle()'s `seen` (rl_fanout.c). */
static int visible(const sim_conn *conn)
{
	if (conn->state == CONN_CONNECTING) {
		return conn->handshake_done || conn->refused;
	}
	return conn->state == CONN_READY && (conn->inbox_len > 0 || conn->reset);
}

static double call_deadline(const sim_world *w, unsigned server)
{
	double timeout = w->servers[server].timeout_ms;
	return timeout > 0 ? w->now + timeout : HUGE_VAL;
}

/* rl_conn_close: what was never written is lost; what was written still reaches the server,
 * whose replies nobody reads. */
static void conn_close(sim_world *w, sim_client *c, unsigned server)
{
	int index = c->conn[server];

	if (index >= 0) {
		sim_conn *conn = &w->conns[index];
		tracef(w, c->id, "c%d closes conn %d to s%u (stale %u, expected %u)", c->id, index, server,
			conn->stale, conn->expected);
		conn->state = CONN_DOWN;
		conn->nunsent = 0;
		conn->inbox_len = 0;
		conn->stale = conn->expected = 0; /* reset_stream */
		conn->stale_deadline = HUGE_VAL;
	}
	c->conn[server] = -1;
}

static void flush(sim_world *w, int index)
{
	sim_conn *conn = &w->conns[index];
	int k;

	if (conn->state != CONN_READY) {
		return;
	}
	for (k = 0; k < conn->nunsent; k++) {
		conn_send(w, index, &conn->unsent[k]);
	}
	conn->nunsent = 0;
}

/* rl_conn_append_encoded: sent at once on a ready socket, held in the output buffer otherwise. */
static void append(sim_world *w, int index, const sim_cmd *cmd)
{
	sim_conn *conn = &w->conns[index];

	if (conn->state == CONN_READY && conn->nunsent == 0) {
		conn_send(w, index, cmd);
	} else {
		if (conn->nunsent == conn->capunsent) {
			conn->capunsent = conn->capunsent ? 2 * conn->capunsent : 8;
			conn->unsent = realloc(conn->unsent, (size_t) conn->capunsent * sizeof(*conn->unsent));
			if (conn->unsent == NULL) {
				sim_bug(w, "out of memory");
			}
		}
		conn->unsent[conn->nunsent++] = *cmd;
	}
	conn->expected++;
}

/* rl_conn_abandon: what the call still expected turns stale, due by the call's deadline. */
static void abandon(sim_conn *conn)
{
	if (conn->expected > 0 && conn->deadline < conn->stale_deadline) {
		conn->stale_deadline = conn->deadline;
	}
	conn->stale += conn->expected;
	conn->expected = 0;
}

/* rl_conn_next_reply + rl_conn_sort_reply: drops stale replies (the last one clears
 * stale_deadline); 1 with the current call's reply, 0 when none has come, -1 when a reply
 * nobody owes arrived. */
static int next_reply(sim_conn *conn, sim_reply *reply)
{
	while (conn->inbox_len > 0) {
		*reply = conn->inbox[conn->inbox_head];
		conn->inbox_head = (conn->inbox_head + 1) % conn->capinbox;
		conn->inbox_len--;
		if (conn->stale > 0) {
			if (conn->stale == 1) {
				conn->stale_deadline = HUGE_VAL;
			}
			conn->stale--;
			continue;
		}
		if (conn->expected == 0) {
			return -1;
		}
		conn->expected--;
		return 1;
	}
	return 0;
}

/* rl_conn.c's take_in_idle: false when the connection must be closed (the server's end of file,
 * read after the replies before it, or a reply nobody owes). */
static int take_in_idle(sim_conn *conn)
{
	sim_reply reply;

	if (conn->expected > 0) {
		return !conn->reset;
	}
	return next_reply(conn, &reply) == 0 && !conn->reset;
}

/* rl_conn_begin_call: takes in what arrived, closes a connection whose server closed it, that is
 * out of step, or whose stale replies are overdue; then this call's deadline on it. */
static void begin_call(sim_world *w, sim_client *c, unsigned i)
{
	sim_conn *conn = &w->conns[c->conn[i]];

	if (conn->state == CONN_READY && !take_in_idle(conn)) {
		conn_close(w, c, i);
		return;
	}
	if (conn->stale > 0 && w->now >= conn->stale_deadline) {
		w->st.overdue_closes++;
		tracef(w, c->id, "c%d: conn %d to s%u owes %u stale replies, due since %.3f: closed", c->id, c->conn[i],
			i, conn->stale, conn->stale_deadline);
		conn_close(w, c, i);
		return;
	}
	conn->deadline = call_deadline(w, i);
}

/* --- The per-process pool (rl_pool.c; rl_cluster_destroy) -------------------------------------- */

/* rl_cluster_destroy: flush, then rl_pool_checkin, which never waits: a READY connection goes in
 * with what it still owes; a connecting one is closed. */
void client_free_object(sim_world *w, sim_client *c)
{
	unsigned i;

	w->st.frees++;
	tracef(w, c->id, "c%d frees its object: connections to the pool", c->id);
	for (i = 0; i < w->p.servers; i++) {
		int index = c->conn[i];

		if (index < 0) {
			continue;
		}
		flush(w, index);
		if (w->conns[index].state != CONN_READY) {
			w->st.pool_discarded++;
			conn_close(w, c, i);
			continue;
		}
		if (c->npool == SIM_POOL_MAX) { /* the oldest goes (64 in ext/: not reached here) */
			w->conns[c->pool[0]].state = CONN_DOWN;
			w->conns[c->pool[0]].nunsent = w->conns[c->pool[0]].inbox_len = 0;
			memmove(&c->pool[0], &c->pool[1], (SIM_POOL_MAX - 1) * sizeof(c->pool[0]));
			c->npool--;
			w->st.pool_discarded++;
		}
		c->pool[c->npool++] = index;
		c->conn[i] = -1;
	}
}

/* rl_pool_checkout: the newest pooled connection to that server that rl_conn_begin_call keeps. */
static void pool_checkout(sim_world *w, sim_client *c, unsigned i)
{
	int k;

	for (k = c->npool - 1; k >= 0; k--) {
		int index = c->pool[k];

		if (w->conns[index].server != (int) i) {
			continue;
		}
		memmove(&c->pool[k], &c->pool[k + 1], (size_t) (c->npool - k - 1) * sizeof(c->pool[0]));
		c->npool--;
		c->conn[i] = index;
		begin_call(w, c, i);
		if (c->conn[i] < 0) {
			w->st.pool_discarded++;
			continue;
		}
		w->st.pool_reused++;
		tracef(w, c->id, "c%d takes conn %d to s%u from the pool (stale %u)", c->id, index, i, w->conns[index].stale);
		return;
	}
}

/* rl_fanout.c's prepare(). queue_behind_silent (rl_fanout_send): on a READY connection the
 * rollback queues behind whatever is owed, however late, instead of rl_conn_begin_call. */
static void prepare(sim_world *w, sim_client *c, unsigned i, const sim_cmd *cmd, int queue_behind_silent)
{
	int index = c->conn[i];
	sim_conn *conn = index >= 0 ? &w->conns[index] : NULL;

	if (conn && conn->state == CONN_READY && !visible(conn) && conn_owed(conn) == 0 && conn->nunsent == 0) {
		conn->deadline = call_deadline(w, i); /* the usual case: ready and idle */
		append(w, index, cmd);
		return;
	}
	if (queue_behind_silent && conn && conn->state == CONN_READY) {
		conn->deadline = call_deadline(w, i);
		if (conn_owed(conn) > 0) {
			w->st.queued_behind++;
		}
	} else {
		if (conn) {
			begin_call(w, c, i);
		}
		if (c->conn[i] < 0) {
			pool_checkout(w, c, i);
		}
	}
	if (c->conn[i] < 0) {
		sim_cmd greeting = *cmd;

		index = conn_open(w, c->id, (int) i);
		c->conn[i] = index;
		conn = &w->conns[index];
		conn->deadline = call_deadline(w, i);
		greeting.op = CMD_LOAD, greeting.purpose = FOR_GREETING, greeting.by_sha = 0;
		append(w, index, &greeting);
		abandon(conn); /* the greeting's replies: due by this call's deadline */
	}
	index = c->conn[i];
	append(w, index, cmd);
	flush(w, index);
}

/* --- The fan-out (rl_fanout_run) --------------------------------------------------------------- */

static void settle(sim_client *c, unsigned i, int kind, int64_t value)
{
	c->outcome[i] = (uint8_t) kind;
	c->outcome_int[i] = value;
	c->answered++;
	if (kind == RL_OUTCOME_YES) {
		c->yes++;
	}
}

/* keep_waiting() with wait_all 0 (no caller in ext/ sets it). */
static int keep_waiting(const sim_world *w, const sim_client *c)
{
	return rl_quorum_decide(c->yes, c->answered, w->p.servers, w->policy.quorum) == RL_QUORUM_UNDECIDED;
}

void fan_begin(sim_world *w, sim_client *c, const sim_cmd *cmd, double deadline)
{
	unsigned i;

	c->fan_active = 1;
	c->fan_cmd = *cmd;
	c->yes = c->answered = 0;
	c->fan_deadline = deadline;
	c->fan_start = w->now;
	for (i = 0; i < w->p.servers; i++) {
		c->outcome[i] = RL_OUTCOME_PENDING;
		prepare(w, c, i, cmd, 0);
	}
	fan_pump(w, c);
}

/* rl_fanout_send: queued, replies not awaited (abandoned at once). */
void fan_send(sim_world *w, sim_client *c, const sim_cmd *cmd)
{
	unsigned i;

	for (i = 0; i < w->p.servers; i++) {
		prepare(w, c, i, cmd, 1);
		abandon(&w->conns[c->conn[i]]);
	}
}

/* rl_conn_on_events + take_replies for a pending server that poll() reported. */
static void fan_take(sim_world *w, sim_client *c, unsigned i)
{
	int index = c->conn[i];
	sim_conn *conn = &w->conns[index];
	sim_reply reply;

	if (conn->state == CONN_CONNECTING) {
		if (conn->refused) {
			conn_close(w, c, i);
			settle(c, i, RL_OUTCOME_CONNECT, 0);
			return;
		}
		conn->state = CONN_READY;
		flush(w, index);
	}
	while (c->outcome[i] == RL_OUTCOME_PENDING) {
		int got = next_reply(conn, &reply);
		int yes;

		if (got == 0 && !conn->reset) {
			return;
		}
		if (got <= 0) {
			conn_close(w, c, i); /* out of step, or the server's end is gone */
			settle(c, i, RL_OUTCOME_IO, 0);
			return;
		}
		if (reply.kind == REPLY_NOSCRIPT && c->fan_cmd.by_sha) {
			sim_cmd fallback = c->fan_cmd;
			fallback.by_sha = 0; /* EVAL, on the same stream */
			append(w, index, &fallback);
			continue;
		}
		yes = c->fan_cmd.op == CMD_SET ? reply.kind == REPLY_OK : reply.kind == REPLY_INT && reply.value > 0;
		settle(c, i, yes ? RL_OUTCOME_YES : RL_OUTCOME_TAKEN, reply.value);
	}
}

/* rl_fanout.c's settle_overdue(): run only after a poll() has looked at every pending socket. */
static void settle_overdue(sim_world *w, sim_client *c)
{
	unsigned i;

	for (i = 0; i < w->p.servers; i++) {
		sim_conn *conn;

		if (c->outcome[i] != RL_OUTCOME_PENDING) {
			continue;
		}
		conn = &w->conns[c->conn[i]];
		if (w->now >= conn->deadline) {
			if (conn->state != CONN_READY) {
				conn_close(w, c, i); /* connect: timeout */
			} else {
				abandon(conn); /* keeps the stream: a rollback queues behind the command */
			}
			settle(c, i, RL_OUTCOME_TIMEOUT, 0);
		} else if (w->now >= c->fan_deadline) {
			abandon(conn);
			settle(c, i, RL_OUTCOME_TIMEOUT, 0);
		}
	}
}

/* The call is decided: what is still pending turns stale, and the client carries on. */
static void fan_end(sim_world *w, sim_client *c)
{
	unsigned i;

	for (i = 0; i < w->p.servers; i++) {
		if (c->outcome[i] == RL_OUTCOME_PENDING) {
			abandon(&w->conns[c->conn[i]]);
		}
	}
	c->fan_active = 0;
	c->timer_gen++;
	client_fan_done(w, c);
}

/* rl_fanout_run's loop from its poll(): called when the poll would return (an event on a pending
 * connection, or the timer at its timeout) and right after the commands are queued. */
void fan_pump(sim_world *w, sim_client *c)
{
	while (keep_waiting(w, c)) {
		double wait_until = c->fan_deadline;
		unsigned i, polled = 0;
		int any = 0;

		for (i = 0; i < w->p.servers; i++) {
			if (c->outcome[i] == RL_OUTCOME_PENDING) {
				wait_until = fmin(wait_until, w->conns[c->conn[i]].deadline);
				any |= visible(&w->conns[c->conn[i]]);
				polled++;
			}
		}
		if (polled == 0) {
			break;
		}
		if (!any && w->now < poll_wake(w, wait_until)) {
			client_arm(w, c, poll_wake(w, wait_until)); /* blocked in poll() */
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			if (c->outcome[i] == RL_OUTCOME_PENDING && visible(&w->conns[c->conn[i]])) {
				fan_take(w, c, i);
			}
		}
		if (keep_waiting(w, c)) {
			settle_overdue(w, c);
		}
	}
	fan_end(w, c);
}

/* --- The pause between attempts (rl_fanout_drain_until) ---------------------------------------- */

/* Whether the drain polls this connection: open and owing something. */
static int drained(const sim_conn *conn)
{
	return conn->state != CONN_DOWN && conn_owed(conn) + (conn->nunsent > 0) > 0;
}

void drain_pump(sim_world *w, sim_client *c)
{
	for (;;) {
		double wait_until = c->drain_until;
		unsigned i;
		int any = 0;

		if (w->now >= c->drain_until) {
			c->draining = 0;
			client_drain_done(w, c);
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			sim_conn *conn;

			if (c->conn[i] < 0 || !drained(conn = &w->conns[c->conn[i]])) {
				continue;
			}
			if (w->now >= conn->stale_deadline) {
				w->st.overdue_closes++;
				tracef(w, c->id, "c%d: conn %d to s%u owes %u stale replies, due since %.3f: closed in the pause",
					c->id, c->conn[i], i, conn->stale, conn->stale_deadline);
				conn_close(w, c, i); /* safe: every attempt has a token of its own */
				continue;
			}
			wait_until = fmin(wait_until, conn->stale_deadline);
			any |= visible(conn);
		}
		if (!any && w->now < poll_wake(w, wait_until)) {
			client_arm(w, c, poll_wake(w, wait_until));
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			sim_conn *conn;
			sim_reply reply;

			if (c->conn[i] < 0 || !drained(conn = &w->conns[c->conn[i]]) || !visible(conn)) {
				continue;
			}
			if (conn->state == CONN_CONNECTING) {
				if (conn->refused) {
					conn_close(w, c, i);
					continue;
				}
				conn->state = CONN_READY;
				flush(w, c->conn[i]);
			}
			if (next_reply(conn, &reply) != 0 || conn->reset) { /* rl_conn_drop_stale */
				conn_close(w, c, i);
			}
		}
	}
}

/* Doubles the ring, unwrapping it. */
static void inbox_grow(sim_world *w, sim_conn *conn)
{
	int cap = conn->capinbox ? 2 * conn->capinbox : 8, k;
	sim_reply *ring = malloc((size_t) cap * sizeof(*ring));

	if (ring == NULL) {
		sim_bug(w, "out of memory");
	}
	for (k = 0; k < conn->inbox_len; k++) {
		ring[k] = conn->inbox[(conn->inbox_head + k) % conn->capinbox];
	}
	free(conn->inbox);
	conn->inbox = ring;
	conn->capinbox = cap;
	conn->inbox_head = 0;
}

/* A connection event: recorded on the connection, acted on at once only if the client is
 * polling that connection (as poll() would wake it); otherwise it waits there. */
void conn_event(sim_world *w, const sim_event *ev)
{
	sim_client *c;
	sim_conn *conn;

	conn = &w->conns[ev->a];
	if (conn->state == CONN_DOWN) {
		return; /* closed by the client: whatever comes is discarded */
	}
	switch (ev->kind) {
	case EV_CONNECTED:
		conn->handshake_done = 1;
		break;
	case EV_REFUSED:
		conn->refused = 1;
		break;
	case EV_RESET:
		conn->reset = 1;
		break;
	case EV_CLIENT_RECV:
		if (conn->inbox_len == conn->capinbox) {
			inbox_grow(w, conn);
		}
		conn->inbox[(conn->inbox_head + conn->inbox_len++) % conn->capinbox] = ev->u.reply;
		break;
	}
	c = &w->clients[conn->client];
	if (c->conn[conn->server] != ev->a) {
		return; /* in the pool: waits there until checked out */
	}
	if (c->fan_active && c->outcome[conn->server] == RL_OUTCOME_PENDING) {
		fan_pump(w, c);
	} else if (c->draining && drained(conn)) {
		drain_pump(w, c);
	}
}
