/* The real-code simulation: clients that are the extension's own plain-C RedLock (client/,
 * core/, net/: rl_client_acquire(), rl_client_extend(), rl_client_release(), the fan-out, the
 * connections and their owed and stale replies, the pool, hiredis' reader) against simulated
 * servers over simulated TCP (kernel.c), under a virtual clock. Nothing of the connection layer
 * is copied: ext/ is compiled as it is, with its system calls turned into the simulation's
 * (seam.h). Each schedule draws a mode:
 *   exclusive  lock() of one resource, alone or with a second key in one lock, some clients with
 *              fencing: no two holders at once; fences grow with every holder;
 *   shared     lockShared() and lock() of one resource: lock() holders alone, readers together;
 *   semaphore  lockSemaphore() with a limit of 1 to 3: never more holders than the limit; in one such
 *              schedule of 2 its clients are fair ones, run as the fair mode's (a fair semaphore);
 *   fair       lock() of one resource with 'fair' => true and waitTimeout (the queue, tickets, wake-ups
 *              by PUBLISH to SUBSCRIBE connections, heartbeats), or a fair semaphore's lockSemaphore()
 *              (its own queue); a waiting client dies (SIGKILL) in one call of 6: no two holders at
 *              once (a semaphore: never more than its limit); and in schedules without paused or crashed
 *              servers FIFO (a semaphore's: no slot taken past a live waiter ahead unless the server had a
 *              free slot for it too), no starvation, no stall (fair_violated()).
 * A client holds for a while (sometimes past its validity: it stops using the lock there),
 * sometimes extends, releases or lets the lock expire, and sometimes frees its object (its
 * connections go to the pool with the replies they still owe). A hold lasts from the return of
 * the acquisition to the end of the validity it (or the last extend()) promised, or to the start
 * of the release.
 * --calm: no delay spikes, slow links or paused servers, so every release of a hold still valid
 * must succeed (counted as refused_releases otherwise). --fair: every schedule in the fair mode, one in 2
 * a fair semaphore's.
 * Mutations of the configuration (the code's are built by verify/sim/run.sh from patched copies):
 * --quorum-minus-one (floor(N/2)), --no-drift (drift factor 0 while the servers' clocks drift),
 * --shared-token (every attempt of a call reuses the call's first token: defect 1),
 * --fast-restart (a crashed server, its keys lost, accepts connections again at once: Redlock's
 * known hole; by default a crash waits out the longest ttl).
 *
 *   sim_real [--seconds S] [--seed X] [--schedules N] [--stop-after V] [--calm] [--fair] [mutations]
 * Prints "RESULT schedules=N ... violations=N first=SEED" and "FAIR ..." (the fair mode's figures);
 * exits 1 on a violation. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/rl_client.h"
#include "core/rl_kinds.h"
#include "core/rl_lock.h"
#include "core/rl_scripts.h"
#include "kernel.h"
#include "memory/rl_memory_store.h"

enum { MODE_EXCLUSIVE, MODE_SHARED, MODE_SEMAPHORE, MODE_FAIR, MODES };
enum { HOLD_EXCLUSIVE, HOLD_SHARED, HOLD_SLOT };

typedef struct hold {
	int client, kind;
	double start, end;
	int64_t fence; /* 0: not fenced */
} hold;

static hold *holds;
static size_t nholds, capholds;
static k_params params;
static int mode, limit, sem_limit, fair_semaphore, calm, quorum_minus_one, no_drift, shared_token, fast_restart, fair_only;
static int64_t ttl_lo = 60, ttl_hi = 400;

/* --- fair mode: lock() or lockSemaphore() of one resource with 'fair' => true (docs/design/fair.md) ---
 * Every call of a fair client is recorded: its ticket and when every server had run one of its queued
 * attempts (seen at the servers: k_observe), its end (its return, or its client's death while it
 * waited), and, when won, when its winning attempt's first script ran at a server; a semaphore's
 * attempts also where and when a server gave them a slot, and how many slots were free there before. */
#define FAIR_WAIT_MS 8000 /* the clients' waitTimeout: above the no-starvation bound (fair_violated) */
#define FAIR_TOKENS 16

typedef struct fair_call {
	int client, won, killed;
	int64_t ticket;    /* 0: never queued */
	double start, end, queued_all, win_first, die_at;
	unsigned left;     /* servers that ran its leave */
	unsigned seen;     /* servers that ran one of its queued attempts */
	char id[RL_FAIR_ID_LEN + 1]; /* its waiter's id, from its first queued script seen */
	char tokens[FAIR_TOKENS][RL_TOKEN_LEN + 1]; /* its attempts' tokens, and when each first ran */
	double token_first[FAIR_TOKENS];
	unsigned ntokens;
	int win_token;     /* its winning attempt's in tokens, -1 */
	/* a semaphore's: per token and server that gave it a slot, when, and the slots free there before */
	double grant_at[FAIR_TOKENS][K_MAX_SERVERS];
	int grant_free[FAIR_TOKENS][K_MAX_SERVERS];
	unsigned grant_mask[FAIR_TOKENS];
} fair_call;

