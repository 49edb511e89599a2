/* A deterministic simulation of Redlock clients (ext/core/rl_lock.c's state machine) against N
 * simulated Redis servers, over simulated TCP connections, on a virtual clock.
 *
 * world.c:    PRNG, event queue, servers (keys, expiry on the server's clock, scripts), links
 *             (per-connection FIFO delays, connects, crashes, pauses, blackholes), trace.
 * fanout.c:   the connection layer's rules (ext/net/rl_fanout.c, ext/net/rl_conn.c, ext/net/rl_pool.c):
 *             rl_conn_begin_call (reuse, close when stale replies are overdue, open), per-call
 *             deadlines, stale replies, the fan-out, the drain, the per-process pool.
 * client.c:   the client loop lock() -> hold (extend(), validity()) -> unlock(), lock() being
 *             ext/core/rl_lock.c's rl_acquire_next() linked in.
 * check.c:    the holding intervals and the overlap checker.
 * lock_sim.c: options, random schedule parameters, the run over many seeds, reporting.
 * Time is in ms (double) everywhere; every draw comes from one seeded PRNG per schedule. */
#ifndef SIM_H
#define SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_lock.h"
#include "net/rl_cluster.h" /* RL_DEFAULT_CALL_BOUND_MS */

#define SIM_MAX_SERVERS 5
#define SIM_MAX_CLIENTS 8
#define SIM_MAX_WINDOWS 3
#define SIM_NO_EPOCH UINT32_MAX
#define SIM_POOL_MAX 16

/* --- PRNG: xoshiro256** seeded through splitmix64 ------------------------------------------ */
typedef struct sim_rng {
	uint64_t s[4];
} sim_rng;

uint64_t sim_splitmix(uint64_t *state);
void rng_seed(sim_rng *rng, uint64_t seed);
uint64_t rng_next(sim_rng *rng);
double rng_unit(sim_rng *rng);                 /* [0, 1) */
double rng_range(sim_rng *rng, double lo, double hi);
int rng_chance(sim_rng *rng, double p);
unsigned rng_below(sim_rng *rng, unsigned n);  /* [0, n) */

/* --- Commands and replies ------------------------------------------------------------------ */
typedef enum { CMD_SET, CMD_UNLOCK, CMD_EXTEND, CMD_VALIDITY, CMD_LOAD } sim_op;
/* Why the client sent it: for the trace only. */
/* FOR_GREETING: the SCRIPT LOADs a new connection sends first (ext/net/rl_fanout.c's prepare), one
 * command here for the five: pipelined together, they arrive together. */
typedef enum { FOR_LOCK, FOR_ROLLBACK, FOR_UNLOCK, FOR_EXTEND, FOR_VALIDITY, FOR_GREETING } sim_purpose;

typedef struct sim_token {
	uint64_t w[2];
} sim_token;

typedef struct sim_cmd {
	uint8_t op;      /* sim_op */
	uint8_t by_sha;  /* EVALSHA: NOSCRIPT when the server's script cache is empty (after a restart) */
	uint8_t purpose; /* sim_purpose */
	int32_t attempt; /* the lock() call and attempt that sent it: for the trace only */
	int32_t call;
	int64_t px;
	sim_token token;
} sim_cmd;

typedef enum { REPLY_OK, REPLY_NIL, REPLY_INT, REPLY_NOSCRIPT } sim_reply_kind;
typedef struct sim_reply {
	uint8_t kind;
	uint8_t purpose;
	int64_t value;
} sim_reply;

/* --- Servers -------------------------------------------------------------------------------- */
typedef struct sim_window {
	double from, to;
} sim_window;

typedef struct sim_server {
	double rate, offset;     /* server clock = offset + rate * virtual time */
	int has_key;
	sim_token token;
	int64_t expire_at;       /* server ms: the key is gone once the server's ms clock passes it */
	int key_client, key_call, key_attempt; /* who set the key: for the trace only */
	int scripts_loaded;
	int down;
	uint32_t epoch;          /* bumped by every crash: connections of an older epoch are dead */
	int npauses, nblackholes, ncrashes;
	sim_window pauses[SIM_MAX_WINDOWS], blackholes[SIM_MAX_WINDOWS], crashes[SIM_MAX_WINDOWS];
	double timeout_ms;       /* the client's timeout for this server (rl_endpoint.timeout_ms) */
} sim_server;

/* --- Connections: client side state mirrors rl_conn ----------------------------------------- */
typedef enum { CONN_DOWN = 0, CONN_CONNECTING, CONN_READY } sim_conn_state;

