/* The simulated world: PRNG, event queue, Redis servers and the links to them. See sim.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* --- PRNG ------------------------------------------------------------------------------------ */

uint64_t sim_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(sim_rng *rng, uint64_t seed)
{
	int i;
	for (i = 0; i < 4; i++) {
		rng->s[i] = sim_splitmix(&seed);
	}
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(sim_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_unit(sim_rng *rng)
{
	return (double) (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

double rng_range(sim_rng *rng, double lo, double hi)
{
	return lo + (hi - lo) * rng_unit(rng);
}

int rng_chance(sim_rng *rng, double p)
{
	return rng_unit(rng) < p;
}

unsigned rng_below(sim_rng *rng, unsigned n)
{
	return n ? (unsigned) ((rng_next(rng) >> 32) * n >> 32) : 0;
}

/* --- Event queue: a binary heap on (time, sequence), so equal times keep their push order ---- */

static int before(const sim_event *x, const sim_event *y)
{
	return x->at < y->at || (x->at == y->at && x->seq < y->seq);
}

void world_push(sim_world *w, const sim_event *ev)
{
	size_t i;

	if (w->nheap == w->capheap) {
		w->capheap = w->capheap ? 2 * w->capheap : 1024;
		w->heap = realloc(w->heap, w->capheap * sizeof(*w->heap));
		if (w->heap == NULL) {
			abort();
		}
	}
	i = w->nheap++;
	w->heap[i] = *ev;
	w->heap[i].seq = w->seq++;
	while (i > 0 && before(&w->heap[i], &w->heap[(i - 1) / 2])) {
		sim_event tmp = w->heap[i];
		w->heap[i] = w->heap[(i - 1) / 2];
		w->heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

int world_pop(sim_world *w, sim_event *ev)
{
	size_t i = 0;

	if (w->nheap == 0) {
		return 0;
	}
	*ev = w->heap[0];
	w->heap[0] = w->heap[--w->nheap];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < w->nheap && before(&w->heap[l], &w->heap[m])) {
			m = l;
		}
		if (r < w->nheap && before(&w->heap[r], &w->heap[m])) {
			m = r;
		}
		if (m == i) {
			break;
		}
		sim_event tmp = w->heap[i];
		w->heap[i] = w->heap[m];
		w->heap[m] = tmp;
		i = m;
	}
	w->now = ev->at;
	return 1;
}

void sim_bug(const sim_world *w, const char *what)
{
	fflush(stdout);
	fprintf(stderr, "simulation bug in schedule 0x%016llx at %.3f ms: %s\n", (unsigned long long) w->seed, w->now, what);
	abort();
}

/* --- Trace ------------------------------------------------------------------------------------- */

void tracef(sim_world *w, int client, const char *fmt, ...)
{
	va_list ap;
	sim_trace_line *line;

	if (!w->f.trace) {
		return;
	}
	if (w->ntrace == w->captrace) {
		w->captrace = w->captrace ? 2 * w->captrace : 4096;
		w->trace = realloc(w->trace, w->captrace * sizeof(*w->trace));
		if (w->trace == NULL) {
			abort();
		}
	}
	line = &w->trace[w->ntrace++];
	line->at = w->now;
	line->client = client;
	line->marked = fmt[0] == '!';
	va_start(ap, fmt);
	vsnprintf(line->text, sizeof(line->text), fmt, ap);
	va_end(ap);
}

const char *token_short(const sim_token *token, char out[9])
{
	snprintf(out, 9, "%08x", (unsigned) (token->w[0] >> 32));
	return out;
}

static const char *op_name(const sim_cmd *cmd)
{
	static const char *const names[] = {"SET NX PX", "rollback", "unlock", "extend", "validity", "SCRIPT LOAD"};
	return names[cmd->purpose];
}

/* --- World ------------------------------------------------------------------------------------- */

void world_init(sim_world *w, uint64_t seed, const sim_params *p, const sim_flags *f)
{
	sim_event *heap = w->heap;
	sim_conn *conns = w->conns;
	sim_segment *segs = w->segs;
	sim_trace_line *trace = w->trace;
	size_t capheap = w->capheap, capconns = w->capconns, capsegs = w->capsegs, captrace = w->captrace;
	size_t usedconns = w->usedconns;
	unsigned i;

	/* Keeps the buffers of the previous schedule: a run is millions of schedules. */
	memset(w, 0, sizeof(*w));
	w->heap = heap, w->capheap = capheap;
	w->conns = conns, w->capconns = capconns, w->usedconns = usedconns;
	w->segs = segs, w->capsegs = capsegs;
	w->trace = trace, w->captrace = captrace;
	w->seed = seed;
	w->p = *p;
	w->f = *f;
	rng_seed(&w->rng, seed ^ 0x5eed5eed5eedULL);
	for (i = 0; i < p->servers; i++) {
		sim_server *s = &w->servers[i];
		/* Clock rates anywhere within the default drift factor, and often at its edge. */
		double drift = RL_DEFAULT_DRIFT_FACTOR;
		s->rate = rng_chance(&w->rng, 0.3) ? 1.0 + drift : rng_range(&w->rng, 1.0 - drift, 1.0 + drift);
		s->offset = rng_range(&w->rng, 0, 1e6);
		s->timeout_ms = rng_chance(&w->rng, 0.5) ? rng_range(&w->rng, 1, 10) : rng_range(&w->rng, 5, 80);
		if (rng_chance(&w->rng, 0.05)) {
			s->timeout_ms = 0; /* "no limit": never overdue, only the call's deadline bounds it */
		}
		/* rl_cluster_call_bound: the largest timeout, "no limit" counting as 1000 ms */
		if ((s->timeout_ms > 0 ? s->timeout_ms : RL_DEFAULT_CALL_BOUND_MS) > w->call_bound) {
			w->call_bound = s->timeout_ms > 0 ? s->timeout_ms : RL_DEFAULT_CALL_BOUND_MS;
		}
	}
}

void world_free(sim_world *w)
{
	size_t i;

	for (i = 0; i < w->usedconns; i++) {
		free(w->conns[i].unsent);
		free(w->conns[i].inbox);
	}
	free(w->heap);
	free(w->conns);
	free(w->segs);
	free(w->trace);
	memset(w, 0, sizeof(*w));
}

static void place_windows(sim_world *w, sim_window *out, int *count, double span, double lo, double hi, int max)
{
	int i, n = (int) rng_below(&w->rng, (unsigned) max + 1);

	for (i = 0; i < n && i < SIM_MAX_WINDOWS; i++) {
		out[i].from = rng_range(&w->rng, 0, span);
		out[i].to = out[i].from + rng_range(&w->rng, lo, hi);
	}
	*count = i;
}

void world_schedule_faults(sim_world *w, double span)
{
	double ttl = (double) w->p.ttl_hi;
	unsigned i;
	int k;

	for (i = 0; i < w->p.servers; i++) {
		sim_server *s = &w->servers[i];
		/* Without persistence a restart must wait out every key it may have held (Redlock's
		 * delayed restart); --fast-restart breaks that rule. */
		double restart_lo = w->f.crash_lose_keys && !w->f.fast_restart ? ttl * (1 + RL_DEFAULT_DRIFT_FACTOR) + 2 : 1;

		place_windows(w, s->pauses, &s->npauses, span, 1, 2 * ttl, 1);
		place_windows(w, s->blackholes, &s->nblackholes, span, 1, 2 * ttl, 1);
		place_windows(w, s->crashes, &s->ncrashes, span, restart_lo, restart_lo + 2 * ttl, 1);
		for (k = 0; k < s->ncrashes; k++) {
			sim_event ev = {0};
			ev.at = s->crashes[k].from, ev.kind = EV_CRASH, ev.a = (int32_t) i;
			world_push(w, &ev);
			ev.at = s->crashes[k].to, ev.kind = EV_RESTART;
			world_push(w, &ev);
		}
	}
}

/* --- Links --------------------------------------------------------------------------------------- */

/* When a segment sent at `at` over the server's network arrives: a blackhole holds it until it
 * lifts and TCP retransmits. */
static double arrival(sim_world *w, const sim_server *s, double at, double base, double *last)
{
	double t = at + base * rng_range(&w->rng, 0.8, 1.5);
	int k;

	if (rng_chance(&w->rng, w->p.spike_p)) {
		t += rng_range(&w->rng, 0, w->p.spike_max);
	}
	for (k = 0; k < s->nblackholes; k++) {
		if (s->blackholes[k].from < t && s->blackholes[k].to > at) {
			t = fmax(t, s->blackholes[k].to + rng_range(&w->rng, 1, 200));
		}
	}
	if (t < *last) {
		t = *last; /* one stream: never overtakes what was sent before it */
	}
	*last = t;
	return t;
}

int conn_open(sim_world *w, int client, int server)
{
	sim_conn *conn;
	sim_event ev = {0};
	int slow = rng_chance(&w->rng, w->p.slow_conn_p);

	if (w->nconns == w->capconns) {
		w->capconns = w->capconns ? 2 * w->capconns : 256;
		w->conns = realloc(w->conns, w->capconns * sizeof(*w->conns));
		if (w->conns == NULL) {
			abort();
		}
	}
	conn = &w->conns[w->nconns];
	if (w->nconns >= w->usedconns) {
		memset(conn, 0, sizeof(*conn)); /* a slot never used: no buffers yet */
		w->usedconns = w->nconns + 1;
	} else {
		sim_conn keep = *conn;
		memset(conn, 0, sizeof(*conn));
		conn->unsent = keep.unsent, conn->capunsent = keep.capunsent;
		conn->inbox = keep.inbox, conn->capinbox = keep.capinbox;
	}
	conn->client = client;
	conn->server = server;
	conn->state = CONN_CONNECTING;
	conn->epoch = SIM_NO_EPOCH;
	conn->deadline = HUGE_VAL;
	conn->stale_deadline = HUGE_VAL;
	conn->delay_cs = slow ? rng_range(&w->rng, w->p.slow_lo, w->p.slow_hi) : rng_range(&w->rng, w->p.fast_lo, w->p.fast_hi);
	conn->delay_sc = rng_chance(&w->rng, w->p.slow_conn_p) ? rng_range(&w->rng, w->p.slow_lo, w->p.slow_hi)
		: rng_range(&w->rng, w->p.fast_lo, w->p.fast_hi);
	ev.at = arrival(w, &w->servers[server], w->now, conn->delay_cs, &conn->last_cs);
	ev.kind = EV_SYN;
	ev.a = (int32_t) w->nconns;
	world_push(w, &ev);
	w->st.connects++;
	tracef(w, client, "c%d opens conn %zu to s%d (delay c->s %.2f, s->c %.2f)", client, w->nconns, server,
		conn->delay_cs, conn->delay_sc);
	return (int) w->nconns++;
}

/* The SYN reached the server's host: accepted (even by a paused server: the kernel listens) or
 * refused (the server is down, or a random connect failure). */
void world_server_syn(sim_world *w, int index)
{
	sim_conn *conn = &w->conns[index];
	sim_server *s = &w->servers[conn->server];
	sim_event ev = {0};

	ev.a = index;
	if (s->down || rng_chance(&w->rng, w->p.connect_fail_p)) {
		ev.kind = EV_REFUSED;
	} else {
		conn->epoch = s->epoch;
		ev.kind = EV_CONNECTED;
	}
	ev.at = arrival(w, s, w->now, conn->delay_sc, &conn->last_sc);
	world_push(w, &ev);
}

void conn_send(sim_world *w, int index, const sim_cmd *cmd)
{
	sim_conn *conn = &w->conns[index];
	sim_event ev = {0};
	char tok[9];

	ev.kind = EV_SERVER_RECV;
	ev.a = index;
	ev.u.cmd = *cmd;
	ev.at = arrival(w, &w->servers[conn->server], w->now, conn->delay_cs, &conn->last_cs);
	world_push(w, &ev);
	tracef(w, conn->client, "c%d sends %s (attempt %d, token %s) to s%d on conn %d, arrives at %.3f",
		conn->client, op_name(cmd), cmd->attempt, token_short(&cmd->token, tok), conn->server, index, ev.at);
}

/* --- Servers ------------------------------------------------------------------------------------- */

static int64_t server_ms(const sim_server *s, double now)
{
	return (int64_t) floor(s->offset + s->rate * now);
}

static int holds(const sim_server *s, int64_t ms, const sim_token *token)
{
	/* Redis drops a key once its ms clock is past the expiry time. */
	return s->has_key && ms <= s->expire_at && (token == NULL || memcmp(&s->token, token, sizeof(*token)) == 0);
}

static sim_reply execute(sim_world *w, sim_server *s, const sim_cmd *cmd)
{
	int64_t ms = server_ms(s, w->now);
	sim_reply reply = {REPLY_INT, cmd->purpose, 0};

	if (cmd->op == CMD_LOAD) {
		s->scripts_loaded = 1;
		reply.kind = REPLY_OK;
		return reply;
	}
	if (cmd->op != CMD_SET) {
		if (cmd->by_sha && !s->scripts_loaded) {
			reply.kind = REPLY_NOSCRIPT;
			w->st.noscripts++;
			return reply;
		}
		s->scripts_loaded = 1; /* EVAL caches the script */
	}
	switch (cmd->op) {
	case CMD_SET:
		if (holds(s, ms, NULL)) {
			reply.kind = REPLY_NIL;
			break;
		}
		s->has_key = 1;
		s->token = cmd->token;
		s->key_call = cmd->call, s->key_attempt = cmd->attempt;
		s->expire_at = ms + cmd->px;
		reply.kind = REPLY_OK;
		break;
	case CMD_UNLOCK:
		if (holds(s, ms, &cmd->token)) {
			s->has_key = 0;
			reply.value = 1;
		}
		break;
	case CMD_EXTEND:
		if (holds(s, ms, &cmd->token)) {
			if (s->expire_at - ms < cmd->px) {
				s->expire_at = ms + cmd->px; /* PEXPIRE only when it lengthens */
			}
			reply.value = 1;
		}
		break;
	case CMD_VALIDITY:
		reply.value = holds(s, ms, &cmd->token) ? s->expire_at - ms : -2;
		break;
	}
	return reply;
}

void world_server_recv(sim_world *w, const sim_event *ev)
{
	sim_conn *conn = &w->conns[ev->a];
	sim_server *s = &w->servers[conn->server];
	sim_event out = {0};
	char tok[9], held[9], owner[64];
	int k;

	if (s->down || conn->epoch != s->epoch) {
		return; /* the server's end of this connection is gone: the bytes meet a reset */
	}
	for (k = 0; k < s->npauses; k++) {
		if (w->now >= s->pauses[k].from && w->now < s->pauses[k].to) {
			out = *ev; /* the process is stopped: runs it, in arrival order, when it resumes */
			out.at = s->pauses[k].to;
			world_push(w, &out);
			return;
		}
	}
	out.kind = EV_CLIENT_RECV;
	out.a = ev->a;
	if (holds(s, server_ms(s, w->now), NULL)) {
		snprintf(owner, sizeof(owner), "%s (c%d call %d attempt %d)", token_short(&s->token, held), s->key_client,
			s->key_call, s->key_attempt);
	} else {
		strcpy(owner, "absent");
	}
	/* rl_lock.h's promise: nothing sent for one attempt removes or extends a key another set. */
	if ((ev->u.cmd.op == CMD_UNLOCK || ev->u.cmd.op == CMD_EXTEND) && holds(s, server_ms(s, w->now), &ev->u.cmd.token)
		&& (conn->client != s->key_client || ev->u.cmd.call != s->key_call || ev->u.cmd.attempt != s->key_attempt)) {
		w->st.foreign_touches++;
		tracef(w, conn->client, "!! s%d: c%d's %s of call %d attempt %d %s the key set by call %d attempt %d",
			conn->server, conn->client, op_name(&ev->u.cmd), ev->u.cmd.call, ev->u.cmd.attempt,
			ev->u.cmd.op == CMD_UNLOCK ? "deletes" : "extends", s->key_call, s->key_attempt);
	}
	out.u.reply = execute(w, s, &ev->u.cmd);
	if (ev->u.cmd.op == CMD_SET && out.u.reply.kind == REPLY_OK) {
		s->key_client = conn->client;
	}
	out.at = arrival(w, s, w->now, conn->delay_sc, &conn->last_sc);
	world_push(w, &out);
	tracef(w, conn->client, "s%d runs %s from c%d (call %d attempt %d, token %s, conn %d%s), key was %s -> %s %lld",
		conn->server, op_name(&ev->u.cmd), conn->client, ev->u.cmd.call, ev->u.cmd.attempt,
		token_short(&ev->u.cmd.token, tok), ev->a, conn->state == CONN_DOWN ? ", closed by the client" : "", owner,
		out.u.reply.kind == REPLY_OK ? "OK" : out.u.reply.kind == REPLY_NIL ? "nil"
		: out.u.reply.kind == REPLY_NOSCRIPT ? "NOSCRIPT" : "int", (long long) out.u.reply.value);
}

void world_crash(sim_world *w, int server)
{
	sim_server *s = &w->servers[server];
	size_t i;

	s->down = 1;
	s->scripts_loaded = 0; /* Redis does not persist its script cache */
	if (w->f.crash_lose_keys) {
		s->has_key = 0;
	}
	w->st.crashes++;
	tracef(w, -1, "s%d crashes%s", server, w->f.crash_lose_keys ? " and loses its keys" : "");
	/* Every connection the old process accepted is reset; its clients see it one delay later. */
	for (i = 0; i < w->nconns; i++) {
		sim_conn *conn = &w->conns[i];
		if (conn->server == server && conn->epoch == s->epoch && conn->state != CONN_DOWN) {
			sim_event ev = {0};
			ev.kind = EV_RESET;
			ev.a = (int32_t) i;
			ev.at = fmax(w->now + conn->delay_sc, conn->last_sc); /* behind the replies already sent */
			conn->last_sc = ev.at;
			world_push(w, &ev);
		}
	}
	s->epoch++;
}
