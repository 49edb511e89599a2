/* The Redlock driver: the sequencing that decides safety, in plain C (no zvals, no sockets).
 *
 * - lock: attempts, a fresh token for every attempt, the rollback of a failed attempt, the retry
 *   pause, the won-and-valid decision. As an explicit state machine (rl_acquire_next), so that a
 *   simulation can interleave many clients on a virtual clock, and as a blocking loop
 *   (rl_lock_acquire) over an rl_lock_io.
 * - release, extend, validity: one fan-out each, with their arithmetic.
 *
 * Why a token per attempt: a failed attempt's SET and rollback may be delayed on a connection we
 * gave up on, and reach the server after a later attempt's SET (on a new connection) won the key
 * there. With one token per call that rollback deleted the later attempt's key. With a token per
 * attempt a command can only ever touch keys holding the token it carries: nothing sent for one
 * attempt or call can remove, shorten or extend a key written by a later one, whatever the delays
 * and reorderings between connections. (extend never shortens, so neither can two extend() calls
 * of one lock that arrive out of order.) */
#ifndef RL_LOCK_H
#define RL_LOCK_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_algorithm.h"
#include "core/rl_token.h"
#include "protocol/rl_request.h"

/* Frees a malloc()ed buffer of the driver and forgets it, so that a second free (a retried cleanup, a
 * cleanup after a failed set-up) is harmless. */
#define RL_FREE_CLEAR(pointer) (free(pointer), (pointer) = NULL)

/* A script, sent as EVAL with its source (core/rl_scripts.c says why never EVALSHA). */
typedef struct rl_script {
	const char *source;
	size_t length;
	/* "EVAL source 1" encoded (rl_command.head), made by rl_scripts_startup(); NULL before */
	const char *eval1_head;
	size_t eval1_head_len;
} rl_script;

typedef struct rl_script_set {
	rl_script unlock, lock_multi, unlock_multi, extend, validity;
	/* lockShared(), lockSemaphore(), fencing (rl_scripts_kinds.h) */
	rl_script shared_lock, shared_unlock, shared_extend, shared_validity;
	rl_script semaphore_lock, semaphore_release, lock_fenced, fence_writeback;
	rl_script force_unlock; /* forceUnlock(): the keys whoever holds them */
	rl_script promote, demote, demote_rollback; /* promote(), demote() (rl_convert.c) */
	/* validity and shared_validity without their no-writes shebang, for Redis < 7 (rl_scripts.h) */
	rl_script validity_plain, shared_validity_plain;
	rl_script writer_mark; /* a waiting writer's mark: readers wait (rl_writer_mark) */
	rl_script rollback_mark; /* a lock() attempt's rollback carrying it (one resource) */
	/* fair waiting (rl_scripts_kinds.h, core/rl_fair.c) */
	rl_script fair_ticket, fair_lock, fair_unlock, fair_leave;
	/* fair semaphores: a queue of their own (rl_scripts_kinds.h); a fair object's semaphore_release is fair_semaphore_release */
	rl_script fair_semaphore_ticket, fair_semaphore_lock, fair_semaphore_release, fair_semaphore_leave;
	rl_script extend_many; /* extend for many locks in one call (the renewal's batch, rl_lock_extend_many_init) */
} rl_script_set;

/* An EVAL of a script over keys with args after them. Small calls keep their argument arrays
 * inline (no heap). */
#define RL_SCRIPT_CALL_INLINE 16

typedef struct rl_script_call {
	rl_request request;
	const char **argv;
	size_t *argvlen;
	char numkeys[24];
	const char *inline_argv[RL_SCRIPT_CALL_INLINE];
	size_t inline_argvlen[RL_SCRIPT_CALL_INLINE];
} rl_script_call;

struct rl_lock_keys;
/* 0, or -1 when out of memory. The call points at keys and args: keep them alive with it. */
int rl_script_call_init(rl_script_call *call, const rl_script *script, const struct rl_lock_keys *keys, int argc,
	const char **args, const size_t *arglens, rl_expect expect);
