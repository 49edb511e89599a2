/* How the PHP thread waits. Default: block the thread (poll(), sleep). A coroutine runtime or event loop
 * registers a waiter so that other coroutines / Fibers run while this call waits. Plain C, no Zend.
 *
 * Every blocking wait of the PHP thread goes through rl_wait_poll: the fan-out's and notified waiting's
 * poll (rl_conn_poll: connects, TLS handshakes, host name lookups, replies), retry pauses
 * (rl_wait_sleep_ms). Other threads (the renewal thread, lookups) always block: waiters are asked only
 * on a thread marked with rl_wait_php_thread. Why and how: docs/design/coroutines.md. */
#ifndef RL_WAIT_H
#define RL_WAIT_H

#include <stdint.h>

#include "net/rl_platform.h"

typedef struct rl_waiter {
	const char *name;                 /* "swoole", "revolt": for phpinfo and tests */
	int (*active)(void);              /* non-zero when the current control flow should wait through this waiter; called on the PHP thread only */
	int (*poll)(rl_pollfd *fds, unsigned long n, int timeout_ms);  /* poll(2)'s contract; n == 0 with fds NULL is a pause of timeout_ms */
	uintptr_t (*flow)(void);          /* the coroutine / Fiber running now (non-zero), or NULL: getLastErrors() per flow */
} rl_waiter;

#define RL_WAITERS_MAX 4

void rl_wait_register(const rl_waiter *waiter);    /* up to 4, in MINIT (or lazily on the PHP thread) */
void rl_wait_php_thread(int yes);                  /* marks the calling thread as a PHP request thread (RINIT); other threads (renewal, lookups) never use waiters */
int  rl_wait_poll(rl_pollfd *fds, unsigned long n, int timeout_ms); /* every blocking wait of the PHP thread goes through this */
const rl_waiter *rl_wait_current(void);            /* the waiter that would be used now, or NULL */
uintptr_t rl_wait_flow(void);                      /* the coroutine / Fiber running now under a waiter, else 0 */

/* The waiters registered, in order (phpinfo): their count, and the first room of them in out. */
unsigned rl_wait_registered(const rl_waiter **out, unsigned room);

/* rl_wait_swoole.c: registers the Swoole waiter when Swoole's C API is loaded in this process (MINIT).
 * pending: the exception pending in the running coroutine (an address, NULL for none); cancelled: non-zero
 * when the call was cancelled since a wait began with `before` pending (then its waits end with -1 and
 * ECANCELED, net/rl_wait_cancel.h). Both from the Zend side (runtime/redlock_swoole.c). */
void rl_wait_swoole_register(const void *(*pending)(void), int (*cancelled)(const void *before));
/* The Swoole coroutine running now (its id), 0 outside one or without Swoole: abortOnLoss throws
 * only into the coroutine whose run() lost its lock. */
long rl_wait_swoole_coroutine(void);
/* Calls watcher (on the PHP thread) each time Swoole resumes a coroutine, until called with NULL: a
 * loss or an abortOnLoss alarm waiting for its coroutine to run again. -1 when this Swoole does not
 * export its resume hook (then nothing is called). */
int rl_wait_swoole_watch_resumes(void (*watcher)(void));
/* Calls watcher (on the PHP thread, inside the coroutine) with the id of each Swoole coroutine that
 * ends: a lock's coroutine is gone. -1 when this Swoole does not export swoole_add_hook. */
int rl_wait_swoole_watch_ends(void (*watcher)(long coroutine));

/* A pause of ms (nothing for ms <= 0), through the waiter like any other wait: 0, or -1 when the
 * waiter ended it early (a cancelled wait, net/rl_wait_cancel.h). */
static inline int rl_wait_sleep_ms(int ms)
{
	return ms > 0 && rl_wait_poll(NULL, 0, ms) < 0 ? -1 : 0;
}

#endif