static fair_call *fcalls;
static size_t nfcalls, capfcalls;
static int fair_open[K_MAX_CLIENTS]; /* the client's call in fcalls, -1 */
static uint64_t fair_schedules, fair_sem_schedules, fair_sem_checked, fair_checked, fair_calls, fair_won, fair_kills, fair_timeouts;
/* ghosts: when a queued attempt ran at a server after its call's leave had run there (late: a delay spike on
 * its connection, the leave sent on another), queueing that waiter again with nobody behind it */
static double *ghosts;
static size_t nghosts, capghosts;
static uint64_t fair_ghosts;
static uint64_t fair_sem_grants, fair_sem_grants_ahead; /* slots of winning attempts checked; those with calls ahead */
static double fair_max_wait, fair_max_stall;
static int calls_per_client = 12;
static uint64_t locks_won, extends_won, releases_refused, refused_by_kind[3];
static char why[256];

static void add_hold(int client, int kind, double start, double end, int64_t fence)
{
	if (end <= start) {
		return;
	}
	if (nholds == capholds) {
		capholds = capholds ? capholds * 2 : 64;
		holds = realloc(holds, capholds * sizeof(*holds));
	}
	holds[nholds++] = (hold) {client, kind, start, end, fence};
}

/* Four holds in five are released (the others expire); a release refused while more than half the ttl
 * was left is counted against its kind. */
static void release_mostly(rl_client *object, const rl_lock_target *target, const char *token, double end, int64_t ttl,
	int kind)
{
	if (k_rand() % 5 != 0) {
		int valid = end - k_now > 0.5 * (double) ttl;
		if (!rl_client_release(object, target, token, strlen(token)) && valid) {
			releases_refused++;
			refused_by_kind[kind]++;
		}
	}
}

/* 1 with why set when the schedule broke a rule. */
static int violated(void)
{
	size_t i, j;

	for (i = 0; i < nholds; i++) {
		const hold *a = &holds[i];
		int at_once = 1;

		for (j = 0; j < nholds; j++) {
			const hold *b = &holds[j];
			if (i == j || a->client == b->client || !(a->start < b->end && b->start < a->end)) {
				continue;
			}
			if (sem_limit > 0) {
				if (b->start <= a->start) {
					at_once++; /* holders already in when a came in */
				}
				continue;
			}
			if (a->kind == HOLD_SHARED && b->kind == HOLD_SHARED) {
				continue;
			}
			snprintf(why, sizeof(why), "client %d held [%.3f, %.3f] (%s) and client %d [%.3f, %.3f] (%s)", a->client,
				a->start, a->end, a->kind == HOLD_SHARED ? "shared" : "exclusive", b->client, b->start, b->end,
				b->kind == HOLD_SHARED ? "shared" : "exclusive");
			return 1;
		}
		if (sem_limit > 0 && at_once > sem_limit) {
			snprintf(why, sizeof(why), "%d holders at %.3f, limit %d", at_once, a->start, sem_limit);
			return 1;
		}
		for (j = 0; j < nholds; j++) {
			const hold *b = &holds[j];
			if (a->fence > 0 && b->fence > 0 && b->start > a->start && b->fence <= a->fence) {
				snprintf(why, sizeof(why), "fence %" PRId64 " at %.3f after fence %" PRId64 " at %.3f", b->fence, b->start,
					a->fence, a->start);
				return 1;
			}
		}
	}
	return 0;
}

/* The CSPRNG the client is given; with --shared-token, the first token of a call again. */
static unsigned char call_token[64];
static int call_token_set;

static int draw_random(void *arg, void *into, size_t len)
{
	unsigned char *p = into;
	size_t i;

	(void) arg;
	if (shared_token && call_token_set && len <= sizeof(call_token)) {
		memcpy(into, call_token, len);
		return 0;
	}
	for (i = 0; i < len; i++) {
		p[i] = (unsigned char) (k_rand() >> 56);
	}
	if (shared_token && len <= sizeof(call_token)) {
		memcpy(call_token, into, len);
		call_token_set = 1;
	}
	return 0;
}

static void draw_secret(unsigned char secret[16])
{
	unsigned i;

	for (i = 0; i < 16; i++) {
		secret[i] = (unsigned char) (k_rand() >> 56);
	}
}