void rl_script_call_free(rl_script_call *call);

/* The resource(s) as Redis sees them (prefix included). multi: the all-or-none scripts, also for
 * a list of one; otherwise count is 1 and the plain SET NX PX path is used. */
typedef struct rl_lock_keys {
	size_t count;
	const char *const *keys;
	const size_t *lens;
	int multi;
} rl_lock_keys;

typedef struct rl_dialect rl_dialect;

/* A heal sent to one member and not yet known to have landed within the promise of the extend that sent
 * it (docs/design/renewal.md#a-heal-that-lands-late). */
typedef struct rl_heal {
	double until;              /* that promise's end (rl_lock_io.now clock); 0: none */
	unsigned long long stream; /* the stream it went on (rl_lock_io.stream): a reply on it comes after it */
} rl_heal;

typedef struct rl_lock_policy {
	unsigned quorum;
	double drift_factor;
	int64_t retry_delay;   /* ms; pauses are drawn from [retry_delay/2, retry_delay] */
	int64_t retry_count;   /* attempts per lock() call; 0 behaves as 1 */
	double call_bound_ms;  /* how long unlock()/validity()/extend() may wait in all */
	const rl_script_set *scripts;
	rl_token_kind token_kind; /* what the tokens drawn say of the lock (core/rl_token.h) */
	/* unlock() by its script even where DELEX/DELIFEQ exist: the script PUBLISHes to waiters
	 * ('waitTimeout'), or the key is not a string holding the token (lockShared()'s hash) */
	int release_by_script;
	/* the commands: scripts, or the servers' own ('scripts' => false, NOPERM learnt): core/rl_dialect.h */
	const struct rl_dialect *dialect;
	double dialect_learnt_ms; /* when NOPERM was learnt (rl_dialect_learn): tried again from then + RL_DIALECT_RETRY_MS */
	unsigned servers;      /* how many: the per-key round trips without scripts merge their votes */
	/* extend(): wait for every server's answer (within the call's bound), not only for a quorum: set
	 * while a Sentinel member may have changed masters under the lock, so that its answer comes in
	 * and the extend can adopt it (docs/design/sentinel.md#master-changed-since-the-lock-was-taken) */
	int await_every_reply;
	/* extend(): per server, the members known to have lost this lock's key (its last extend found
	 * it missing there), awaited within the call's bound (rl_request.heals); NULL: none known */
	const unsigned char *lost_on;
	/* extend(): per server, the heal sent there not yet known to have landed in time; read and updated by
	 * rl_lock_extend_settle, where a yes that may rest on a late heal is not counted; NULL: none kept.
	 * validity(): read only, the same yes not counted (rl_lock_validity) */
	rl_heal *heals;
	/* an acquisition that waits as a writer: its mark keeps new readers out (rl_writer_mark); NULL
	 * for every other call */
	struct rl_writer_mark *writer_mark;
} rl_lock_policy;

/* --- The acquisition state machine ---------------------------------------------------- */

typedef enum {
	RL_STEP_SEND_LOCK,    /* run lock_command() for the current token until step_deadline */
	RL_STEP_SEND_RELEASE, /* send the rollback of the current token, without waiting */
	RL_STEP_PAUSE,        /* wait until step_deadline */
	RL_STEP_WON,          /* the lock is ours: token and validity are set */
	RL_STEP_LOST,         /* every attempt failed */
	RL_STEP_NO_RANDOM     /* no random bytes could be had: nothing was sent */
} rl_acquire_step;

typedef struct rl_acquire {
	int64_t ttl;
	int64_t attempts;
	const rl_lock_policy *policy;
	enum { RL_ACQ_START, RL_ACQ_SENT, RL_ACQ_ROLLED_BACK, RL_ACQ_DONE } state;
	int64_t attempt;           /* 1-based number of the current attempt */
	char token[RL_TOKEN_LEN + 1];
	double attempt_start;
	double step_deadline;      /* for SEND_LOCK and PAUSE */
	double validity;           /* set with WON */
	rl_token_kind token_kind;  /* written into every token drawn */
} rl_acquire;

