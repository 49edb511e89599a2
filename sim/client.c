/* Simulated clients: the connection layer's rules as ext/rl_fanout.c and ext/rl_conn.c apply them
 * (prepare, overdue, abandon, stale replies, drain), driven by ext/rl_lock.c's rl_acquire_next(),
 * and the loop lock() -> hold (extend(), validity()) -> unlock(). See sim.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static void acquire_step(sim_world *w, sim_client *c, unsigned votes);
static void fan_pump(sim_world *w, sim_client *c);

/* --- Timers --------------------------------------------------------------------------------- */

/* One live timer per client: arming again cancels the previous one. */
static void arm(sim_world *w, sim_client *c, double at)
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

/* --- Randomness for rl_acquire_next ---------------------------------------------------------- */

struct random_arg {
	sim_world *w;
	sim_client *c;
};

static int sim_random(void *arg, void *into, size_t len)
{
	struct random_arg *r = arg;
	unsigned char *out = into;
	size_t i;

	if (len == RL_TOKEN_BYTES && r->w->f.shared_token && r->c->call_has_token) {
		/* The mutation: the old behaviour, one token for every attempt of a lock() call. */
		memcpy(out, r->c->call_token, len);
		return 0;
	}
	for (i = 0; i < len; i++) {
		out[i] = (unsigned char) (rng_next(&r->w->rng) >> 56);
	}
	if (len == RL_TOKEN_BYTES) {
		memcpy(r->c->call_token, out, len);
		r->c->call_has_token = 1;
	}
	return 0;
}

static sim_token token_parse(const char *hex)
{
	sim_token token = {{0, 0}};
	int i;

	for (i = 0; i < RL_TOKEN_LEN; i++) {
		char ch = hex[i];
		uint64_t nibble = (uint64_t) (ch <= '9' ? ch - '0' : ch - 'a' + 10);
		token.w[i / 16] = token.w[i / 16] << 4 | nibble;
	}
	return token;
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

static void fan_begin(sim_world *w, sim_client *c, const sim_cmd *cmd, double deadline)
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
static void fan_send(sim_world *w, sim_client *c, const sim_cmd *cmd)
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

static void fan_end(sim_world *w, sim_client *c);

/* One turn of rl_fanout_run's loop, repeated while something is already there to read. */
static void fan_pump(sim_world *w, sim_client *c)
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
			arm(w, c, wait_until);
			return;
		}
	}
}

/* --- The pause between attempts (rl_fanout_drain_until) ---------------------------------------- */

static void drain_pump(sim_world *w, sim_client *c)
{
	for (;;) {
		unsigned i;
		int any = 0;

		if (w->now >= c->drain_until) {
			c->draining = 0;
			acquire_step(w, c, 0);
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
			arm(w, c, c->drain_until);
			return;
		}
	}
}

/* --- The client loop ----------------------------------------------------------------------------- */

static void finish_call(sim_world *w, sim_client *c)
{
	if (--c->calls_left <= 0) {
		c->op = OP_DONE;
		c->timer_gen++;
		return;
	}
	c->op = OP_THINK;
	arm(w, c, w->now + rng_range(&w->rng, 0, w->p.think_max));
}

static void plan_hold(sim_world *w, sim_client *c)
{
	double left = c->hold_end - w->now;
	double at = w->now + rng_unit(&w->rng) * (left > 0 ? left : 0);

	c->op = OP_HOLD;
	if (left > 0 && c->extends_left > 0 && rng_chance(&w->rng, w->p.extend_p)) {
		c->extends_left--;
		c->hold_action = HOLD_EXTEND;
	} else if (left > 0 && c->extends_left > 0 && rng_chance(&w->rng, w->p.validity_p)) {
		c->extends_left--;
		c->hold_action = HOLD_VALIDITY;
	} else {
		c->hold_action = HOLD_RELEASE;
		if (rng_chance(&w->rng, 0.4)) {
			at = c->hold_end; /* uses every ms it was promised */
		}
	}
	arm(w, c, left > 0 ? at : w->now);
}

static void add_hold(sim_world *w, sim_client *c, double start, double end)
{
	if (c->nseg < (int) (sizeof(c->seg) / sizeof(c->seg[0]))) {
		c->seg[c->nseg++] = segment_add(w, c->id, start, end);
	}
	if (end > c->hold_end) {
		c->hold_end = end;
	}
}

static void won(sim_world *w, sim_client *c)
{
	const rl_acquire *a = &c->acquire;
	char tok[9];

	w->st.wins++;
	c->held = token_parse(a->token);
	c->nseg = 0;
	c->hold_end = 0;
	c->extends_left = 3;
	c->will_unlock = !rng_chance(&w->rng, w->p.no_unlock_p);
	add_hold(w, c, w->f.from_attempt_start ? a->attempt_start : w->now, a->attempt_start + a->validity);
	tracef(w, c->id, "c%d WON attempt %lld (token %s, started %.3f): holds until %.3f", c->id,
		(long long) a->attempt, token_short(&c->held, tok), a->attempt_start, a->attempt_start + a->validity);
	plan_hold(w, c);
}

