/* Notified waiting ('waitTimeout'): instead of a fixed number of attempts, keep trying until a
 * deadline and, between attempts, sleep until a release is announced by any server or a backoff
 * timer fires. Plain C, no zvals.
 *
 * Releases announce themselves: the unlock scripts (rl_scripts.h, RL_LUA_ANNOUNCE) SPUBLISH on the
 * channel of the key's slot and PUBLISH on RL_NOTIFY_CHANNEL_PREFIX + key when the SPUBLISH reached
 * nobody, when, and only when, they deleted our key, in the same round trip as the delete. A waiter
 * SUBSCRIBEs to the channels of its keys on dedicated connections (never the request/reply ones,
 * which a subscription would take over) -- a cluster member's waiter SSUBSCRIBEs on the master of
 * its keys' slot instead, following one MOVED, and SUBSCRIBEs where that is refused (keys of
 * several slots, a server before 7.0) --, waits (bounded) for the subscriptions to be confirmed,
 * and only then makes the attempt that the wait follows: a release between that attempt and the
 * wait is therefore never missed. The very first attempt is made before subscribing at all, so an
 * uncontended lock costs nothing more.
 *
 * An announcement's message is the released token ('' from an older version, or where no token
 * went). A failed attempt's rollback announces too, and its waiter hears it: a message carrying the
 * token of one of the waiter's own last RL_NOTIFY_OWN rollbacks wakes nothing (rl_notify_own), any
 * other message, the empty one included, may wake the wait. Without it a waiter whose attempts keep
 * winning a minority woke itself at once after each: thousands of attempts a second
 * (docs/design/renewal.md#a-rollback-no-longer-wakes-its-own-waiter). Another's token wakes at once
 * when a quorum of the servers announced it (a release: a rollback undoes a minority), and at most once
 * per retryDelay when fewer did, so that waiters whose rollbacks wake each other do not loop either
 * (rl_notify_pace; docs/design/renewal.md#minority-waiters-no-longer-wake-each-other-in-a-loop).
 *
 * The loop (rl_wait_acquire) wraps any acquisition given as a callback: lock(), run(), and later
 * other kinds of locks. Every attempt goes through an rl_lock_io whose calls are clamped to the
 * deadline (rl_clamped_io), so the whole wait is bounded by it whatever the servers do. */
#ifndef RL_NOTIFY_H
#define RL_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "net/rl_cluster.h"
#include "core/rl_lock.h"
#include "core/rl_scripts.h" /* RL_NOTIFY_CHANNEL_PREFIX */

/* How a server's subscription listens (rl_notify_node.mode). */
#define RL_NOTIFY_PLAIN 0         /* SUBSCRIBE on RL_NOTIFY_CHANNEL_PREFIX + key */
#define RL_NOTIFY_SHARDED 1       /* SSUBSCRIBE on the channel in the key's slot (a cluster member) */
#define RL_NOTIFY_SHARDED_MOVED 2 /* the same, on the node its MOVED named (followed once) */

/* Per server: how it listens, and where after a MOVED. */
typedef struct rl_notify_node {
	unsigned char mode;
	unsigned char again;          /* subscribed again after the server dropped its sharded channels, unconfirmed */
	rl_endpoint moved;            /* RL_NOTIFY_SHARDED_MOVED: the member's endpoint, host and port the MOVED's */
	char moved_host[256];
} rl_notify_node;

/* The waiter's rollbacks remembered: the last attempt's, and the one before it, whose messages may
 * still be in flight from a server that answered late when the next attempt began. */
#define RL_NOTIFY_OWN 2

/* Tokens of others' announcements remembered, with the servers that sent each (rl_notify_pace's count). */
#define RL_NOTIFY_HEARD 16

