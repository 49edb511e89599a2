/* A RedLock object in plain C: its servers, its policy (stored here once), its options, and the
 * one path every lock kind and every option takes. rl_client_acquire() acquires (attempts with
 * retries, or notified waiting until a deadline), then tracks the lock as a lease (the cap on
 * extensions, loss, renewal) the same way for every kind; release, extend and validity go through
 * the lease before the servers. The Zend glue only parses arguments and builds arrays around
 * these calls. */
#ifndef RL_CLIENT_H
#define RL_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_inspect.h"
#include "core/rl_kinds.h"
#include "net/rl_cluster.h"
#include "services/rl_leases.h"

typedef struct rl_client_config {
	int64_t retry_delay;    /* ms; pauses are drawn from [retry_delay/2, retry_delay] */
	int64_t retry_count;    /* attempts per call (0 behaves as 1), without wait_timeout */
	unsigned quorum;
	double drift_factor;
	int64_t max_extensions; /* 'maxExtensions': per lock, extend() and renewals together; < 0: no cap */
	int auto_extend;        /* 'autoExtend' */
	int abort_on_loss;      /* 'abortOnLoss' (the interrupt itself is the glue's) */
	int track_losses;       /* 'onLoss': every lock is tracked, so that its loss is known */
	int no_scripts;         /* 'scripts' => false: the native dialect from the start (core/rl_dialect.h) */
	int fencing;            /* 'fencing': lock() hands out fencing tokens */
	int64_t wait_timeout;   /* 'waitTimeout' ms; < 0: retry_count attempts */
	int fair;               /* 'fair': a waiting lock() queues, FIFO (core/rl_fair.c) */
	int64_t max_sets;       /* 'maxConnectionSets': lanes (connection sets) per object, its own included */
	int refuse_evicting;    /* 'evictingServers' => 'refuse': see rl_cluster.refuse_evicting */
	const void *owner;      /* whose request end stops the renewals (rl_leases_stop_owned) */
	int (*random)(void *arg, void *into, size_t len); /* the CSPRNG: 0, or -1 when there is none */
	const rl_script_set *scripts; /* static */
} rl_client_config;

/* Upper bounds of the constructor's numbers (docs/guide/options.md#upper-bounds), so that every call
 * ends within a bound the caller can read off its arguments: at most retryCount attempts, each
 * bounded by the servers' timeouts (net/rl_uri.h: RL_TIMEOUT_MAX_SECONDS), with a pause of at most
 * retryDelay between two; with waitTimeout, that long plus one attempt. Beyond them a ValueError
 * names the argument. retryDelay PHP_INT_MAX made a contended lock() sleep for 292 million years. */
#define RL_RETRY_DELAY_MAX_MS 3600000LL    /* one hour: one pause between two attempts */
#define RL_RETRY_COUNT_MAX 1000000LL       /* attempts of one call; longer waits are waitTimeout's */
#define RL_WAIT_TIMEOUT_MAX_MS 86400000LL  /* one day: one call waiting for a lock */

/* The defaults for servers servers (the drop-in constructor's). */
void rl_client_config_init(rl_client_config *config, unsigned servers);

/* A combination of options this client cannot honour: NULL when config is fine, else why, naming
 * both options (the glue's ValueError). Checked before rl_client_init. */
const char *rl_client_config_conflict(const rl_client_config *config, unsigned servers);

/* Telemetry: what the last public call did, filled by every rl_client_* call below in one place
 * (whether or not anybody looks: the glue hands it to the observer when one is registered), with
 * client->outcomes (each server's vote and latency) when servers were asked. The per-process
 * counters (services/rl_metrics.h) are counted from the same record. */
typedef enum {
	RL_CALL_ACQUIRE = 0,
	RL_CALL_RELEASE,
	RL_CALL_EXTEND,
	RL_CALL_VALIDITY,
	RL_CALL_FORCE_RELEASE
} rl_call_op;

typedef enum {
	RL_CALL_ACQUIRED = 0,  /* acquire: won */
	RL_CALL_CONTENDED,     /* acquire: enough servers said "taken" that no quorum was possible */
	RL_CALL_FAILED,        /* any call: not done for errors, timeouts, validity used up, memory */
	RL_CALL_RELEASED,      /* release, force release: a quorum did it */
	RL_CALL_EXTENDED,      /* extend: a new validity */
	RL_CALL_VALID,         /* validity: a quorum still holds it */
	RL_CALL_NOT_HELD,      /* release, extend, validity: enough servers no longer hold our token */
	RL_CALL_LOST,          /* extend, validity: the lease is known lost (no round trip) */
	RL_CALL_CAPPED         /* extend: maxExtensions reached (no round trip) */
} rl_call_outcome;

