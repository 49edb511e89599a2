/* Simulated clients: the loop lock() -> hold (extend(), validity()) -> unlock(), with lock() driven
 * by ext/core/rl_lock.c's rl_acquire_next() over the connection layer of fanout.c. See sim.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static void acquire_step(sim_world *w, sim_client *c, unsigned votes);

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

/* --- The client loop ----------------------------------------------------------------------------- */

static void finish_call(sim_world *w, sim_client *c)
{
	if (rng_chance(&w->rng, w->p.free_p)) {
		client_free_object(w, c); /* the next call is a new object's, on the pool's connections */
	}
	if (--c->calls_left <= 0) {
		c->op = OP_DONE;
		c->timer_gen++;
		return;
	}
	c->op = OP_THINK;
	client_arm(w, c, w->now + rng_range(&w->rng, 0, w->p.think_max));
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
	client_arm(w, c, left > 0 ? at : w->now);
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
	/* validity is what is left from now: rl_validity_ms already took the elapsed time off, so the
	 * hold ends at now + validity = attempt start + ttl - drift (not attempt start + validity). */
	add_hold(w, c, w->f.from_attempt_start ? a->attempt_start : w->now, w->now + a->validity);
	tracef(w, c->id, "c%d WON attempt %lld (token %s, started %.3f): holds until %.3f", c->id,
		(long long) a->attempt, token_short(&c->held, tok), a->attempt_start, w->now + a->validity);
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

void client_drain_done(sim_world *w, sim_client *c)
{
	acquire_step(w, c, 0);
}

/* The fan-out is decided. For extend() and validity(): rl_lock_extend's and rl_lock_validity's
 * arithmetic on its result. */
void client_fan_done(sim_world *w, sim_client *c)
{
	unsigned i, holders = 0;
	int64_t remaining[SIM_MAX_SERVERS];
	double elapsed = w->now - c->fan_start, validity = 0;

	switch (c->op) {
	case OP_LOCK:
		acquire_step(w, c, c->yes);
		return;
	case OP_EXTEND:
		validity = rl_validity_ms(c->extend_ttl, elapsed, w->policy.drift_factor);
		if (c->yes >= w->policy.quorum && validity > 0) {
			w->st.extends_won++;
			add_hold(w, c, w->now, w->now + validity);
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
			add_hold(w, c, w->now, w->now + validity);
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
	client_arm(w, c, w->now + rng_range(&w->rng, 0, w->p.think_max));
}

void client_on_event(sim_world *w, const sim_event *ev)
{
	sim_client *c;

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
	conn_event(w, ev);
}