static rl_client *new_object(rl_pool *pool, double timeout_ms, int fencing, int fair)
{
	rl_client *client = calloc(1, sizeof(*client));
	rl_cluster *cluster = rl_cluster_create(params.servers);
	rl_client_config config;
	unsigned i;

	if (client == NULL || cluster == NULL) {
		abort();
	}
	for (i = 0; i < params.servers; i++) {
		rl_endpoint_spec spec = {"127.0.0.1", 9, (int) (K_BASE_PORT + i), timeout_ms, NULL, 0, NULL, 0, 0, NULL};
		if (rl_cluster_set_endpoint_spec(cluster, i, &spec) != 0) {
			abort();
		}
	}
	rl_cluster_use_pool(cluster, pool);
	rl_client_config_init(&config, params.servers);
	config.retry_delay = (int64_t) (1 + k_rand() % 40);
	config.retry_count = (int64_t) (1 + k_rand() % 3);
	config.random = draw_random;
	config.scripts = rl_scripts();
	config.fencing = fencing;
	if (fair) {
		config.fair = 1;
		config.wait_timeout = FAIR_WAIT_MS;
	}
	if (quorum_minus_one) {
		config.quorum = params.servers / 2;
	}
	if (no_drift) {
		config.drift_factor = 0;
	}
	if (rl_client_init(client, cluster, &config) != 0) {
		abort();
	}
	return client;
}

static void client_main(int id)
{
	static const char *keys[] = {"res", "res:other"};
	static const size_t lens[] = {3, 9};
	rl_pool pool;
	double timeout_ms = 5 + (double) (k_rand() % 60);
	int fencing = mode == MODE_EXCLUSIVE && k_rand() % 2 == 0;
	rl_client *object;
	int call;

	rl_pool_init(&pool, 16, draw_secret);
	object = new_object(&pool, timeout_ms, fencing, 0);
	for (call = 0; call < calls_per_client; call++) {
		rl_lock_target target = {RL_KIND_EXCLUSIVE, {1, keys, lens, 0}, 0};
		rl_lock_target held_target;
		int64_t ttl = ttl_lo + (int64_t) (k_rand() % (uint64_t) (ttl_hi - ttl_lo + 1));
		int kind = HOLD_EXCLUSIVE;
		char slot_key[64];
		const char *slot_keys[1] = {slot_key};
		size_t slot_lens[1];
		rl_held_lock held;

		k_sleep(k_unit() * 80);
		if (mode == MODE_SEMAPHORE) {
			target.kind = RL_KIND_SEMAPHORE;
			target.limit = limit;
			kind = HOLD_SLOT;
		} else if (mode == MODE_SHARED && k_rand() % 3 != 0) {
			target.kind = RL_KIND_SHARED;
			kind = HOLD_SHARED;
		} else if (k_rand() % 4 == 0) {
			target.keys.count = 2; /* a multi-resource lock that includes the resource */
			target.keys.multi = 1;
		}
		call_token_set = 0;
		if (rl_client_acquire(object, &target, ttl, 0, &held) == RL_ACQUIRED) {
			double start = k_now, end = k_now + held.result.validity;
			int extends = (int) (k_rand() % 3);

			locks_won++;
			held_target = target;
			if (held.kind == RL_KIND_SEMAPHORE) { /* held: the slot's key, an ordinary lock key */
				slot_lens[0] = rl_semaphore_slot_key(slot_key, sizeof(slot_key), "res", 3, held.slot);
				held_target.keys = (rl_lock_keys) {1, slot_keys, slot_lens, 0};
			}
			held_target.kind = held.kind;
			for (;;) {
				double work = k_unit() * (end - k_now) * (calm ? 0.8 : 1.3); /* sometimes past the validity */
				double validity;

				k_sleep(work);
				if (extends-- <= 0 || k_now >= end) {
					break;
				}
				validity = rl_client_extend(object, &held_target, held.result.token, strlen(held.result.token), ttl);
				if (validity <= 0) {
					break; /* lost: stop using it */
				}
				extends_won++;
				if (k_now + validity > end) {
					end = k_now + validity;
				}
			}
			add_hold(id, kind, start, fmin(end, k_now), held.kind == RL_KIND_FENCED ? held.fence : 0);
			release_mostly(object, &held_target, held.result.token, end, ttl, kind);
		}
		if (k_rand() % 4 == 0) {
			rl_client_destroy(object); /* a request ends: the next object takes pooled connections */
			free(object);
			object = new_object(&pool, timeout_ms, fencing, 0);
		}
	}
	rl_client_destroy(object);
	free(object);
	rl_pool_destroy(&pool);
}

