/* The client's connection layer as ext/rl_fanout.c and ext/rl_conn.c apply it: reuse, close as
 * overdue or open a connection (prepare), stale and expected replies, abandon, the fan-out loop
 * with its per-server timeouts and the call's deadline, the drain during a retry pause. The
 * client loop (client.c) hears back through client_fan_done() and client_drain_done(). */
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

/* --- One connection, client side (rl_conn) ----------------------------------------------------- */

/* What poll() would report on it: a finished or failed connect, replies, the server's reset. */
static int visible(const sim_conn *conn)
{
	if (conn->state == CONN_CONNECTING) {
		return conn->handshake_done || conn->refused;
	}
	return conn->state == CONN_READY && (conn->inbox_len > 0 || conn->reset);
}

static int overdue(const sim_world *w, const sim_conn *conn)
{
	double timeout = w->servers[conn->server].timeout_ms;
	int waiting = conn->state == CONN_CONNECTING || conn_owed(conn) > 0;
	return waiting && timeout > 0 && w->now - conn->waiting_since >= timeout;
}

/* rl_conn_close: what was never written is lost; what was written still reaches the server,
 * whose replies nobody reads. */
static void conn_close(sim_world *w, sim_client *c, unsigned server)
{
	int index = c->conn[server];

	if (index >= 0) {
		sim_conn *conn = &w->conns[index];
		conn->state = CONN_DOWN;
		conn->nunsent = 0;
		conn->inbox_len = 0;
		tracef(w, c->id, "c%d closes conn %d to s%u (stale %u, expected %u)", c->id, index, server,
			conn->stale, conn->expected);
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

/* rl_conn_append: sent at once on a ready socket, held in the output buffer while connecting. */
static void append(sim_world *w, int index, const sim_cmd *cmd)
{
	sim_conn *conn = &w->conns[index];

	if (conn->state == CONN_READY && conn_owed(conn) == 0) {
		conn->waiting_since = w->now;
	}
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

static void abandon(sim_conn *conn)
{
	conn->stale += conn->expected;
	conn->expected = 0;
}

/* rl_conn_next_reply: drops stale replies; 1 with the current call's reply, 0 when none has
 * come, -1 when a reply nobody owes arrived. */
static int next_reply(sim_world *w, sim_conn *conn, sim_reply *reply)
{
	while (conn->inbox_len > 0) {
		*reply = conn->inbox[conn->inbox_head];
		conn->inbox_head = (conn->inbox_head + 1) % conn->capinbox;
		conn->inbox_len--;
		conn->waiting_since = w->now;
		if (conn->stale > 0) {
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

/* take_in_idle: false when the connection must be closed. */
static int take_in_idle(sim_world *w, sim_conn *conn)
{
	sim_reply reply;

	if (conn->reset) {
		return 0;
	}
	if (conn->inbox_len == 0 || conn->expected > 0) {
		return 1;
	}
	return next_reply(w, conn, &reply) == 0;
}

/* rl_fanout.c's prepare(): reuse, close as overdue, or open, then queue the command. */
static void prepare(sim_world *w, sim_client *c, unsigned i, const sim_cmd *cmd, int keep_overdue)
{
	int index = c->conn[i];
	sim_conn *conn = index >= 0 ? &w->conns[index] : NULL;

	if (conn && conn->state == CONN_READY && !visible(conn) && conn_owed(conn) == 0 && conn->nunsent == 0) {
		append(w, index, cmd); /* the usual case: ready and idle */
		return;
	}
	if (conn && conn->state == CONN_READY && !take_in_idle(w, conn)) {
		conn_close(w, c, i);
		conn = NULL;
	}
	if (conn && !(keep_overdue && conn->state == CONN_READY) && overdue(w, conn)) {
		w->st.overdue_closes++;
		tracef(w, c->id, "c%d: conn %d to s%u is overdue (waiting since %.3f)", c->id, index, i, conn->waiting_since);
		conn_close(w, c, i);
		conn = NULL;
	}
	if (conn == NULL) {
		index = conn_open(w, c->id, (int) i);
		c->conn[i] = index;
	}
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

/* rl_fanout_send: queued behind what the connection still carries, replies not awaited. */
void fan_send(sim_world *w, sim_client *c, const sim_cmd *cmd)
{
	unsigned i;

	for (i = 0; i < w->p.servers; i++) {
		prepare(w, c, i, cmd, 1);
		abandon(&w->conns[c->conn[i]]);
	}
}

/* rl_conn_on_events + take_replies for a pending server. */
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
		if (!conn->handshake_done) {
			return;
		}
		conn->state = CONN_READY;
		flush(w, index);
	}
	while (c->outcome[i] == RL_OUTCOME_PENDING) {
		int got = next_reply(w, conn, &reply);
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

/* One turn of rl_fanout_run's loop, repeated while something is already there to read. */
void fan_pump(sim_world *w, sim_client *c)
{
	for (;;) {
		double wait_until = c->fan_deadline;
		unsigned i, polled = 0;
		int any = 0;

		if (!keep_waiting(w, c)) {
			fan_end(w, c);
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			sim_conn *conn;
			double timeout, due;

			if (c->outcome[i] != RL_OUTCOME_PENDING) {
				continue;
			}
			conn = &w->conns[c->conn[i]];
			timeout = w->servers[i].timeout_ms;
			due = timeout > 0 ? conn->waiting_since + timeout : HUGE_VAL;
			if (w->now >= due) {
				if (conn->state == CONN_CONNECTING) {
					conn_close(w, c, i);
				} else {
					abandon(conn); /* keeps the stream: a rollback queues behind the command */
				}
				settle(c, i, RL_OUTCOME_TIMEOUT, 0);
				continue;
			}
			wait_until = fmin(wait_until, due);
			polled++;
		}
		if (polled == 0 || !keep_waiting(w, c)) {
			continue;
		}
		if (w->now >= c->fan_deadline) {
			for (i = 0; i < w->p.servers; i++) {
				if (c->outcome[i] == RL_OUTCOME_PENDING) {
					abandon(&w->conns[c->conn[i]]);
					settle(c, i, RL_OUTCOME_TIMEOUT, 0);
				}
			}
			fan_end(w, c);
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			if (c->outcome[i] == RL_OUTCOME_PENDING && visible(&w->conns[c->conn[i]])) {
				fan_take(w, c, i);
				any = 1;
			}
		}
		if (!any) {
			client_arm(w, c, wait_until);
			return;
		}
	}
}

/* --- The pause between attempts (rl_fanout_drain_until) ---------------------------------------- */

void drain_pump(sim_world *w, sim_client *c)
{
	for (;;) {
		unsigned i;
		int any = 0;

		if (w->now >= c->drain_until) {
			c->draining = 0;
			client_drain_done(w, c);
			return;
		}
		for (i = 0; i < w->p.servers; i++) {
			sim_conn *conn;
			sim_reply reply;

			if (c->conn[i] < 0) {
				continue;
			}
			conn = &w->conns[c->conn[i]];
			if (conn->state == CONN_DOWN || conn->stale == 0) {
				continue;
			}
			if (overdue(w, conn)) {
				w->st.overdue_closes++;
				conn_close(w, c, i);
				continue;
			}
			if (!visible(conn)) {
				continue;
			}
			any = 1;
			if (conn->state == CONN_CONNECTING) {
				if (conn->refused) {
					conn_close(w, c, i);
				} else {
					conn->state = CONN_READY;
					flush(w, c->conn[i]);
				}
				continue;
			}
			if (next_reply(w, conn, &reply) != 0 || conn->reset) {
				conn_close(w, c, i);
			}
		}
		if (!any) {
			client_arm(w, c, c->drain_until);
			return;
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
	if (c->fan_active && c->outcome[conn->server] == RL_OUTCOME_PENDING) {
		fan_pump(w, c);
	} else if (c->draining && conn->stale > 0) {
		drain_pump(w, c);
	}
}