static void acquire_step(sim_world *w, sim_client *c, unsigned votes)
{
	for (;;) {
		struct random_arg arg = {w, c};
		rl_acquire_step step = rl_acquire_next(&c->acquire, w->now, votes, sim_random, &arg);
		sim_cmd cmd = {0};

		cmd.attempt = (int32_t) c->acquire.attempt;
		cmd.call = c->call;
		cmd.token = token_parse(c->acquire.token);
		cmd.px = c->ttl;
		switch (step) {
		case RL_STEP_SEND_LOCK:
			w->st.attempts++;
			cmd.op = CMD_SET, cmd.purpose = FOR_LOCK;
			c->op = OP_LOCK;
			fan_begin(w, c, &cmd, c->acquire.step_deadline);
			return;
		case RL_STEP_SEND_RELEASE:
			tracef(w, c->id, "c%d lost attempt %d with %u votes: rollback", c->id, cmd.attempt, votes);
			cmd.op = CMD_UNLOCK, cmd.purpose = FOR_ROLLBACK; /* EVAL: no NOSCRIPT round trip */
			fan_send(w, c, &cmd);
			votes = 0;
			continue;
		case RL_STEP_PAUSE:
			c->op = OP_PAUSE;
			c->draining = 1;
			c->drain_until = c->acquire.step_deadline;
			drain_pump(w, c);
			return;
		case RL_STEP_WON:
			won(w, c);
			return;
		default:
			w->st.losses++;
			finish_call(w, c);
			return;
		}
	}
}

static void start_call(sim_world *w, sim_client *c)
{
	c->call++;
	c->call_has_token = 0;
	c->ttl = w->p.ttl_lo + (int64_t) rng_below(&w->rng, (unsigned) (w->p.ttl_hi - w->p.ttl_lo + 1));
	rl_acquire_init(&c->acquire, &w->policy, c->ttl);
	w->st.calls++;
	acquire_step(w, c, 0);
}

static void hold_action(sim_world *w, sim_client *c)
{
	sim_cmd cmd = {0};

	cmd.token = c->held;
	cmd.by_sha = 1;
	cmd.attempt = (int32_t) c->acquire.attempt;
	cmd.call = c->call;
	if (c->hold_action == HOLD_EXTEND) {
		c->op = OP_EXTEND;
		c->extend_ttl = w->p.ttl_lo + (int64_t) rng_below(&w->rng, (unsigned) (w->p.ttl_hi - w->p.ttl_lo + 1));
		cmd.op = CMD_EXTEND, cmd.purpose = FOR_EXTEND, cmd.px = c->extend_ttl;
		w->st.extends++;
		fan_begin(w, c, &cmd, w->now + fmin((double) c->extend_ttl, w->policy.call_bound_ms));
		return;
	}
	if (c->hold_action == HOLD_VALIDITY) {
		c->op = OP_VALIDITY;
		cmd.op = CMD_VALIDITY, cmd.purpose = FOR_VALIDITY;
		w->st.validities++;
		fan_begin(w, c, &cmd, w->now + w->policy.call_bound_ms);
		return;
	}
	segments_clip(w, c, w->now); /* stops using it before the keys may go */
	if (!c->will_unlock) {
		finish_call(w, c);
		return;
	}
	c->op = OP_UNLOCK;
	cmd.op = CMD_UNLOCK, cmd.purpose = FOR_UNLOCK;
	w->st.unlocks++;
	fan_begin(w, c, &cmd, w->now + w->policy.call_bound_ms);
}

/* rl_lock_extend's and rl_lock_validity's arithmetic on the fan-out's result. */
static void fan_end(sim_world *w, sim_client *c)
{
	unsigned i, holders = 0;
	int64_t remaining[SIM_MAX_SERVERS];
	double elapsed = w->now - c->fan_start, validity = 0;

	for (i = 0; i < w->p.servers; i++) {
		if (c->outcome[i] == RL_OUTCOME_PENDING) {
			abandon(&w->conns[c->conn[i]]);
		}
	}
	c->fan_active = 0;
	c->timer_gen++;
	switch (c->op) {
	case OP_LOCK:
		acquire_step(w, c, c->yes);
		return;
	case OP_EXTEND:
		validity = rl_validity_ms(c->extend_ttl, elapsed, w->policy.drift_factor);
		if (c->yes >= w->policy.quorum && validity > 0) {
			w->st.extends_won++;
			add_hold(w, c, w->now, c->fan_start + validity);
		}
		plan_hold(w, c);
		return;
	case OP_VALIDITY:
		for (i = 0; i < w->p.servers; i++) {
			if (c->outcome[i] == RL_OUTCOME_YES) {
				remaining[holders++] = c->outcome_int[i];
			}
		}
		remaining[0] = rl_quorum_pttl(remaining, holders, w->policy.quorum);
		if (remaining[0] > 0 && (validity = rl_validity_ms(remaining[0], elapsed, w->policy.drift_factor)) > 0) {
			w->st.validities_won++;
			add_hold(w, c, w->now, c->fan_start + validity);
		}
		plan_hold(w, c);
		return;
	default:
		finish_call(w, c);
		return;
	}
}

void client_start(sim_world *w, int id)
{
	sim_client *c = &w->clients[id];
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->id = id;
	for (i = 0; i < SIM_MAX_SERVERS; i++) {
		c->conn[i] = -1;
	}
	c->calls_left = w->p.calls_per_client;
	c->op = OP_THINK;
	arm(w, c, w->now + rng_range(&w->rng, 0, w->p.think_max));
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

void client_on_event(sim_world *w, const sim_event *ev)
{
	sim_client *c;
	sim_conn *conn;

	if (ev->kind == EV_TIMER) {
		c = &w->clients[ev->a];
		if (ev->gen != c->timer_gen) {
			return;
		}
		if (c->fan_active) {
			fan_pump(w, c);
		} else if (c->draining) {
			drain_pump(w, c);
		} else if (c->op == OP_THINK) {
			start_call(w, c);
		} else if (c->op == OP_HOLD) {
			hold_action(w, c);
		}
		return;
	}
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
	/* Acted on now only if the client is polling this connection; otherwise it waits there. */
	if (c->fan_active && c->outcome[conn->server] == RL_OUTCOME_PENDING) {
		fan_pump(w, c);
	} else if (c->draining && conn->stale > 0) {
		drain_pump(w, c);
	}
}
