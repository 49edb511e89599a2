/* The real-code simulation: clients that are the extension's own plain-C RedLock (client/,
 * core/, net/: rl_client_acquire(), rl_client_extend(), rl_client_release(), the fan-out, the
 * connections and their owed and stale replies, the pool, hiredis' reader) against simulated
 * servers over simulated TCP (kernel.c), under a virtual clock. Nothing of the connection layer
 * is copied: ext/ is compiled as it is, with its system calls turned into the simulation's
 * (seam.h). Each schedule draws a mode:
 *   exclusive  lock() of one resource, alone or with a second key in one lock, some clients with
 *              fencing: no two holders at once; fences grow with every holder;
 *   shared     lockShared() and lock() of one resource: lock() holders alone, readers together;
 *   semaphore  lockSemaphore() with a limit of 1 to 3: never more holders than the limit;
 *   fair       lock() of one resource with 'fair' => true and waitTimeout (the queue, tickets, wake-ups
 *              by PUBLISH to SUBSCRIBE connections, heartbeats); a waiting client dies (SIGKILL) in one
 *              call of 6: no two holders at once; and in schedules without paused or crashed servers
 *              FIFO, no starvation, no stall (fair_violated()).
 * A client holds for a while (sometimes past its validity: it stops using the lock there),
 * sometimes extends, releases or lets the lock expire, and sometimes frees its object (its
 * connections go to the pool with the replies they still owe). A hold lasts from the return of
 * the acquisition to the end of the validity it (or the last extend()) promised, or to the start
 * of the release.
 * --calm: no delay spikes, slow links or paused servers, so every release of a hold still valid
 * must succeed (counted as refused_releases otherwise). --fair: every schedule in the fair mode.
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
static int mode, limit, calm, quorum_minus_one, no_drift, shared_token, fast_restart, fair_only;
static int64_t ttl_lo = 60, ttl_hi = 400;

/* --- fair mode: lock() of one resource with 'fair' => true (docs/design/fair.md) -----------------
 * Every call of a fair client is recorded: its ticket and when every server had run one of its queued
 * attempts (seen at the servers: k_observe), its end (its return, or its client's death while it
 * waited), and, when won, when its winning attempt's first script ran at a server. */
#define FAIR_WAIT_MS 8000 /* the clients' waitTimeout: above the no-starvation bound (fair_violated) */
#define FAIR_TOKENS 16

typedef struct fair_call {
	int client, won, killed;
	int64_t ticket;    /* 0: never queued */
	double start, end, queued_all, win_first, die_at;
	unsigned seen;     /* servers that ran one of its queued attempts */
	char id[RL_FAIR_ID_LEN + 1]; /* its waiter's id, from its first queued script seen */
	char tokens[FAIR_TOKENS][RL_TOKEN_LEN + 1]; /* its attempts' tokens, and when each first ran */
	double token_first[FAIR_TOKENS];
	unsigned ntokens;
} fair_call;

static fair_call *fcalls;
static size_t nfcalls, capfcalls;
static int fair_open[K_MAX_CLIENTS]; /* the client's call in fcalls, -1 */
static uint64_t fair_schedules, fair_checked, fair_calls, fair_won, fair_kills, fair_timeouts;
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
			if (mode == MODE_SEMAPHORE) {
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
		if (mode == MODE_SEMAPHORE && at_once > limit) {
			snprintf(why, sizeof(why), "%d holders at %.3f, limit %d", at_once, a->start, limit);
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

/* k_observe: a fair lock script (EVAL src 1 K token ttl id ticket heartbeat) run for client's open call. */
static void fair_observe(int client, int server, int argc, const char **argv, const size_t *lens, const char *reply,
	size_t reply_len)
{
	const rl_script *script = &rl_scripts()->fair_lock;
	fair_call *f;
	unsigned i;

	(void) reply, (void) reply_len;
	if (client < 0 || fair_open[client] < 0 || argc != 9 || lens[1] != script->length
		|| memcmp(argv[1], script->source, lens[1]) != 0 || lens[4] != RL_TOKEN_LEN) {
		return;
	}
	f = &fcalls[fair_open[client]];
	for (i = 0; i < f->ntokens && memcmp(f->tokens[i % FAIR_TOKENS], argv[4], RL_TOKEN_LEN) != 0; i++) {
	}
	if (i == f->ntokens) {
		memcpy(f->tokens[i % FAIR_TOKENS], argv[4], RL_TOKEN_LEN);
		f->tokens[i % FAIR_TOKENS][RL_TOKEN_LEN] = '\0';
		f->token_first[i % FAIR_TOKENS] = k_now;
		f->ntokens = f->ntokens < FAIR_TOKENS ? f->ntokens + 1 : f->ntokens;
	}
	if (lens[6] == RL_FAIR_ID_LEN) {
		char text[32];
		size_t n = lens[7] < sizeof(text) - 1 ? lens[7] : sizeof(text) - 1;
		size_t k;

		/* a script of an earlier call of this client, arriving late, is that call's (by its waiter id) */
		for (k = 0; k < nfcalls; k++) {
			if (fcalls[k].client == client && memcmp(fcalls[k].id, argv[6], RL_FAIR_ID_LEN) == 0) {
				break;
			}
		}
		if (k == nfcalls && f->id[0] == '\0') {
			memcpy(f->id, argv[6], RL_FAIR_ID_LEN);
			k = (size_t) fair_open[client];
		}
		if (k == nfcalls) {
			return;
		}
		f = &fcalls[k];
		memcpy(text, argv[7], n);
		text[n] = '\0';
		f->ticket = strtoll(text, NULL, 10);
		f->seen |= 1u << server;
		if (f->seen == (1u << params.servers) - 1 && f->queued_all == HUGE_VAL) {
			f->queued_all = k_now;
		}
	}
}

/* A fair client: lock() of "res" with 'fair' => true and waitTimeout FAIR_WAIT_MS; one call in 6 arms
 * its death at a moment of the next 2 s (it dies if it is still waiting then: SIGKILL of a waiter). */
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
				}
			}
			k_sleep(k_unit() * (end - k_now) * (calm ? 0.8 : 1.3)); /* sometimes past the validity */
			add_hold(id, HOLD_EXCLUSIVE, start, fmin(end, k_now), 0);
			release_mostly(object, &target, held.result.token, end, ttl, HOLD_EXCLUSIVE);
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

