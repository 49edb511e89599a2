/* The leases an object tracks: for each lock it holds, its cap on extensions ('maxExtensions',
 * counted for extend() and renewals alike), the end of its last validity, whether it is lost, and,
 * with 'autoExtend', its background renewal. Every kind of lock is tracked the same way; the
 * renewal extends each with its own kind's script (core/rl_kinds.h). Plain C: the renewal thread
 * never calls the Zend API nor touches PHP memory; it owns its own connections (a copy of the
 * object's servers, credentials included, wiped when freed) and its own copies of keys and tokens.
 *
 * Loss is one state. A lease is lost when a renewal did not reach a quorum in time, or when the
 * time passed the end of its last validity whatever the reason (renewals capped, failed, or never
 * asked for). A lost lease stays lost: extend() no longer asks the servers, validity() says 0
 * without a round trip, run() throws. Removing a lease (unlock(), end of run()) comes before the
 * release is sent, so a renewal that finds our own deleted keys is never taken for a loss.
 *
 * The renewal thread runs only while renewed leases exist: it starts with the first one and is
 * stopped and joined by the removal of the last, rl_leases_stop_owned() (end of the request) or
 * rl_leases_destroy(). Joining waits at most for one renewal in flight, bounded by
 * min(ttl, the servers' call bound). Leases whose keys have expired on every server for sure are
 * forgotten as new ones arrive, so abandoned locks cannot make the table grow without bound.
 *
 * fork(): a pthread_atfork handler keeps the registry's mutex unlocked in the child; the child
 * never joins or signals its parent's thread nor uses the sockets it shares with it, wipes what a
 * renewal in flight had in its output buffers (AUTH), and renews nothing: its copies of the leases
 * are forgotten. */
#ifndef RL_LEASES_H
#define RL_LEASES_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_kinds.h"
#include "core/rl_token.h"
#include "net/rl_cluster.h"

typedef struct rl_leases rl_leases;

typedef struct rl_leases_config {
	const rl_cluster *servers;     /* endpoints copied for the renewal thread */
	const rl_lock_policy *policy;  /* quorum, drift and scripts (static) for renewals */
	int64_t max_extensions;        /* extensions per lease, extend() and renewals together; < 0: no cap */
	int renew;                     /* 'autoExtend': renew every lease every ttl/3 */
	const void *owner;             /* who stops it at the end of a request (rl_leases_stop_owned) */
} rl_leases_config;

typedef enum {
	RL_LEASE_UNKNOWN = 0, /* not tracked (never, removed, forgotten, or after a fork) */
	RL_LEASE_HELD,        /* within its validity (renewed so far, or not due yet) */
	RL_LEASE_CAPPED,      /* renewed maxExtensions times: held until its validity ends, then lost */
	RL_LEASE_LOST         /* a renewal failed, or its last validity ran out */
} rl_lease_state;

/* NULL when out of memory, or when renew is asked where threads are not supported (Windows). */
rl_leases *rl_leases_create(const rl_leases_config *config);

/* Tracks a lock just won: validity ms from now, its keys holding token for ttl ms at most from
 * now on any server. pinned: never forgotten while it is tracked (run()'s lock, whose loss is
 * asked for at its end). 0, or -1 when out of memory or no thread could be started (then nothing
 * is tracked). */
int rl_leases_add(rl_leases *leases, const rl_lock_target *held, const char *token, size_t token_len, int64_t ttl,
	double validity, int pinned);

rl_lease_state rl_leases_state(rl_leases *leases, const char *token, size_t token_len);

/* The master each server's vote for token came from, count of them (rl_cluster_note_masters; one per
 * server of the object): set when the lock is taken and when an extend() adopts a healed member, read
 * by extend() and validity() for the master-changed rule (docs/design/sentinel.md). Reading: 1 with
 * masters filled, 0 when token is not tracked or has no Sentinel member. The renewal thread reads and
 * adopts them in the lease itself. */
void rl_leases_set_masters(rl_leases *leases, const char *token, size_t token_len, const uint32_t *masters,
	size_t count);
/* When token's lock was taken (rl_now_ms() as it was tracked), for the clock-jump rule
 * (rl_cluster_expect_clock); 0 when it is not tracked. */
double rl_leases_taken_at(rl_leases *leases, const char *token, size_t token_len);
int rl_leases_masters(rl_leases *leases, const char *token, size_t token_len, uint32_t *masters, size_t count);

/* Which members are known to have lost token's key (docs/design/renewal.md#which-members-an-extend-awaits):
 * after the lock is taken (acquired 1: every member that did not answer yes) and after each extend
 * (acquired 0: every member that answered "not ours" or could not be connected to; a yes, or no answer, clears it). Read into
 * lost_on[count] for the next extend, which awaits them: 1 when any is, 0 when none or not tracked. */
void rl_leases_note_votes(rl_leases *leases, const char *token, size_t token_len, const rl_outcome *outcomes,
	size_t count, int acquired);
int rl_leases_lost_on(rl_leases *leases, const char *token, size_t token_len, unsigned char *lost_on, size_t count);

/* The heals sent to token's members and not yet known to have landed within the promise of the extend
 * that sent them (rl_lock_policy.heals, docs/design/renewal.md#a-heal-that-lands-late), for every lock an
 * extend of this object healed, tracked as a lease or not (then until it is removed, or its heals are
 * known landed; at most RL_HEAL_RECORDS_MAX such locks). Read into heals[count] for the next extend
 * (zeroes: none); what that extend left there is noted back against what was read (before), so that
 * another extend of the lock meanwhile loses nothing: a heal it recorded is kept (the earlier when both
 * sent one), one it forgot stays forgotten. */
