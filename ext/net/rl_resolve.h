/* Host name resolution that never blocks the caller. Plain C: no Zend, no hiredis.
 *
 * Numeric addresses ("127.0.0.1", "::1", "fe80::1%eth0", "127.1") and "localhost" resolve at once,
 * with no thread and no lookup. Any other name is looked up by getaddrinfo() on a detached thread
 * of its own; the caller gets an rl_lookup whose file descriptor turns readable when the lookup is
 * done, so its poll() loop waits on it beside its sockets. Callers asking for the same host and
 * port while a lookup runs join it (one getaddrinfo() for all). A small per-process cache keeps
 * results: found addresses for RL_RESOLVE_POSITIVE_MS, failures for RL_RESOLVE_NEGATIVE_MS.
 *
 * Thread-safe (one mutex; ZTS builds may call from many threads). After fork() the child never
 * waits for a lookup its parent started: such a lookup is started again in the child when the
 * child next asks for it; finished results are kept.
 *
 * Windows: no threads; a name that is not in the cache is resolved synchronously in
 * rl_resolve_start (documented limitation), which then never returns RL_RESOLVE_PENDING (except
 * to a second thread asking while the first resolves; its rl_lookup_fd is -1).
 *
 * Typical use in a connection (the server's timeout covering lookup and connect together):
 *   open:     rl_resolve_start(); DONE: connect to address 0; PENDING: state RESOLVING, keep the
 *             lookup; FAILED: the vote fails with "connect: " + err.
 *   poll:     RESOLVING polls rl_lookup_fd() for POLLIN (ask for the fd on every round).
 *   POLLIN:   rl_lookup_finish(), rl_lookup_release(), then connect to address 0.
 *   refused:  connect to the next address (a connect that fails later, through SO_ERROR, too).
 *   timeout or close while RESOLVING: rl_lookup_release(); the next call joins the same lookup
 *             or finds its answer in the cache. */
#ifndef RL_RESOLVE_H
#define RL_RESOLVE_H

#include <stddef.h>
#ifdef _WIN32
# include <winsock2.h>
# include <ws2tcpip.h>
#else
# include <sys/types.h>
# include <sys/socket.h>
#endif

/* How long results stay cached, in ms. Found addresses: connections are persistent, so a lookup
 * happens only on (re)connect, which usually follows a failure, often a failover that moved the
 * name: 10 s keeps such a move visible quickly, and still spares a burst of reconnects (every
 * server, every worker thread) all but one lookup. Failures: 1 s, so that a broken name costs one
 * thread per second rather than one per call, and a fixed one works again within a second. */
#ifndef RL_RESOLVE_POSITIVE_MS
# define RL_RESOLVE_POSITIVE_MS 10000.0
#endif
#ifndef RL_RESOLVE_NEGATIVE_MS
# define RL_RESOLVE_NEGATIVE_MS 1000.0
#endif
/* Cached entries, lookups in flight included. When every one is in flight, a new name fails at
 * once ("too many lookups in flight") rather than starting yet another thread. */
#ifndef RL_RESOLVE_CACHE_MAX
# define RL_RESOLVE_CACHE_MAX 64
#endif
/* Addresses kept per name. */
#define RL_RESOLVE_MAX_ADDRESSES 16

#define RL_RESOLVE_DONE 1
#define RL_RESOLVE_PENDING 0
#define RL_RESOLVE_FAILED (-1)

typedef struct rl_addresses rl_addresses; /* refcounted, immutable list of socket addresses */
typedef struct rl_lookup rl_lookup;       /* a lookup in flight (or finished), refcounted */

/* Lookups whose thread still runs (including ones every caller gave up on), for phpinfo(). */
size_t rl_resolve_in_flight(void);

/* MSHUTDOWN: empties the cache. Waits for nothing: a running lookup frees itself when done. */
void rl_resolve_shutdown(void);

#endif
