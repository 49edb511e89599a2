/* Background renewal ('autoExtend'): a thread of the extension extends held locks every ~ttl/3
 * while PHP code runs. Plain C: the thread never calls the Zend API nor touches PHP memory; it
 * owns its own connections (a copy of the object's servers, credentials included, wiped when
 * freed) and its own copies of the keys and tokens (malloc).
 *
 * One rl_watchdog per RedLock object. Its thread runs only while the object has locks registered:
 * it starts with the first rl_watchdog_add() and is stopped and joined by rl_watchdog_remove() of
 * the last one, rl_watchdog_stop_owned() (end of the request) or rl_watchdog_destroy(); its connections
 * are closed when it ends. Joining waits at most for one renewal in flight, which is bounded by
 * min(ttl, the servers' call bound).
 *
 * Loss: a renewal that does not reach a quorum in time marks the lock lost (no retry: the
 * renewals are all that keeps the lease, and a majority that refused it has either expired it
 * or given it to somebody else); so does the time passing the end of the last validity won.
 * rl_watchdog_state() answers without any round trip.
 *
 * fork(): a pthread_atfork handler keeps the registry's mutex unlocked in the child; the child
 * never joins or signals its parent's thread nor uses the sockets it shares with it (closed on
 * first use), and renews nothing: its copies of the entries are forgotten. */
#ifndef RL_WATCHDOG_H
#define RL_WATCHDOG_H

#include <stddef.h>
#include <stdint.h>

#include "net/rl_cluster.h"
#include "core/rl_lock.h"

typedef struct rl_watchdog rl_watchdog;

typedef struct rl_watchdog_config {
	const rl_cluster *servers;   /* endpoints copied; greeting pointer kept (static data) */
	unsigned quorum;
	double drift_factor;
	const rl_script_set *scripts; /* static: read-only once the module started */
	int64_t max_extensions;       /* renewals per lock; < 0: no cap */
	const void *owner;            /* who stops it at the end of a request (rl_watchdog_stop_owned) */
} rl_watchdog_config;

/* Allocates the watchdog (no thread yet). NULL when out of memory or unsupported (Windows). */
rl_watchdog *rl_watchdog_create(const rl_watchdog_config *config);

/* Registers a lock just won (validity ms from now), starting the thread if needed. 0, or -1 when
 * out of memory or no thread could be started (the lock is then not renewed). */
int rl_watchdog_add(rl_watchdog *watchdog, const rl_lock_keys *keys, const char *token, size_t token_len,
	int64_t ttl, double validity);

typedef enum {
	RL_WATCH_UNKNOWN = 0, /* not registered (or forgotten after a fork) */
	RL_WATCH_HELD,        /* renewed so far, or not due yet */
	RL_WATCH_CAPPED,      /* renewed maxExtensions times: left to expire */
	RL_WATCH_LOST         /* a renewal failed, or the last validity ran out */
} rl_watch_state;

/* What the watchdog knows of token; *renewals (may be NULL) receives the renewals that succeeded. */
rl_watch_state rl_watchdog_state(rl_watchdog *watchdog, const char *token, size_t token_len, int64_t *renewals);

/* A manual extend() of a renewed lock counts against the same maxExtensions: 1 when one more is
 * allowed (counted), 0 when the cap is reached, -1 when token is not renewed here. */
int rl_watchdog_count_extension(rl_watchdog *watchdog, const char *token, size_t token_len);

/* Stops renewing token and forgets it; when no lock is left, stops and joins the thread. Returns
 * the state it had (RL_WATCH_UNKNOWN when it was not registered). */
rl_watch_state rl_watchdog_remove(rl_watchdog *watchdog, const char *token, size_t token_len);

/* raise(arg) is called on the watchdog's thread, under its mutex, when it marks token lost; never
 * after rl_watchdog_remove(token) returned. It must only store flags (atomics): no locks, no Zend.
 * 0, or -1 when token is not registered. */
int rl_watchdog_set_alarm(rl_watchdog *watchdog, const char *token, size_t token_len, void (*raise)(void *),
	void *raise_arg);

/* Forgets every lock of every watchdog of owner, stops and joins their threads, closes their
 * connections (the end of a request: objects still alive keep their watchdog, idle). */
void rl_watchdog_stop_owned(const void *owner);

/* The same for one watchdog, then frees everything (the copied credentials wiped). NULL is fine. */
void rl_watchdog_destroy(rl_watchdog *watchdog);


#endif
