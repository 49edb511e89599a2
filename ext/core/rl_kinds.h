/* The kinds of lock: exclusive (lock(), one resource or several), fenced (lock() with fencing),
 * shared (lockShared()) and semaphore (lockSemaphore()), each over N independent masters in plain
 * C over an rl_lock_io like the lock itself (rl_lock.h), so that a simulation can drive them.
 * rl_kind_*() is the one place that picks a kind's scripts for acquire, release, extend and
 * validity, in the dialect the table of rl_dialect.h gives the kind's operation: everything above
 * it (the client, the renewal thread) treats every kind alike. The
 * arguments for their safety are in docs/design/primitives.md. */
#ifndef RL_KINDS_H
#define RL_KINDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_lock.h"

typedef enum {
	RL_KIND_EXCLUSIVE = 0,
	RL_KIND_FENCED,
	RL_KIND_SHARED,
	RL_KIND_SEMAPHORE
} rl_lock_kind;

/* What a call acquires, or what a held lock occupies. keys: the resource key(s) as Redis sees
 * them; for a held semaphore lock, its slot's key (an ordinary Redlock key). */
typedef struct rl_lock_target {
	rl_lock_kind kind;
	rl_lock_keys keys;
	int64_t limit; /* semaphore: slots */
	/* promote() and demote(): the token of the held lock that becomes this one (a shared holder
	 * becomes kind, exclusive or fenced; an exclusive lock becomes a shared holder); NULL for a
	 * fresh acquisition. See rl_convert_acquire(). */
	const char *from_token;
	size_t from_len;
	/* 'fair' => true: the waiter whose queued attempt this is (core/rl_fair.c); NULL otherwise */
	struct rl_fair_waiter *fair;
} rl_lock_target;

/* A won acquisition of any kind. */
typedef struct rl_held_lock {
	rl_lock_kind kind;     /* what was acquired */
	rl_lock_result result; /* token, validity, attempts */
	int64_t slot;          /* semaphore: the slot won */
	int64_t fence;         /* fenced: the fencing token */
} rl_held_lock;

/* The longest ttl of every lock, every kind, every call that takes one (lock, lockShared,
 * lockSemaphore, run, extend, promote, demote): 10^12 ms, about 31.7 years
 * (docs/guide/options.md#upper-bounds). Longer than any lock is meant to outlive its holder, and
 * small enough that every computation with it is exact: the server's ms clock plus the ttl in the
 * scripts' Lua doubles (exact to 2^53), SET PX on any server (Redis refuses a PX whose expiry
 * overflows 64 bits: PHP_INT_MAX failed each server with "invalid expire time", and the call was
 * only false), the ttl in ns on a 64-bit clock (9.2 * 10^18). Checked before any server is asked,
 * in one place (the glue's redlock_ttl_argument()). */
#define RL_TTL_MAX_MS 1000000000000LL

/* One acquisition of target with policy's attempts: 1 won (held filled), 0 not (held->result
 * says whether randomness failed), -1 out of memory. servers: the length of outcomes. mark: from
 * rl_kind_writer_mark, or NULL; sent at each of the attempts' pauses, and once more when the call
 * fails and mark->then_ms is set (the caller's own loop pauses then); the caller clears it. */
int rl_kind_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_held_lock *held, rl_writer_mark *mark);

/* Whether an acquisition of target waits as a writer (docs/design/primitives.md#writer-preference):
 * lock() (fenced or not, one resource or several) and promote(), with scripts (the mark is a script,
 * and so is every reader's check). mark is set up for it (mark->script NULL: no mark). */
void rl_kind_writer_mark(rl_writer_mark *mark, const rl_lock_policy *policy, const rl_lock_target *target);

/* release, extend and validity of a held lock (target as it is held: a semaphore's slot key),
 * as rl_lock_release(), rl_lock_extend() and rl_lock_validity() (rl_lock.h) with the kind's scripts. */
int rl_kind_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, rl_outcome *outcomes);
double rl_kind_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes);
/* rl_kind_extend in two halves, for many locks in one round trip (the renewal's batch): the kind's
 * extend as one command (rl_lock_extend_prepare: 0, 1 when not one command, -1 out of memory), and
 * its verdict once the round trip is over (rl_lock_extend_settle). */