/* Subscriptions on dedicated connections to every server of a cluster. */
typedef struct rl_notify {
	size_t count;
	const rl_endpoint *endpoints; /* borrowed from the cluster: used on the caller's thread */
	const rl_lock_keys *keys;     /* borrowed: the channels' keys, for a subscription made again */
	rl_conn *conns;
	rl_notify_node *nodes;
	unsigned *unconfirmed;        /* per server: subscribe confirmations still to come */
	unsigned channels;
	size_t notifications;         /* messages seen so far that woke the wait */
	size_t own_heard;             /* messages ignored: our own rollback's announcement */
	char own[RL_NOTIFY_OWN][RL_TOKEN_LEN + 1]; /* our last rollbacks' tokens, newest first ('': none) */
	/* Others' announcements (rl_notify_pace): a token heard from a quorum of the servers is a release and
	 * wakes at once; from fewer (a rollback, or a release's first servers) it wakes at most once per gap. */
	unsigned quorum;
	double minority_gap_ms;       /* retryDelay */
	double minority_woke_ms;      /* when a minority's announcement last woke the wait (< 0: never) */
	size_t minority_heard;        /* messages of a minority that woke nothing */
	size_t heard_next;            /* the ring's next slot */
	char heard[RL_NOTIFY_HEARD][RL_TOKEN_LEN];
	unsigned char heard_woke[RL_NOTIFY_HEARD]; /* how that token woke the wait: as a minority, as a quorum */
	unsigned char *heard_from;    /* RL_NOTIFY_HEARD x count: which servers announced heard[k] */
	/* Per server: whether it announced any token (ours or another's) since this pause began: a key went
	 * there. Once a quorum of the servers did, the lock is free on a quorum whatever tokens freed it (a
	 * split vote's rollbacks, each a minority): that wakes at once (rl_notify_pace). */
	unsigned char *freed;
} rl_notify;

/* Opens the connections and subscribes to the channels of keys, then waits until every server
 * confirmed, failed, or until_ms passed. 0, or -1 when out of memory (nothing is left open). */
int rl_notify_open(rl_notify *notify, const rl_cluster *cluster, const rl_lock_keys *keys, double until_ms);

/* token ('' or NULL: none) is the waiter's rollback: its announcements wake nothing from now on,
 * nor those of the one before it. */
void rl_notify_own(rl_notify *notify, const char *token);

/* How others' announcements wake the wait: a token announced by quorum servers (fewer when fewer listen)
 * at once, one announced by fewer at most once per gap_ms. */
void rl_notify_pace(rl_notify *notify, unsigned quorum, double gap_ms);

/* Sleeps until a release is announced on any server (1) or until_ms (0); -1 when the wait was
 * cancelled (net/rl_wait_cancel.h). Our own rollbacks' announcements (rl_notify_own) are not one. */
int rl_notify_wait(rl_notify *notify, double until_ms);

/* Servers whose subscription is confirmed and still open. */
size_t rl_notify_listening(const rl_notify *notify);

/* Closes the connections and frees what open allocated. */
void rl_notify_close(rl_notify *notify);

/* An rl_lock_io whose calls never wait past deadline_ms. */
typedef struct rl_clamped_io {
	rl_lock_io io;
	const rl_lock_io *inner;
	double deadline_ms;
} rl_clamped_io;

void rl_clamped_io_init(rl_clamped_io *clamped, const rl_lock_io *inner, double deadline_ms);

/* One acquisition attempt over io: 1 won, 0 not (try again), -1 stop (error, no randomness).
 * rolled_back: the token its rollback carried ('' when it sent none; rl_lock_result.rolled_back). */
typedef int (*rl_attempt_fn)(void *arg, const rl_lock_io *io, char rolled_back[RL_TOKEN_LEN + 1]);

typedef struct rl_wait_stats {
	int64_t attempts;
	size_t notifications; /* wake-ups by a release message */
	size_t own_heard;     /* announcements of our own rollbacks, heard and ignored */
	size_t minority_heard; /* others' announcements from a minority that woke nothing (rl_notify_pace) */
	size_t listening;     /* servers subscribed when the waiting began */
} rl_wait_stats;

/* How a waiter's connection set is shared while it sleeps (NULL: kept throughout). rest() gives
 * it back before each sleep for a release; resume() borrows one again for the next attempt and
 * returns its io (NULL when none came before deadline_ms: the wait ends, not won). subscribe() says
 * whether a subscription set may be opened (1: counted until unsubscribed()), else the waiter
 * sleeps its backoff alone. */
typedef struct rl_wait_sets {
	void *arg;
	void (*rest)(void *arg);
	const rl_lock_io *(*resume)(void *arg, double deadline_ms);
	int (*subscribe)(void *arg);
	void (*unsubscribed)(void *arg);
} rl_wait_sets;

/* Attempts until one wins, fails hard, or deadline_ms passes; between attempts, waits for a
 * release (rl_notify_pace: by quorum and retry_delay) or a backoff drawn from [retry_delay/2,
 * retry_delay] (io->random). Returns the last attempt's result (0 when the deadline passed, -1 when
 * out of memory). */
int rl_wait_acquire(rl_cluster *cluster, const rl_lock_io *io, const rl_lock_keys *keys, double deadline_ms,
	int64_t retry_delay, unsigned quorum, double subscribe_bound_ms, rl_attempt_fn attempt, void *arg,
	const rl_wait_sets *sets, rl_wait_stats *stats);

#endif