/* rl_memory_store_keys()'s each: a slot key of "res" below the schedule's limit that is live */
static void count_slot(void *arg, const char *name, size_t len, const char *kind, int64_t left)
{
	char key[64];
	int slot;

	(void) kind, (void) left;
	for (slot = 0; slot < limit; slot++) {
		size_t klen = rl_semaphore_slot_key(key, sizeof(key), "res", 3, slot);

		if (klen == len && memcmp(key, name, len) == 0) {
			++*(int *) arg;
		}
	}
}

/* A fair semaphore's attempt (tokens[t] of f) that server gave a slot (its reply :n, n > 0): when, and the
 * slots free there before it (those free now, read from the server's store, and the one it took). */
static void fair_granted(fair_call *f, unsigned t, int server, const char *reply, size_t reply_len)
{
	int taken = 0;

	if (reply_len < 4 || reply[0] != ':' || reply[1] < '1' || reply[1] > '9') {
		return;
	}
	rl_memory_store_keys(k_store(server), count_slot, &taken);
	f->grant_at[t][server] = k_now;
	f->grant_free[t][server] = limit - taken + 1;
	f->grant_mask[t] |= 1u << server;
}

/* k_observe: a fair lock script (EVAL src 1 K token ttl id ticket heartbeat), or in a fair semaphore's
 * schedule the fair semaphore's (EVAL src 1 K token ttl limit id ticket heartbeat), run for client's open
 * call (or, late, for an earlier one: found by its waiter id); the leave of either (EVAL src 1 K id [limit]). */
static void fair_observe(int client, int server, int argc, const char **argv, const size_t *lens, const char *reply,
	size_t reply_len)
{
	const rl_script *script = fair_semaphore ? &rl_scripts()->fair_semaphore_lock : &rl_scripts()->fair_lock;
	const rl_script *leave = fair_semaphore ? &rl_scripts()->fair_semaphore_leave : &rl_scripts()->fair_leave;
	int args = fair_semaphore ? 10 : 9, at_id = args - 3, at_ticket = args - 2;
	fair_call *f = NULL;
	unsigned i;
	size_t k;

	if (client >= 0 && argc == args - 4 && lens[1] == leave->length && memcmp(argv[1], leave->source, lens[1]) == 0
		&& lens[4] == RL_FAIR_ID_LEN) { /* EVAL src 1 K id [limit]: the leave */
		for (k = 0; k < nfcalls; k++) {
			if (fcalls[k].client == client && memcmp(fcalls[k].id, argv[4], RL_FAIR_ID_LEN) == 0) {
				fcalls[k].left |= 1u << server;
			}
		}
		return;
	}
	if (client < 0 || argc != args || lens[1] != script->length || memcmp(argv[1], script->source, lens[1]) != 0
		|| lens[4] != RL_TOKEN_LEN) {
		return;
	}
	if (fair_open[client] >= 0) { /* (a script that comes between the client's calls is only a late one) */
		f = &fcalls[fair_open[client]];
		for (i = 0; i < f->ntokens && memcmp(f->tokens[i % FAIR_TOKENS], argv[4], RL_TOKEN_LEN) != 0; i++) {
		}
		if (i == f->ntokens) {
			memcpy(f->tokens[i % FAIR_TOKENS], argv[4], RL_TOKEN_LEN);
			f->tokens[i % FAIR_TOKENS][RL_TOKEN_LEN] = '\0';
			f->token_first[i % FAIR_TOKENS] = k_now;
			f->grant_mask[i % FAIR_TOKENS] = 0;
			f->ntokens = f->ntokens < FAIR_TOKENS ? f->ntokens + 1 : f->ntokens;
		}
		if (fair_semaphore) {
			fair_granted(f, i % FAIR_TOKENS, server, reply, reply_len);
		}
	}
	if (lens[at_id] == RL_FAIR_ID_LEN) {
		char text[32];
		size_t n = lens[at_ticket] < sizeof(text) - 1 ? lens[at_ticket] : sizeof(text) - 1;

		/* a script of an earlier call of this client, arriving late, is that call's (by its waiter id) */
		for (k = 0; k < nfcalls; k++) {
			if (fcalls[k].client == client && memcmp(fcalls[k].id, argv[at_id], RL_FAIR_ID_LEN) == 0) {
				break;
			}
		}
		if (k == nfcalls && f != NULL && f->id[0] == '\0') {
			memcpy(f->id, argv[at_id], RL_FAIR_ID_LEN);
			k = (size_t) fair_open[client];
		}
		if (k == nfcalls) {
			return;
		}
		f = &fcalls[k];
		if (f->left >> server & 1) { /* late, after its leave: queued again until its heartbeat key lapses */
			if (nghosts == capghosts) {
				capghosts = capghosts ? capghosts * 2 : 64;
				ghosts = realloc(ghosts, capghosts * sizeof(*ghosts));
			}
			ghosts[nghosts++] = k_now;
			fair_ghosts++;
		}
		memcpy(text, argv[at_ticket], n);
		text[n] = '\0';
		f->ticket = strtoll(text, NULL, 10);
		f->seen |= 1u << server;
		if (f->seen == (1u << params.servers) - 1 && f->queued_all == HUGE_VAL) {
			f->queued_all = k_now;
		}
	}
}