int rl_kind_extend_prepare(const rl_lock_policy *policy, const rl_lock_target *held, const char *token,
	size_t token_len, int64_t ttl, rl_extend_call *call);
double rl_kind_extend_settle(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, int64_t ttl, double start, double now, unsigned votes,
	const rl_outcome *outcomes);
/* Whether held's extend is the scripted compare-the-token extend of keys holding our token (an
 * exclusive lock, a fenced lock, a semaphore's slot): then it may share one RL_SCRIPT_EXTEND_MANY call
 * with others (rl_lock_extend_many_init), its verdict settled by rl_kind_extend_settle as one
 * extended alone. A shared holder's extend is another script (a field of a hash), and a
 * script-free one is not one command. */
int rl_kind_extend_joins(const rl_lock_policy *policy, const rl_lock_target *held);
double rl_kind_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes);
/* forceUnlock(): target's keys deleted whoever holds them, as rl_lock_force_release(). */
int rl_kind_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target,
	rl_outcome *outcomes);

/* The largest $limit: the scripts walk the slots, at most this many per server and call. */
#define RL_SEMAPHORE_MAX_LIMIT 1024

/* --- semaphore (rl_semaphore.c) ----------------------------------------------------------- */

struct rl_fair_waiter;
/* One lockSemaphore() call on the resource key: 1 when a slot was won (result and *slot filled),
 * 0 when not, -1 when out of memory. servers: the length of outcomes. policy->token_kind must
 * be RL_TOKEN_SEMAPHORE. waiter: a fair object's queued call (its ticket drawn first when it has
 * none, RL_SCRIPT_FAIR_SEMAPHORE_LOCK for the slot walk), NULL otherwise. */
int rl_semaphore_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const char *key, size_t key_len,
	int64_t limit, int64_t ttl, size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *slot,
	struct rl_fair_waiter *waiter);

/* The key of a slot: key + RL_SLOT_SUFFIX + slot, binary-safe, into out when it fits (size
 * includes a NUL written after it). Returns the key's length, also when it did not fit. */
size_t rl_semaphore_slot_key(char *out, size_t size, const char *key, size_t key_len, int64_t slot);

/* The most bytes the slot keys of one resource take together: 1 MiB (docs/guide/options.md#upper-bounds).
 * Each slot is a key of its own that repeats the whole name, and two calls send every slot's key to
 * every server: inspect() with a limit (EXISTS of each slot) and a semaphore's waiters
 * (waitTimeout: SUBSCRIBE to each slot's channel). A 64 KiB name with limit 1024 made each of them
 * 64 MiB per server, built in malloc'd memory outside memory_limit (inspect(): about 300 MiB of RSS
 * with 3 servers, 1.3 GiB for a 256 KiB name, and no server answered it within its timeout).
 * Within it, a limit of 1024 takes keys of 1014 bytes and a limit of 16 keys of 65528 bytes;
 * other calls take any name (Redis: 512 MB). */
#define RL_SLOT_KEYS_MAX_BYTES 1048576

/* The longest key (prefix included) whose limit slot keys (slots 0 .. limit - 1, limit >= 1) fit in
 * RL_SLOT_KEYS_MAX_BYTES: checked for lockSemaphore() and inspect() before anything is built. */
size_t rl_semaphore_key_max(int64_t limit);

/* --- shared (rl_shared.c) ----------------------------------------------------------------- */

/* The policy of shared holders: base with the shared scripts in place of the exclusive ones. rl_lock_acquire() (keys with multi set), rl_lock_release(),
 * rl_lock_extend() and rl_lock_validity() under it act on our holder in the key's hash only.
 * scripts is where the substituted set lives: keep it with the policy. */
void rl_shared_policy(const rl_lock_policy *base, rl_script_set *scripts, rl_lock_policy *policy);

/* --- promote(), demote() (rl_convert.c) ----------------------------------------------------- */