typedef struct rl_call_record {
	rl_call_op op;
	rl_lock_kind kind;       /* as held or acquired (fenced when 'fencing' made it so) */
	rl_call_outcome outcome;
	int64_t attempts;        /* acquire: attempts made; other calls: 1, or 0 without a round trip */
	double waited_ms;        /* from the call's first send to its last poll round (0 without a round trip) */
	double validity_ms;      /* acquired, extended, valid: the validity; else 0 */
	int asked;               /* the servers were asked: client->outcomes are this call's (the last attempt's) */
	uint64_t renewals;       /* autoExtend renewals of this object's leases since the last record */
	uint64_t lost;           /* of its leases found lost since the last record (by the thread or a call) */
} rl_call_record;

/* What one call uses: connections, each server's vote, the io bound to them. A call borrows the
 * object's own lane or, while that one is lent to a call suspended in another coroutine or Fiber
 * (calls on one object interleave on one thread there), a spare one: no connection is ever used
 * by two calls at once, so no call reads another's reply. docs/design/coroutines.md. */
#define RL_DEFAULT_MAX_SETS 32
#define RL_MAX_SETS_LIMIT 1024
/* A spare lane unused this long (or the call bound, when longer) is closed at the object's next call. */
#define RL_SPARE_IDLE_MS 2000.0
/* Locks a lane remembers as still owing their acquisition's late replies (docs/design/coroutines.md). */
#define RL_LANE_BOUND_MAX 32

typedef struct rl_lane {
	rl_cluster *cluster;
	rl_outcome *outcomes;
	rl_lock_io io;
	int lent;
	double started;       /* when the call it is lent to began (before waiting for it) */
	double idle_since;    /* when it was last given back */
	/* The locks won on it whose late replies (a slow server's SET) it still owes: their release,
	 * extension and validity go on this lane, after those writes on the same connections. */
	char (*bound)[RL_TOKEN_LEN];
	size_t bound_count;
	unsigned wanted;      /* calls waiting for this lane for their lock's sake: nobody else takes it meanwhile */
	struct rl_lane *next; /* the spares */
} rl_lane;

/* getLastErrors() per coroutine / Fiber: the last call each made on this object (a copy). */
typedef struct rl_flow_last {
	uintptr_t flow;
	uint64_t used;           /* the client's clock when written: the oldest goes first */
	rl_call_record record;
	rl_outcome *outcomes;
} rl_flow_last;
#define RL_FLOW_LAST_MAX 128

typedef struct rl_client {
	rl_cluster *cluster;   /* owned: the servers, and the main lane's connections */
	rl_outcome *outcomes;  /* per server, of the last call to finish: that call's lane's array, or
	                        * kept once that lane serves a call among coroutines or is closed */
	rl_outcome *kept;      /* owned: the copy */
	rl_call_record last;   /* the last call to finish (telemetry) */
	rl_lock_policy policy;
	rl_lane main;          /* the object's own connections */
	rl_lane *spares;       /* made when calls overlapped; kept, with their connections, for the next ones */
	size_t lanes;          /* the main lane and the spares */
	unsigned subscribed;   /* waitTimeout waiters' subscription sets open now: they count against max_sets */
	rl_flow_last *flows;   /* per coroutine / Fiber (rl_wait_flow() != 0): their last call; NULL until one */
	size_t flow_count;
	uint64_t flow_clock;
	rl_client_config config;
	rl_leases *leases;     /* the tracked locks; NULL until the first one */
	void (*loss_notice)(void *); /* 'onLoss': see rl_client_set_loss_notice */
	void *loss_notice_arg;
} rl_client;

/* The last call of the calling coroutine / Fiber (rl_wait_flow()), else of the object: what
 * getLastErrors() reads. */
const rl_outcome *rl_client_last_outcomes(const rl_client *client);
const rl_call_record *rl_client_last_record(const rl_client *client);

/* Takes cluster over. 0, or -1 when out of memory (cluster is then destroyed). */
int rl_client_init(rl_client *client, rl_cluster *cluster, const rl_client_config *config);
/* Stops the renewals (joins the thread), closes or pools the connections, frees everything. */
void rl_client_destroy(rl_client *client);

typedef enum {
	RL_ACQUIRED = 1,
	RL_NOT_ACQUIRED = 0,   /* contention or server trouble: every attempt failed */
	RL_OUT_OF_MEMORY = -1,
	RL_NO_RANDOM = -2,     /* no random bytes could be had: nothing was sent */
	RL_NOT_TRACKED = -3,   /* won, but the lease could not be tracked (memory, threads): released */
	RL_NEEDS_SCRIPTS = -4, /* a kind only scripts can take, where scripts are off: nothing was sent */
	RL_FAIR_REFUSED = -5   /* 'fair' and a call it does not queue (several resources, lockShared(),
	                        * promote()): nothing was sent */
} rl_acquire_status;