void rl_acquire_init(rl_acquire *acquire, const rl_lock_policy *policy, int64_t ttl);

/* After a SEND_LOCK that did not win: when the servers refusing the script (NOPERM) leave too
 * few for a quorum (rl_outcomes_scripts_refused), no later attempt can win with it either (a
 * refusal is not contention), so this attempt is the last: its rollback is sent, no pause follows,
 * and the caller learns the dialect from these outcomes at once (rl_dialect_learn) rather than
 * after retryCount pauses of retryDelay. The one rule for every acquisition loop. */
void rl_acquire_stop_if_refused(rl_acquire *acquire, unsigned votes, const rl_outcome *outcomes);
/* The same for an answer no wait can change: a negative integer (RL_SCRIPT_PROMOTE's -1, two
 * promotions waiting for each other) from any server ends the attempts after this one; 1 then. */
int rl_acquire_stop_if_hopeless(rl_acquire *acquire, unsigned votes, const rl_outcome *outcomes);

/* --- Writer preference (docs/design/primitives.md#writer-preference) ----------------------- */

/* A writer (lock(), a fenced lock(), promote()) that waits for readers marks each of its keys on
 * the servers (RL_SCRIPT_WRITER_MARK, or RL_SCRIPT_ROLLBACK_MARK as a lock()'s rollback); lockShared() is refused where a live mark is, so readers
 * already in keep their hold and no new one enters while a quorum carries a mark. The mark expires
 * RL_WRITER_MARK_SLACK_MS after the pause the writer takes before its next attempt, and is sent
 * again after every failed attempt: a writer that dies stops keeping readers out at most its pause
 * (retryDelay) + RL_WRITER_MARK_SLACK_MS after its last attempt. */
#define RL_WRITER_MARK_SLACK_MS 500

typedef struct rl_writer_mark {
	const rl_script *script;        /* NULL: this acquisition leaves no mark (rl_kind_writer_mark) */
	const rl_script *rollback;      /* the rollback carrying it (in_rollback) */
	const struct rl_lock_keys *keys;
	char member[RL_TOKEN_LEN + 1];  /* who waits: a promoting reader's token, else random (drawn once) */
	size_t member_len;
	double then_ms;                 /* the pause a caller's own loop takes after a failed call (0: none) */
	int in_rollback;                /* lock() of one resource: each attempt's rollback carries the mark */
	int sent;                       /* a mark went out: taken back by rl_writer_mark_clear */
} rl_writer_mark;

/* After a failed attempt, before a pause of pause_ms: the mark, for pause_ms + the slack, sent
 * without waiting. */
void rl_writer_mark_send(rl_writer_mark *mark, const rl_lock_io *io, double pause_ms);
/* The rollback of a failed attempt (mark->in_rollback) with the mark for ms more, or taken back (ms 0:
 * after the last attempt of a call that no loop of the caller's follows). */
void rl_writer_mark_rollback(rl_writer_mark *mark, const rl_lock_io *io, const char *token, double ms);
/* At the end of the acquisition, won or not: the mark taken back (waking readers left waiting). */
void rl_writer_mark_clear(rl_writer_mark *mark, const rl_lock_io *io);

/* Given what the previous step achieved (votes: the yes votes of a SEND_LOCK; ignored after the
 * other steps) and the time now, says what to do next. random() draws the tokens and pauses. */
rl_acquire_step rl_acquire_next(rl_acquire *acquire, double now, unsigned votes,
	int (*random)(void *arg, void *into, size_t len), void *random_arg);

/* --- Blocking calls over an rl_lock_io -------------------------------------------------- */