/* Converts the held lock target->from_token on target->keys (one resource) in place, as an
 * acquisition of target->kind with a fresh token per attempt; 1 won (held filled), 0 not, -1 out
 * of memory.
 * - promote (target->kind exclusive or fenced; from a shared holder): each server converts only
 *   where our holder is the one live reader, so two readers can never both win (their majorities
 *   meet on a server that converted for one and then refused the other); a failed attempt turns
 *   what it converted back into our holder (for ttl) and the next one tries again.
 * - demote (target->kind shared; from an exclusive lock): one attempt, as there is no contention to
 *   wait out; when it fails, what it converted and what was left are both released: nothing is
 *   held. */
int rl_convert_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target,
	int64_t ttl, size_t servers, rl_outcome *outcomes, rl_held_lock *held);

/* --- fencing (rl_fence.c) ----------------------------------------------------------------- */

/* lock() with fencing: SET NX PX and INCR of each key's counter, then the largest counter written
 * back where our keys still hold our token; won only when that write-back has a quorum in time.
 * 1 with result and *fence filled, 0 when not, -1 when out of memory. */
int rl_fence_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence);

/* --- fair waiting (rl_fair.c, docs/design/fair.md) ------------------------------------------- */

/* The heartbeat period: a waiter that died (or stopped attempting) is skipped at most this long
 * after its last attempt. Its heartbeat key lives 3/4 of it; a live waiter attempts again at least
 * every quarter of it (RL_FAIR_REFRESH_MS), so it never misses a refresh by more than two. */
#define RL_FAIR_HEARTBEAT_MS 1000
#define RL_FAIR_HEARTBEAT_KEY_MS (RL_FAIR_HEARTBEAT_MS * 3 / 4)
#define RL_FAIR_REFRESH_MS (RL_FAIR_HEARTBEAT_MS / 4)
#define RL_FAIR_ID_LEN 16

/* One fair lock() call's place in the queue, the same on every server. */
typedef struct rl_fair_waiter {
	char id[RL_FAIR_ID_LEN + 1]; /* random hex: the member in the queue, the channel it is woken on */
	int64_t ticket;              /* 0: none drawn yet */
	int enqueue;                 /* 0: the first attempt, not queued; then every attempt (re)queues */
	int queued;                  /* an attempt queued it somewhere: its leave is due */
	int64_t limit;               /* lockSemaphore(): its limit, the semaphore's queue (RL_FAIR_SEM_SUFFIX); 0: lock() */
} rl_fair_waiter;

/* A waiter: its id drawn with random(). 0, or -1 when no random bytes could be had. */
int rl_fair_waiter_init(rl_fair_waiter *waiter, int (*random)(void *arg, void *into, size_t len), void *random_arg);

/* The channel key of a waiter (key + RL_FAIR_WAITER_SUFFIX + id, or RL_FAIR_SEM_WAITER_SUFFIX for a
 * semaphore's; rl_notify prefixes it), into out (size >= key_len + RL_FAIR_CHANNEL_EXTRA). Its length. */
#define RL_FAIR_CHANNEL_EXTRA 32
size_t rl_fair_channel_key(char *out, const char *key, size_t key_len, const rl_fair_waiter *waiter);

/* One attempt of a fair lock() on keys (one resource) under policy (whose scripts are
 * rl_scripts_fair()'s: its rollback wakes the head): with waiter->enqueue, first a ticket when it
 * has none (the counter's largest value over a quorum of answers; without a quorum the attempt is
 * lost), then RL_SCRIPT_FAIR_LOCK. 1 won (result filled), 0 not, -1 out of memory. */
int rl_fair_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	rl_fair_waiter *waiter, size_t servers, rl_outcome *outcomes, rl_lock_result *result);

/* A fair waiter's ticket on keys (one resource) by the ticket script given: the counter's largest value
 * over a quorum of answers; 0 without a quorum (the attempt is lost, tried again), -1 out of memory. */
int64_t rl_fair_ticket(const rl_lock_io *io, const rl_lock_policy *policy, const rl_script *script,
	const rl_lock_keys *keys, size_t servers, rl_outcome *outcomes);

/* The waiter leaves the queue on every server (sent, not awaited): after it won (the servers it did
 * not win keep it otherwise) or gave up. Nothing when it never queued. A semaphore's waiter leaves
 * its queue, and the waiters owed a free slot are woken. */
void rl_fair_leave(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_fair_waiter *waiter);

#endif /* RL_KINDS_H */