/* Acquires target for ttl ms: the lock's kind as asked, fenced when the client has 'fencing' and
 * target is exclusive: held->kind says which; held->result.attempts the attempts made. pinned:
 * the caller will ask for its loss (run()): it is tracked whatever the options. With
 * target->from_token, a held lock is converted (promote(), demote(): rl_convert_acquire) and its
 * lease follows: not renewed while it changes form, dropped when it is gone. */
rl_acquire_status rl_client_acquire(rl_client *client, const rl_lock_target *target, int64_t ttl, int pinned,
	rl_held_lock *held);

/* Releases a held lock (target as held: a semaphore's slot key): its lease is dropped first, so
 * no renewal can count our own release as a loss. true when a quorum released it;
 * RL_CALL_NEEDS_SCRIPTS (as rl_client_extend() and rl_client_validity() too) when the object's
 * dialect has no form for the lock's kind ('scripts' => false and a shared holder): nothing sent. */
#define RL_CALL_NEEDS_SCRIPTS (-4)
int rl_client_release(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len);

/* The releases nobody asked for by name, run()'s end and the end of the request, follow one rule:
 * a lock is released (and renewed, and reported lost) only by the process that took it. A forked
 * child's copy of the object has forgotten its parent's leases (services/rl_leases.h), so a child
 * that leaves a run() of its parent's, however it ends (exit(), a return, an exception, a fatal
 * error), leaves the lock to its parent. An explicit unlock() of a lock array is not one of these:
 * any holder of the array may release it, in any process.
 *
 * rl_client_release_own: run()'s end: token's lock released when this process took it and still
 * tracks it (not when released inside run() already): true when a quorum released it.
 * rl_client_release_pinned: the end of the request (or of the object) with run() calls that never
 * reached their end (a coroutine's stack abandoned when another one's fatal error ended the worker,
 * a Fiber never resumed): every lock they hold that this process took is released. Returns how
 * many were; -1 when out of memory for one. */
int rl_client_release_own(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len);
int rl_client_release_pinned(rl_client *client);

/* extend(): the new validity (> 0), 0 when refused (cap reached, lost, or no quorum), -1 when out
 * of memory; without scripts (rl_client_scripts_off), RL_EXTEND_OTHER_TTL when ttl is not the one
 * the token carries (the ttl the lock was taken with), RL_EXTEND_NO_TTL when the token carries
 * none (another client's, an older version's): nothing more is sent then. */
#define RL_EXTEND_OTHER_TTL (-2.0)
#define RL_EXTEND_NO_TTL (-3.0)
/* forceUnlock(): the keys of target deleted whoever holds them. 1 when a quorum ran it, else 0.
 * A lease of this object on them is not dropped: its next renewal finds the keys gone and the
 * lock lost, as for any other holder. */
int rl_client_force_release(rl_client *client, const rl_lock_target *target);

double rl_client_extend(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len,
	int64_t ttl);

/* validity(): ms a quorum still holds it, 0 when none or known lost (then with no round trip), -1
 * when out of memory. */
double rl_client_validity(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len);

/* inspect(): keys read by a quorum, no acquisition (core/rl_inspect.h; ext/client/rl_client_inspect.c).
 * 1 with *out filled, 0 without a quorum of answers, -1 when out of memory. limit > 0: semaphore slots. */
int rl_client_inspect(rl_client *client, const rl_lock_keys *keys, int64_t limit, rl_inspection *out);

/* Scripts are off: 1 for 'scripts' => false, 2 when the servers answered NOPERM to one (learnt
 * then, for the rest of the object's life); 0 when they are used. */
int rl_client_scripts_off(const rl_client *client);

/* What the lease says of token: RL_LEASE_UNKNOWN when it is not tracked. */
rl_lease_state rl_client_lease(rl_client *client, const char *token, size_t token_len);

/* 'onLoss': notice(arg) is told of each loss of this client's leases, on the thread that finds
 * it, with a lock held (it may only store flags); the losses are then taken on the caller's
 * thread. See rl_leases_set_loss_notice and rl_leases_take_losses. */
void rl_client_set_loss_notice(rl_client *client, void (*notice)(void *), void *arg);
size_t rl_client_take_losses(rl_client *client, rl_loss *out, size_t room);

/* abortOnLoss: see rl_leases_set_alarm. */
int rl_client_set_alarm(rl_client *client, const char *token, size_t token_len, void (*raise)(void *), void *arg);

#endif