typedef struct rl_lock_result {
	char token[RL_TOKEN_LEN + 1];
	double validity;
	int64_t attempts; /* attempts made, won or not */
	int no_random;    /* failed because no random bytes could be had */
	int hopeless;     /* a server said no attempt can win (a promotion deadlocked): no more were made */
	/* the token of the last attempt rolled back ('' when none was): the release its rollback
	 * announces carries it, and is no reason to wake the waiter that sent it (rl_notify.h) */
	char rolled_back[RL_TOKEN_LEN + 1];
} rl_lock_result;

/* One lock() call. 1 when won (result filled), 0 when not, -1 when out of memory. */
int rl_lock_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	int64_t ttl, rl_outcome *outcomes, rl_lock_result *result);

/* unlock(): deletes the keys still holding token. Yes votes (compare with the quorum), or -1 when
 * out of memory. */
int rl_lock_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes);

/* extend(): gives every key still holding token at least ttl ms more (never less than it has).
 * The new validity (> 0) when a quorum did so in time, 0 when not, -1 when out of memory. Only
 * then, our key is written again (NX) where a member answered "not ours": self-healing, the one
 * place for every extend and renewal (docs/design/renewal.md#self-healing-renewal). */
double rl_lock_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes);

/* --- Many extends in one round trip (the autoExtend thread's batch: docs/design/renewal.md#one-round-trip-for-every-due-lease) --- */

/* One lock's extend as one command, built by its dialect (rl_dialect.extend_prepare). It points at
 * the keys and token it was built from: keep them alive with it. */
typedef struct rl_extend_call {
	rl_request request;
	rl_script_call script;  /* the scripted dialect's EVAL */
	const char *argv[7];    /* the native dialect's SET key token IFEQ token PX ttl */
	size_t argvlen[7];
	char ttl_text[24];
	int scripted;
} rl_extend_call;

/* Builds it: 0; 1 when that extend is more than one command (several keys without scripts: the
 * lock is extended alone, by rl_lock_extend); -1 when out of memory. */
int rl_lock_extend_prepare(const rl_lock_policy *policy, const rl_lock_keys *keys, const char *token, size_t token_len,
	int64_t ttl, rl_extend_call *call);
void rl_lock_extend_call_free(rl_extend_call *call);

/* Many locks' extends as one call of RL_SCRIPT_EXTEND_MANY (the scripted dialect's extend of a key
 * holding a token: an exclusive lock's, a fenced lock's, a semaphore's slot), its reply one vote per
 * lock (rl_request.spread). At most RL_EXTEND_MANY_MAX locks a call: the reply is a status line of one
 * character per lock, which the reader keeps up to RL_READER_LINE_HEAD (160) bytes, so a call's line
 * must be shorter (a longer line, cut to 160, then never passes for one of 128); a script blocks its
 * server while it runs, which 128 locks' GET, PTTL and PEXPIRE keep to a fraction of a millisecond;
 * and the script's text and the EVAL's own work, once per call, are then shared by 128 locks
 * (docs/design/renewal.md#one-script-call-for-many-leases). */
#define RL_EXTEND_MANY_MAX 128

typedef struct rl_extend_many_call {
	rl_request request;
	const char **argv;
	size_t *argvlen;
	char *texts; /* numkeys, and each lock's key count and ttl, as decimals */
} rl_extend_many_call;

/* Builds the call for n locks (1..RL_EXTEND_MANY_MAX): lock j's keys, token and ttl. It points at
 * them and at lost_on (rl_request.lost_on: the members any of them is known to have lost; NULL:
 * none): keep them alive with it. 0, or -1 when out of memory. */
int rl_lock_extend_many_init(rl_extend_many_call *call, const rl_lock_policy *policy, size_t n,
	const rl_lock_keys *const *keys, const char *const *tokens, const size_t *token_lens, const int64_t *ttls,
	const unsigned char *lost_on);
void rl_lock_extend_many_free(rl_extend_many_call *call);

/* Whether a heal is recorded for one of servers members (heals: rl_lock_policy.heals, NULL: none) whose
 * promise has ended by now: that member's yes will not count in a round trip starting now, so the round
 * trip awaits every member's answer, not the first quorum's, or one yes short it would answer false while
 * the others hold a quorum (rl_lock_extend, rl_lock_validity; the renewal thread renews such a lease
 * alone, never in a batch, which decides at the first quorum). Not for a heal still within its promise:
 * the usual next extend, whose first quorum (counting that member) comes before the promise ends and
 * clears the record, is not made to wait for a slow member. */