static int by_start(const void *a, const void *b)
{
	const hold *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The fair checks of a schedule without paused or crashed servers (k_faulty() 0; client deaths, slow
 * links and delay spikes included); 1 with why set when one failed:
 * - FIFO: no call B wins while a call A ahead of it (a smaller ticket; B never queued counts as
 *   last) waits on, alive, with A queued on every server before B's winning attempt first ran at a
 *   server (on each server of B's quorum A was then live and ahead: its script refuses B).
 * - no starvation: every call whose client did not die wins (within FAIR_WAIT_MS; the bound: fewer than
 *   K_MAX_CLIENTS holds ahead of it, each at most ttl_hi plus a hand-over, plus a heartbeat per death).
 * - no stall: while the lock is held by nobody and a live call waits queued everywhere, somebody takes
 *   it within one heartbeat period (RL_FAIR_HEARTBEAT_MS) after the stretch began or after the last
 *   death before its end, plus two one-way delays and two spikes. */
static int fair_violated(void)
{
	double slack = 2 * (params.slow_hi + params.spike_max) + 50, bound = RL_FAIR_HEARTBEAT_MS + slack;
	size_t a, b, h;

	for (b = 0; b < nfcalls; b++) {
		const fair_call *B = &fcalls[b];

		if (!B->won) {
			continue;
		}
		for (a = 0; a < nfcalls; a++) {
			const fair_call *A = &fcalls[a];

			if (a != b && A->ticket > 0 && (B->ticket == 0 || A->ticket < B->ticket)
				&& A->queued_all < B->win_first && A->end > B->end) {
				snprintf(why, sizeof(why), "FIFO: client %d won with ticket %" PRId64 " at %.3f (its attempt first ran "
					"%.3f) while client %d, ticket %" PRId64 ", queued everywhere at %.3f, waited until %.3f",
					B->client, B->ticket, B->end, B->win_first, A->client, A->ticket, A->queued_all, A->end);
				return 1;
			}
		}
	}
	for (a = 0; a < nfcalls; a++) {
		const fair_call *A = &fcalls[a];

		if (!A->won && !A->killed) {
			snprintf(why, sizeof(why), "starved: client %d waited %.3f to %.3f (ticket %" PRId64 ") and got nothing",
				A->client, A->start, A->end, A->ticket);
			return 1;
		}
	}
	qsort(holds, nholds, sizeof(*holds), by_start);
	for (a = 0; a < nfcalls; a++) {
		const fair_call *W = &fcalls[a];
		double free_from = 0;

		if (W->killed || W->queued_all == HUGE_VAL) {
			continue;
		}
		for (h = 0; h <= nholds; h++) {
			double free_to = h < nholds ? holds[h].start : HUGE_VAL;
			double from = fmax(free_from, W->queued_all), to = fmin(free_to, W->end), death = 0;

			if (to > from) {
				for (b = 0; b < nfcalls; b++) {
					if (fcalls[b].killed && fcalls[b].ticket > 0 && fcalls[b].end <= to && fcalls[b].end > death) {
						death = fcalls[b].end;
					}
				}
				if (to - fmax(from, death) > fair_max_stall) {
					fair_max_stall = to - fmax(from, death);
				}
				if (to - fmax(from, death) > bound) {
					snprintf(why, sizeof(why), "stalled: nobody held the lock from %.3f to %.3f while client %d waited "
						"queued (last death %.3f, bound %.0f ms)", from, to, W->client, death, bound);
					return 1;
				}
			}
			if (h < nholds && holds[h].end > free_from) {
				free_from = holds[h].end;
			}
		}
	}
	return 0;
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
		by_mode[mode]++;
		k_init(this_seed, &params);
		nholds = 0;
		nfcalls = 0;
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
	free(holds);
	printf("RESULT schedules=%" PRIu64 " exclusive=%" PRIu64 " shared=%" PRIu64 " semaphore=%" PRIu64 " fair=%" PRIu64 " locks=%" PRIu64
		" extends=%" PRIu64 " refused_releases=%" PRIu64 " (exclusive %" PRIu64 ", shared %" PRIu64 ", slot %" PRIu64 ") connects=%" PRIu64 " replies_dropped=%" PRIu64
		" events=%" PRIu64 " commands=%" PRIu64 " crashes=%" PRIu64 " violations=%" PRIu64 " first=0x%016" PRIx64 "\n",
		schedules, by_mode[0], by_mode[1], by_mode[2], by_mode[3], locks_won, extends_won, releases_refused, refused_by_kind[0], refused_by_kind[1], refused_by_kind[2], connects, dropped,
		events, commands, crashes, violations, first_bad);
	printf("FAIR schedules=%" PRIu64 " checked=%" PRIu64 " calls=%zu won=%" PRIu64 " timeouts=%" PRIu64 " kills=%" PRIu64
		" max_wait_ms=%.0f max_stall_ms=%.0f\n", fair_schedules, fair_checked, fair_calls, fair_won, fair_timeouts, fair_kills,
		fair_max_wait, fair_max_stall);
	return violations > 0 ? 1 : 0;
}