typedef struct sim_conn {
	int client, server;
	uint8_t state;            /* client side, as rl_conn_state */
	uint8_t handshake_done;   /* the kernel finished connecting; the client has not looked yet */
	uint8_t refused;          /* the connect failed; the client has not looked yet */
	uint8_t reset;            /* the server's end closed (crash); seen by the client */
	uint32_t epoch;           /* server epoch that accepted it, SIM_NO_EPOCH before */
	double delay_cs, delay_sc; /* base one-way delays of this connection */
	double last_cs, last_sc;  /* last arrival per direction: keeps each stream FIFO */
	unsigned stale, expected; /* as rl_conn (no AUTH/SELECT here: `checked` is always 0) */
	double deadline;          /* as rl_conn: the current call's, now + timeout at its start */
	double stale_deadline;    /* as rl_conn: the earliest deadline of the calls that left stale */
	/* Commands held while connecting (hiredis' output buffer) and replies arrived at the socket
	 * but not read yet: both unbounded, as in the real client (retry delay 0 and a silent
	 * connect can pile up dozens). Their buffers stay with the slot when it is reused. */
	int nunsent, capunsent;
	sim_cmd *unsent;
	int inbox_head, inbox_len, capinbox;
	sim_reply *inbox;
} sim_conn;

static inline unsigned conn_owed(const sim_conn *conn)
{
	return conn->stale + conn->expected;
}

/* --- Clients -------------------------------------------------------------------------------- */
enum { HOLD_RELEASE, HOLD_EXTEND, HOLD_VALIDITY };
typedef enum { OP_THINK, OP_LOCK, OP_PAUSE, OP_HOLD, OP_EXTEND, OP_VALIDITY, OP_UNLOCK, OP_DONE } sim_client_op;

typedef struct sim_client {
	int id;
	int conn[SIM_MAX_SERVERS]; /* index into world.conns, -1 when none yet */
	int op;
	int calls_left;
	uint32_t timer_gen;
	rl_acquire acquire;
	int64_t ttl;
	/* the fan-out in progress (rl_fanout_run) */
	int fan_active;
	sim_cmd fan_cmd;
	uint8_t outcome[SIM_MAX_SERVERS]; /* rl_outcome_kind */
	int64_t outcome_int[SIM_MAX_SERVERS];
	unsigned yes, answered;
	double fan_deadline, fan_start;
	/* rl_fanout_drain_until in progress */
	int draining;
	double drain_until;
	/* the lock held */
	sim_token held;
	double hold_end;          /* the latest end any success promised */
	double release_at;        /* when the client chose to stop using it */
	int will_unlock;
	int hold_action;          /* what the hold timer does: HOLD_RELEASE, HOLD_EXTEND, HOLD_VALIDITY */
	int extends_left;
	int64_t extend_ttl;
	int call;                 /* lock() calls made so far */
	int seg[8], nseg;         /* this hold's intervals in world.segs */
	/* the per-process pool (rl_pool): connections of freed objects, oldest first */
	int pool[SIM_POOL_MAX], npool;
	/* --shared-token: the call's first token, handed out again for its later attempts */
	int call_has_token;
	unsigned char call_token[RL_TOKEN_BYTES];
} sim_client;

/* --- Checker -------------------------------------------------------------------------------- */
typedef struct sim_segment {
	int client;
	int call;                 /* per-client lock() call number, for the report */
	double start, end;
	double decided;           /* when the client learnt it (start, unless --from-attempt-start) */
	int full;                 /* used to the end of its validity, the keys left to expire */
	double attempt_start;
	int64_t attempt;
} sim_segment;

/* --- The world ------------------------------------------------------------------------------ */
typedef struct sim_params {
	unsigned servers, clients;
	int64_t ttl_lo, ttl_hi, retry_count, retry_delay;
	int calls_per_client;
	double think_max;
	double slow_conn_p, fast_lo, fast_hi, slow_lo, slow_hi; /* per-connection base delays */
	double spike_p, spike_max;                             /* per-segment delay spikes */
	double connect_fail_p;
	double extend_p, validity_p, no_unlock_p;
	double free_p;                                         /* the object is freed after a call */
} sim_params;