/* A fair client: lock() of "res" (or in a fair semaphore's schedule lockSemaphore("res", limit)) with
 * 'fair' => true and waitTimeout FAIR_WAIT_MS; one call in 6 arms its death at a moment of the next 2 s (it
 * dies if it is still waiting then: SIGKILL of a waiter). */
static void fair_client_main(int id)
{
	static const char *keys[] = {"res"};
	static const size_t lens[] = {3};
	rl_pool pool;
	double timeout_ms = 5 + (double) (k_rand() % 60);
	rl_client *object;
	int call;

	rl_pool_init(&pool, 16, draw_secret);
	object = new_object(&pool, timeout_ms, 0, 1);
	for (call = 0; call < calls_per_client; call++) {
		rl_lock_target target = {RL_KIND_EXCLUSIVE, {1, keys, lens, 0}, 0};
		int64_t ttl = ttl_lo + (int64_t) (k_rand() % (uint64_t) (ttl_hi - ttl_lo + 1));
		rl_held_lock held;
		fair_call *f;
		char slot_key[64];
		const char *slot_keys[1] = {slot_key};
		size_t slot_lens[1];
		size_t at;
		int won;

		k_sleep(k_unit() * 80);
		if (nfcalls == capfcalls) {
			capfcalls = capfcalls ? capfcalls * 2 : 64;
			fcalls = realloc(fcalls, capfcalls * sizeof(*fcalls));
		}
		at = nfcalls++;
		memset(&fcalls[at], 0, sizeof(fcalls[at]));
		fcalls[at].client = id;
		fcalls[at].start = k_now;
		fcalls[at].end = fcalls[at].queued_all = fcalls[at].win_first = fcalls[at].die_at = HUGE_VAL;
		fcalls[at].win_token = -1;
		if (fair_semaphore) {
			target.kind = RL_KIND_SEMAPHORE;
			target.limit = limit;
		}
		if (k_rand() % 6 == 0) {
			fcalls[at].die_at = k_now + 2000 * k_unit();
			k_die_at(fcalls[at].die_at);
		}
		fair_open[id] = (int) at;
		call_token_set = 0;
		won = rl_client_acquire(object, &target, ttl, 0, &held) == RL_ACQUIRED;
		k_die_at(HUGE_VAL); /* a holder does not die here: its hold is recorded below */
		fair_open[id] = -1;
		f = &fcalls[at];
		f->end = k_now;
		if (won) {
			double start = k_now, end = k_now + held.result.validity;
			unsigned i;

			locks_won++;
			f->won = 1;
			for (i = 0; i < f->ntokens; i++) {
				if (strcmp(f->tokens[i], held.result.token) == 0) {
					f->win_first = f->token_first[i];
					f->win_token = (int) i;
				}
			}
			if (held.kind == RL_KIND_SEMAPHORE) { /* held: the slot's key, an ordinary lock key */
				slot_lens[0] = rl_semaphore_slot_key(slot_key, sizeof(slot_key), "res", 3, held.slot);
				target.keys = (rl_lock_keys) {1, slot_keys, slot_lens, 0};
			}
			target.kind = held.kind;
			k_sleep(k_unit() * (end - k_now) * (calm ? 0.8 : 1.3)); /* sometimes past the validity */
			add_hold(id, fair_semaphore ? HOLD_SLOT : HOLD_EXCLUSIVE, start, fmin(end, k_now), 0);
			release_mostly(object, &target, held.result.token, end, ttl, fair_semaphore ? HOLD_SLOT : HOLD_EXCLUSIVE);
		}
		if (k_rand() % 4 == 0) {
			rl_client_destroy(object);
			free(object);
			object = new_object(&pool, timeout_ms, 0, 1);
		}
	}
	rl_client_destroy(object);
	free(object);
	rl_pool_destroy(&pool);
}