int rl_heals_late(const rl_heal *heals, size_t servers, double now);

/* What rl_lock_extend does once its round trip is over (asked at start, answered by now, votes
 * yes among outcomes): the validity, and the self-healing under it, with policy->heals (a yes
 * that may rest on a late heal is not counted; the heals known landed are forgotten, the one sent
 * now recorded). The one place for all three, so that a lock renewed in a batch is judged as one
 * extended alone. */
double rl_lock_extend_settle(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, double start, double now, unsigned votes,
	const rl_outcome *outcomes);

/* forceUnlock(): deletes the keys whoever holds them. Servers that ran it (compare with the
 * quorum), or -1 when out of memory. */
int rl_lock_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes);

/* validity(): ms a quorum still holds token, less drift and the time asked; 0 when none. Stops
 * as soon as a quorum answered yes: the quorum-th largest of more answers could only be larger,
 * so the figure from the first quorum is a safe lower bound. A yes extend() would not count
 * (policy->heals: a key there maybe only by a heal that landed late) is not counted either, and
 * then every answer is awaited (rl_heals_late). -1 when out of memory. */
double rl_lock_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes);

/* --- Acquisitions whose attempt is more than one command (rl_attempts.c) ------------------- */

typedef struct rl_attempt_ops {
	void *arg;
	/* Runs the attempt's lock step(s) for acquire->token until acquire->step_deadline: the votes to
	 * compare with the quorum. */
	unsigned (*lock)(void *arg, const rl_lock_io *io, const rl_acquire *acquire, rl_outcome *outcomes);
	/* Sends the rollback of acquire->token, without waiting. */
	void (*rollback)(void *arg, const rl_lock_io *io, const rl_acquire *acquire);
} rl_attempt_ops;

/* rl_lock_acquire()'s loop over ops, with acquire initialised by the caller (its token buffer is
 * what the caller's commands point at). 1 when won (result filled), 0 when not. */
int rl_attempts_run(const rl_lock_io *io, rl_acquire *acquire, const rl_attempt_ops *ops, rl_outcome *outcomes,
	rl_lock_result *result);

/* An attempt that is one script over keys (ARGV: the first lock_argc of args) and, when writeback
 * is set, fencing's write-back of the largest counter its quorum returned (ARGV: token, fence);
 * its rollback another script over the first rollback_argc of args. args point into the caller's
 * rl_acquire (its token). A lock() with fencing, promote(), demote(), a fair lock()
 * (rl_fence.c, rl_convert.c, rl_fair.c). refusal_writes_nothing: the lock script's refusal (a
 * reply <= 0) wrote nothing of this attempt's (no key holds its token there), so a lost attempt's
 * rollback goes only to the servers that did not answer so (none when every server refused): a fair
 * waiter's refused attempts, its heartbeat every 125-250 ms among them (docs/design/fair.md). */
typedef struct rl_scripted_attempt {
	const rl_script *lock, *rollback, *writeback;
	const char *const *args;
	const size_t *lens;
	int lock_argc, rollback_argc;
	int refusal_writes_nothing;
	/* the rollback's ARGV when not the first rollback_argc of args (NULL: those): a fair waiter's
	 * token and id, so that its rollback does not wake it (RL_SCRIPT_FAIR_UNLOCK) */
	const char *const *rollback_args;
	const size_t *rollback_lens;
} rl_scripted_attempt;

/* rl_attempts_run() over such an attempt. 1 when won (result filled, *fence with a writeback), 0
 * when not, -1 when out of memory. */
int rl_scripted_attempts_run(const rl_lock_io *io, rl_acquire *acquire, const rl_scripted_attempt *spec,
	const rl_lock_keys *keys, size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence);

#endif