typedef struct sim_flags {
	int shared_token;      /* mutation: defect 1 (one token per lock() call) */
	int quorum_minus_one;  /* mutation: floor(N/2) */
	int no_drift;          /* mutation: the policy's drift factor is 0, the servers' clocks still drift */
	int crash_lose_keys;   /* crashes lose the keys; restart only after the longest ttl (safe) */
	int fast_restart;      /* mutation: ... and restart at once (Redlock's known hole) */
	/* Counts a hold from the winning attempt's start rather than from when lock() returned. Not
	 * a sound check: it flags correct runs, where a SET sent before another hold ended landed
	 * after the keys expired. Kept to show why the checker starts holds where it does. */
	int from_attempt_start;
	int trace;
} sim_flags;

typedef struct sim_event {
	double at;
	uint64_t seq;
	uint8_t kind;
	int32_t a;    /* connection, client or server */
	uint32_t gen; /* timers: the client's timer generation */
	union {
		sim_cmd cmd;
		sim_reply reply;
	} u;
} sim_event;

typedef struct sim_stats {
	uint64_t calls, attempts, wins, losses, unlocks, extends, extends_won, validities, validities_won;
	uint64_t events, connects, overdue_closes, crashes, noscripts;
	uint64_t queued_behind;   /* rollbacks queued behind a reply still owed (queue_behind_silent) */
	uint64_t frees, pool_reused, pool_discarded;
	uint64_t foreign_touches; /* unlock/rollback/extend that hit a key set by another attempt */
} sim_stats;

typedef struct sim_trace_line {
	double at;
	int client; /* -1: not one client's */
	int marked; /* a command removed a key that another attempt set: always shown */
	char text[200];
} sim_trace_line;

typedef struct sim_world {
	uint64_t seed;
	sim_rng rng;
	double now;
	uint64_t seq;
	sim_event *heap;
	size_t nheap, capheap;
	sim_params p;
	sim_flags f;
	rl_lock_policy policy;
	double call_bound;
	sim_server servers[SIM_MAX_SERVERS];
	sim_client clients[SIM_MAX_CLIENTS];
	sim_conn *conns;
	size_t nconns, capconns;
	size_t usedconns; /* slots that may own buffers, across schedules */
	sim_segment *segs;
	size_t nsegs, capsegs;
	int calls_made[SIM_MAX_CLIENTS];
	size_t slack_a, slack_b;
	double min_slack; /* the least time between a hold used to its end and another client's next hold */
	sim_stats st;
	sim_trace_line *trace;
	size_t ntrace, captrace;
} sim_world;

/* world.c */
enum { EV_TIMER, EV_SYN, EV_CONNECTED, EV_REFUSED, EV_RESET, EV_SERVER_RECV, EV_CLIENT_RECV, EV_CRASH, EV_RESTART };
void world_init(sim_world *w, uint64_t seed, const sim_params *p, const sim_flags *f);
void world_free(sim_world *w);
void world_push(sim_world *w, const sim_event *ev);
int world_pop(sim_world *w, sim_event *ev);
void world_schedule_faults(sim_world *w, double span);
int conn_open(sim_world *w, int client, int server);
void conn_send(sim_world *w, int conn, const sim_cmd *cmd);
void world_server_recv(sim_world *w, const sim_event *ev);
void world_server_syn(sim_world *w, int conn);
void world_crash(sim_world *w, int server);
/* A bug in the simulation itself: prints the schedule's seed and aborts. */
void sim_bug(const sim_world *w, const char *what) __attribute__((noreturn));
void tracef(sim_world *w, int client, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *token_short(const sim_token *token, char out[9]);

/* fanout.c: the connection layer (one live timer per client: arming again cancels) */
void client_arm(sim_world *w, sim_client *c, double at);
void fan_begin(sim_world *w, sim_client *c, const sim_cmd *cmd, double deadline); /* rl_fanout_run */
void fan_send(sim_world *w, sim_client *c, const sim_cmd *cmd);                   /* rl_fanout_send */
void fan_pump(sim_world *w, sim_client *c);
void drain_pump(sim_world *w, sim_client *c); /* rl_fanout_drain_until, c->drain_until set */
void client_free_object(sim_world *w, sim_client *c); /* rl_cluster_destroy: into the pool */
void conn_event(sim_world *w, const sim_event *ev);

/* client.c */
void client_start(sim_world *w, int client);
void client_on_event(sim_world *w, const sim_event *ev);
void client_fan_done(sim_world *w, sim_client *c);   /* fan_begin's call is decided */
void client_drain_done(sim_world *w, sim_client *c); /* the pause is over */

/* check.c */
int segment_add(sim_world *w, int client, double start, double end);
void segments_clip(sim_world *w, sim_client *c, double at);
/* Counts overlapping pairs of different clients; the first pair in *a and *b. */
size_t segments_check(sim_world *w, size_t *a, size_t *b);

#endif