static int by_time(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* The stretches in which fewer than cap holds were held (cap 1: nobody held it), in time order, into
 * from[] and to[] (room nholds + 1 each); how many. */
static size_t free_stretches(int cap, double *from, double *to)
{
	double *starts = malloc((nholds + 1) * sizeof(double)), *ends = malloc((nholds + 1) * sizeof(double));
	double free_from = 0;
	size_t i = 0, j = 0, n = 0, h;
	int count = 0;

	if (starts == NULL || ends == NULL) {
		abort();
	}
	for (h = 0; h < nholds; h++) {
		starts[h] = holds[h].start;
		ends[h] = holds[h].end;
	}
	qsort(starts, nholds, sizeof(double), by_time);
	qsort(ends, nholds, sizeof(double), by_time);
	while (j < nholds) { /* an end and a start at the same moment: the end first */
		if (i < nholds && starts[i] < ends[j]) {
			if (++count == cap && starts[i] > free_from) {
				from[n] = free_from;
				to[n++] = starts[i];
			}
			i++;
		} else {
			if (count-- == cap) {
				free_from = ends[j];
			}
			j++;
		}
	}
	from[n] = free_from; /* from the last moment it had a free place on */
	to[n++] = HUGE_VAL;
	free(starts);
	free(ends);
	return n;
}

/* Calls ahead of call b (a smaller ticket; b never queued: any queued call) that were queued on every server
 * before at and still waiting then, alive; *one: one of them. */
static size_t waiting_ahead(size_t b, double at, size_t *one)
{
	const fair_call *B = &fcalls[b];
	size_t a, count = 0;

	for (a = 0; a < nfcalls; a++) {
		const fair_call *A = &fcalls[a];

		if (a != b && A->ticket > 0 && (B->ticket == 0 || A->ticket < B->ticket) && A->queued_all < at && A->end > at) {
			*one = a;
			count++;
		}
	}
	return count;
}

/* FIFO for the call b that won. The lock: no call ahead of it, queued everywhere before its winning attempt
 * first ran at a server, waits on past its win (on each server of its quorum that call was then live and
 * ahead: its script refuses b). A semaphore: every server that gave the winning attempt a slot had, before
 * it, a free slot for each live call ahead of b there and one for b (its admission: among the first F live
 * waiters), counting the calls ahead that were queued everywhere before and waited on. */
static int fifo_violated(size_t b)
{
	const fair_call *B = &fcalls[b];
	size_t a = 0, ahead;
	int t = B->win_token, s;

	if (!fair_semaphore) {
		if (waiting_ahead(b, B->win_first, &a) > 0 && fcalls[a].end > B->end) {
			snprintf(why, sizeof(why), "FIFO: client %d won with ticket %" PRId64 " at %.3f (its attempt first ran "
				"%.3f) while client %d, ticket %" PRId64 ", queued everywhere at %.3f, waited until %.3f",
				B->client, B->ticket, B->end, B->win_first, fcalls[a].client, fcalls[a].ticket, fcalls[a].queued_all,
				fcalls[a].end);
			return 1;
		}
		return 0;
	}
	for (s = 0; t >= 0 && s < (int) params.servers; s++) {
		if (!(B->grant_mask[t] >> s & 1)) {
			continue;
		}
		ahead = waiting_ahead(b, B->grant_at[t][s], &a);
		fair_sem_grants++;
		fair_sem_grants_ahead += ahead > 0;
		if (ahead >= (size_t) B->grant_free[t][s]) {
			snprintf(why, sizeof(why), "FIFO: client %d (ticket %" PRId64 ") took a slot of %d on server %d at %.3f "
				"with %d free there, while %zu calls ahead waited (client %d, ticket %" PRId64 ", queued everywhere at "
				"%.3f, waited until %.3f)", B->client, B->ticket, limit, s, B->grant_at[t][s], B->grant_free[t][s], ahead,
				fcalls[a].client, fcalls[a].ticket, fcalls[a].queued_all, fcalls[a].end);
			return 1;
		}
	}
	return 0;
}

/* The fair checks of a schedule without paused or crashed servers (k_faulty() 0; client deaths, slow
 * links and delay spikes included); 1 with why set when one failed:
 * - FIFO (fifo_violated());
 * - no starvation: every call whose client did not die wins (within FAIR_WAIT_MS; the bound: fewer than
 *   K_MAX_CLIENTS holds ahead of it, each at most ttl_hi plus a hand-over, plus a heartbeat per death).
 * - no stall: while the lock is held by nobody (a semaphore: fewer than its limit hold a slot) and a live
 *   call waits queued everywhere, somebody takes it within one heartbeat period (RL_FAIR_HEARTBEAT_MS)
 *   after the stretch began or after the last death before its end, plus two one-way delays and two spikes.
 *   A queued attempt that reaches a server after its call ended (a delay spike on its connection, the leave
 *   sent on another) queues that waiter again there, heartbeat and all, with nobody behind it: a dead
 *   waiter, counted as a death when it ran (a ghost; docs/design/fair.md). */
static int fair_violated(void)
{
	double slack = 2 * (params.slow_hi + params.spike_max) + 50, bound = RL_FAIR_HEARTBEAT_MS + slack;
	double *from = malloc((nholds + 1) * sizeof(double)), *to = malloc((nholds + 1) * sizeof(double));
	size_t a, b, k, stretches;
	int bad = 0;

	if (from == NULL || to == NULL) {
		abort();
	}
	for (b = 0; b < nfcalls && !bad; b++) {
		bad = fcalls[b].won && fifo_violated(b);
	}
	for (a = 0; a < nfcalls && !bad; a++) {
		const fair_call *A = &fcalls[a];

		if (!A->won && !A->killed) {
			snprintf(why, sizeof(why), "starved: client %d waited %.3f to %.3f (ticket %" PRId64 ") and got nothing",
				A->client, A->start, A->end, A->ticket);
			bad = 1;
		}
	}
	stretches = free_stretches(sem_limit > 0 ? sem_limit : 1, from, to);
	for (a = 0; a < nfcalls && !bad; a++) {
		const fair_call *W = &fcalls[a];

		for (k = 0; k < stretches && !bad && !W->killed && W->queued_all != HUGE_VAL; k++) {
			double start = fmax(from[k], W->queued_all), end = fmin(to[k], W->end), death = 0;

			if (end <= start) {
				continue;
			}
			for (b = 0; b < nfcalls; b++) {
				if (fcalls[b].killed && fcalls[b].ticket > 0 && fcalls[b].end <= end && fcalls[b].end > death) {
					death = fcalls[b].end;
				}
			}
			for (b = 0; b < nghosts; b++) { /* a waiter queued again by its late attempt: dead at once */
				if (ghosts[b] <= end && ghosts[b] > death) {
					death = ghosts[b];
				}
			}
			if (end - fmax(start, death) > fair_max_stall) {
				fair_max_stall = end - fmax(start, death);
			}
			if (end - fmax(start, death) > bound) {
				snprintf(why, sizeof(why), "stalled: %s from %.3f to %.3f while client %d waited queued (last death %.3f, "
					"bound %.0f ms)", sem_limit > 0 ? "a slot was free" : "nobody held the lock", start, end, W->client,
					death, bound);
				bad = 1;
			}
		}
	}
	free(from);
	free(to);
	return bad;
}

/* The options that take no value: each sets its flag. */
typedef struct {
	const char *name;
	int *flag;
} sim_switch;

/* Sets the flag of the switch named arg; 0 when arg names none. */
static int set_switch(const char *arg, const sim_switch *switches, size_t count)
{
	size_t k;

	for (k = 0; k < count; k++) {
		if (strcmp(arg, switches[k].name) == 0) {
			*switches[k].flag = 1;
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 10;
	uint64_t seed = (uint64_t) time(NULL), schedules = 0, max_schedules = UINT64_MAX, first_bad = 0, violations = 0;
	uint64_t stop_after = UINT64_MAX, connects = 0, dropped = 0, events = 0, commands = 0, crashes = 0, by_mode[MODES] = {0};
	int quiet = 0, i, fixed_seed = 0;
	clock_t begin = clock();

	rl_scripts_startup(); /* as MINIT: the fair object's script set is made there */
	const sim_switch switches[] = {{"--calm", &calm}, {"--quorum-minus-one", &quorum_minus_one}, {"--no-drift", &no_drift},
		{"--shared-token", &shared_token}, {"--fast-restart", &fast_restart}, {"--quiet", &quiet},
		{"--fair", &fair_only}};

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			seconds = atof(argv[++i]);
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
			fixed_seed = 1;
		} else if (strcmp(argv[i], "--base-seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--schedules") == 0 && i + 1 < argc) {
			max_schedules = strtoull(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--stop-after") == 0 && i + 1 < argc) {
			stop_after = strtoull(argv[++i], NULL, 0);
		} else if (!set_switch(argv[i], switches, sizeof(switches) / sizeof(switches[0]))) {
			fprintf(stderr, "usage: sim_real [--seconds S] [--seed X | --base-seed X] [--schedules N] [--stop-after V]"
				" [--calm] [--fair] [--quorum-minus-one] [--no-drift] [--shared-token] [--fast-restart] [--quiet]\n");
			return 2;
		}
	}
	while (schedules < max_schedules && violations < stop_after
		&& (fixed_seed || (double) (clock() - begin) / CLOCKS_PER_SEC < seconds)) {
		uint64_t this_seed = fixed_seed ? seed : seed + schedules * 0x9E3779B97F4A7C15ULL;

		/* crashes lose the keys; the restart waits out the longest ttl (Redlock's delayed restart) */
		params = (k_params) {3 + (unsigned) (this_seed % 2) * 2, 2 + (unsigned) (this_seed >> 8) % 4,
			0.05, 0.5, 2, 30, 0.15, 0.05, 150, 0.3, 300, 0.009, 0.2, (double) ttl_hi + 50};
		if (fast_restart) {
			params.crash_p = 0.6;
			params.restart_after = 1;
		}
		if (calm) {
			params.slow_p = params.spike_p = params.pause_p = params.crash_p = 0;
		}
		mode = fair_only ? MODE_FAIR : (int) ((this_seed >> 16) % MODES);
		limit = 1 + (int) ((this_seed >> 24) % 3);
		/* one semaphore schedule of 2 (with --fair, one fair schedule of 2) is a fair semaphore's: fair clients */
		fair_semaphore = (mode == MODE_SEMAPHORE || fair_only) && (this_seed >> 32) % 2 == 1;
		mode = fair_semaphore ? MODE_FAIR : mode;
		sem_limit = mode == MODE_SEMAPHORE || fair_semaphore ? limit : 0;
		by_mode[mode]++;
		k_init(this_seed, &params);
		nholds = 0;
		nfcalls = 0;
		nghosts = 0;
		for (i = 0; i < K_MAX_CLIENTS; i++) {
			fair_open[i] = -1;
		}
		k_observe = mode == MODE_FAIR ? fair_observe : NULL;
		if (k_run(mode == MODE_FAIR ? fair_client_main : client_main, 600000) != 0) {
			fprintf(stderr, "sim_real: schedule 0x%016" PRIx64 " did not finish in its virtual time\n", this_seed);
			return 1;
		}
		connects += k_st.connects;
		dropped += k_st.replies_dropped;
		events += k_st.events;
		commands += k_st.commands;
		crashes += k_st.crashes;
		if (mode == MODE_FAIR) {
			size_t f;

			fair_schedules++;
			fair_sem_schedules += (uint64_t) fair_semaphore;
			for (i = 0; i < K_MAX_CLIENTS; i++) {
				if (fair_open[i] >= 0 && k_killed(i)) { /* died waiting */
					fcalls[fair_open[i]].killed = 1;
					fcalls[fair_open[i]].end = fcalls[fair_open[i]].die_at;
					fair_kills++;
				}
			}
			fair_calls += nfcalls;
			for (f = 0; f < nfcalls; f++) {
				fair_won += (uint64_t) fcalls[f].won;
				fair_timeouts += (uint64_t) (!fcalls[f].won && !fcalls[f].killed);
				if (fcalls[f].won && fcalls[f].end - fcalls[f].start > fair_max_wait && !k_faulty()) {
					fair_max_wait = fcalls[f].end - fcalls[f].start;
				}
			}
			fair_checked += (uint64_t) !k_faulty();
			fair_sem_checked += (uint64_t) (!k_faulty() && fair_semaphore);
		}
		if (violated() || (mode == MODE_FAIR && !k_faulty() && fair_violated())) {
			violations++;
			if (first_bad == 0) {
				first_bad = this_seed;
			}
			if (!quiet) {
				printf("VIOLATION seed=0x%016" PRIx64 " mode=%d: %s\n", this_seed, mode, why);
			}
		}
		schedules++;
		if (fixed_seed) {
			break;
		}
	}
	k_free();
	rl_scripts_shutdown();
	free(fcalls);
	free(ghosts);
	free(holds);
	printf("RESULT schedules=%" PRIu64 " exclusive=%" PRIu64 " shared=%" PRIu64 " semaphore=%" PRIu64 " fair=%" PRIu64 " fair_semaphore=%" PRIu64 " locks=%" PRIu64
		" extends=%" PRIu64 " refused_releases=%" PRIu64 " (exclusive %" PRIu64 ", shared %" PRIu64 ", slot %" PRIu64 ") connects=%" PRIu64 " replies_dropped=%" PRIu64
		" events=%" PRIu64 " commands=%" PRIu64 " crashes=%" PRIu64 " violations=%" PRIu64 " first=0x%016" PRIx64 "\n",
		schedules, by_mode[0], by_mode[1], by_mode[2], by_mode[3], fair_sem_schedules, locks_won, extends_won, releases_refused, refused_by_kind[0], refused_by_kind[1], refused_by_kind[2], connects, dropped,
		events, commands, crashes, violations, first_bad);
	printf("FAIR schedules=%" PRIu64 " semaphore=%" PRIu64 " semaphore_checked=%" PRIu64 " slots_checked=%" PRIu64 " past_waiters=%" PRIu64 " checked=%" PRIu64 " calls=%zu won=%" PRIu64 " timeouts=%" PRIu64 " kills=%" PRIu64
		" max_wait_ms=%.0f max_stall_ms=%.0f ghosts=%" PRIu64 "\n", fair_schedules, fair_sem_schedules, fair_sem_checked, fair_sem_grants, fair_sem_grants_ahead, fair_checked, fair_calls, fair_won, fair_timeouts, fair_kills,
		fair_max_wait, fair_max_stall, fair_ghosts);
	return violations > 0 ? 1 : 0;
}