void rl_leases_heals(rl_leases *leases, const char *token, size_t token_len, rl_heal *heals, size_t count);
void rl_leases_note_heals(rl_leases *leases, const char *token, size_t token_len, const rl_heal *before,
	const rl_heal *after, size_t count);

/* The ttl token was taken (or last extended) with, and the end of its last validity (rl_now_ms
 * clock). 0, or -1 when token is not tracked. */
int rl_leases_terms(rl_leases *leases, const char *token, size_t token_len, int64_t *ttl, double *valid_until);

/* A lock is released at run()'s end, and at the end of the request, only by the process that took
 * it. 1 when token's lock was taken by this process' run() (its pinned lease) and is still tracked;
 * 0 in a forked child for its parent's (the registry forgets them there: see above), also once the
 * child's extend() of the handed array tracks it again for the cap (a lease not pinned), or once
 * removed. No side effect. */
int rl_leases_own(rl_leases *leases, const char *token, size_t token_len);

/* fn(arg, held, token, token_len) for each lock run() still holds (a pinned lease) that this
 * process took: on copies made under the registry's lock, called without it (fn may release the
 * lock, rl_leases_remove() included). Returns how many; -1 when a copy could not be made. */
int rl_leases_each_pinned(rl_leases *leases, void (*fn)(void *arg, const rl_lock_target *held, const char *token,
	size_t token_len), void *arg);

/* Why a lease was found lost ('onLoss' hands it on). */
typedef enum {
	RL_LOSS_RENEWAL_FAILED = 1, /* a renewal did not reach a quorum */
	RL_LOSS_CAPPED,             /* renewed or extended maxExtensions times, and its validity ran out */
	RL_LOSS_EXPIRED,            /* its validity ran out unrenewed (none asked for, or a renewal hung or starved) */
	RL_LOSS_NOT_HELD            /* extend() or validity() found that a quorum no longer holds it */
} rl_loss_reason;

typedef struct rl_loss {
	char token[RL_TOKEN_LEN + 1];
	size_t token_len;
	rl_loss_reason reason;
} rl_loss;

/* 'onLoss': notice(arg) is called once for each lease found lost, on whichever thread finds it
 * (the renewal thread, or a call's) with the registry's lock held: it may only store flags. The
 * losses are then taken on the caller's own thread with rl_leases_take_losses. */
void rl_leases_set_loss_notice(rl_leases *leases, void (*notice)(void *), void *arg);

/* extend() or validity() found token no longer held by a quorum: its lease is lost (not while
 * promote()/demote() converts it). */
void rl_leases_not_held(rl_leases *leases, const char *token, size_t token_len);

/* Up to room losses found since the last take (each lease once; none of a lease removed since),
 * copied into out: their count. */
size_t rl_leases_take_losses(rl_leases *leases, rl_loss *out, size_t room);

/* Before extend() asks the servers: 1 when the cap allows one more extension (counted), 0 when
 * not (capped, or lost: the servers are not asked), -1 when token is not tracked. */
int rl_leases_begin_extend(rl_leases *leases, const char *token, size_t token_len);

/* After extend() won validity ms (asked at start, for ttl): the lease's validity moves on. */
void rl_leases_extended(rl_leases *leases, const char *token, size_t token_len, double start, double validity,
	int64_t ttl);

/* promote()/demote() changes the form of token's lock on the servers (converting 1) or is done
 * with it (0). Meanwhile it is still renewed on time (a promote() that waits keeps its shared
 * holder alive), but a renewal that finds it converted, or the end of its validity, is no loss
 * until the conversion is done; then it is renewed at once and judged as before. Returns its
 * state. */
rl_lease_state rl_leases_converting(rl_leases *leases, const char *token, size_t token_len, int converting);

/* The extensions token's lease has left under maxExtensions (< 0: no cap), in *left; -1 when it is
 * not tracked. And the same set on another lease: promote()/demote() hand the cap on to the lock's
 * new form, so that a round trip does not start it afresh. */
int rl_leases_left(rl_leases *leases, const char *token, size_t token_len, int64_t *left);
void rl_leases_set_left(rl_leases *leases, const char *token, size_t token_len, int64_t left);

/* Stops tracking token (and renewing it); when no renewed lease is left, stops and joins the
 * thread. Returns the state it had. */
rl_lease_state rl_leases_remove(rl_leases *leases, const char *token, size_t token_len);

/* raise(arg) is called on the renewal thread, under its mutex, when it finds token lost; never
 * after rl_leases_remove(token) returned. It must only store flags (atomics): no locks, no Zend.
 * Called at once when token is lost already. 0, or -1 when token is not tracked. */
int rl_leases_set_alarm(rl_leases *leases, const char *token, size_t token_len, void (*raise)(void *),
	void *raise_arg);

/* Telemetry: the renewals that reached a quorum and the leases found lost (by the thread, or by a
 * call that saw the validity run out) since the last take, added to *renewals and *lost; both
 * start again from 0. Each loss is counted once per lease, here and in services/rl_metrics.h. */
void rl_leases_take_events(rl_leases *leases, uint64_t *renewals, uint64_t *lost);

/* Forgets every lease of every registry of owner, stops and joins their threads, closes their
 * connections (the end of a request: objects still alive keep their registry, empty). */
void rl_leases_stop_owned(const void *owner);

/* The same for one registry, then frees everything (the copied credentials wiped). NULL is fine. */
void rl_leases_destroy(rl_leases *leases);

#endif
