/* Host name resolution that never blocks the caller: lookups, their threads and the cache. See
 * rl_resolve.h; the address lists themselves are in rl_addresses.c.
 *
 * One mutex (g_lock) guards everything shared: the list of lookups, their reference counts and
 * results, and the reference counts of shared address lists. A lookup lives while a caller holds
 * it, its thread runs, or the cache keeps it; the last of the three to let go frees it, so a
 * thread never writes into freed memory, whoever gave up first. */
#ifndef _WIN32
# ifndef _GNU_SOURCE
#  define _GNU_SOURCE /* pipe2() */
# endif
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_fork.h"
#include "net/rl_platform.h"
#include "net/rl_resolve.h"
#include "protocol/rl_list.h"
#include "net/rl_addresses_private.h"
#include "net/rl_net_private.h"

#ifdef _WIN32
# include <winsock2.h>
# include <ws2tcpip.h>
#else
# include <arpa/inet.h>
# include <fcntl.h>
# include <netdb.h>
# include <netinet/in.h>
# include <pthread.h>
# include <signal.h>
#endif

/* Tests substitute a slow, failing or reordering resolver here (verify/unit/resolve_test.c). Numeric
 * addresses never reach it: they use the system's getaddrinfo with AI_NUMERICHOST. */
#ifndef RL_RESOLVE_GETADDRINFO
# define RL_RESOLVE_GETADDRINFO getaddrinfo
#endif
#ifndef RL_RESOLVE_FREEADDRINFO
# define RL_RESOLVE_FREEADDRINFO freeaddrinfo
#endif

#define RL_RESOLVE_ERROR_MAX 96

struct rl_lookup {
	rl_lookup *prev, *next; /* g_lookups: every lookup not yet freed */
	unsigned users;         /* callers' references, plus one while its thread runs */
	unsigned char cached;   /* findable by rl_resolve_start; keeps the lookup alive too */
	unsigned char running;  /* a thread of this process resolves it */
	unsigned char done;
	rl_addresses *found;    /* done, and found (the lookup holds one reference) */
	char error[RL_RESOLVE_ERROR_MAX]; /* done, and failed */
	double expires_ms;      /* done: when the cache forgets it */
	int fd[2];              /* pipe; its thread writes one byte when done, never read: stays readable */
	int port;
	char host[];
};

static rl_lookup *g_lookups;
static size_t g_cached;  /* lookups with cached set */
static size_t g_running; /* lookups with running set */

#ifdef _WIN32
static SRWLOCK g_lock = SRWLOCK_INIT;
# define rl_lock() AcquireSRWLockExclusive(&g_lock)
# define rl_unlock() ReleaseSRWLockExclusive(&g_lock)
#else
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
# define rl_lock() pthread_mutex_lock(&g_lock)
# define rl_unlock() pthread_mutex_unlock(&g_lock)
/* Set in a forked child (with g_lock held since fork's prepare handler): none of the threads
 * exist there. Acted on at the next call, under the lock (after_fork_locked). */
static int g_forked;
#endif

void rl_resolve_lock(void)
{
	rl_lock();
}

void rl_resolve_unlock(void)
{
	rl_unlock();
}

static void describe_failure(int status, int saved_errno, char *err, size_t errlen)
{
#ifdef EAI_SYSTEM
	if (status == EAI_SYSTEM) {
		snprintf(err, errlen, "resolve: %s", strerror(saved_errno));
		return;
	}
#endif
	(void) saved_errno;
	snprintf(err, errlen, "resolve: %s", gai_strerror(status));
}

/* Runs getaddrinfo for host:port: the addresses (shared), or NULL with the reason in err. */
static rl_addresses *lookup_now(const char *host, int port, char *err, size_t errlen)
{
	struct addrinfo hints, *list = NULL;
	char service[8];
	rl_addresses *found = NULL;
	int status, saved_errno;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC; /* no AI_ADDRCONFIG: it costs a netlink query, and an address
	                              * of a family we lack fails at once when tried */
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%d", port);
	status = RL_RESOLVE_GETADDRINFO(host, service, &hints, &list);
	saved_errno = errno;
	if (status != 0) {
		describe_failure(status, saved_errno, err, errlen);
		return NULL;
	}
	found = rl_addresses_from(list, port, 1);
	RL_RESOLVE_FREEADDRINFO(list);
	if (found == NULL) {
		snprintf(err, errlen, "resolve: no IPv4 or IPv6 address (or out of memory)");
	}
	return found;
}

static void close_pipe(rl_lookup *l)
{
#ifndef _WIN32
	if (l->fd[0] >= 0) {
		close(l->fd[0]);
	}
	if (l->fd[1] >= 0) {
		close(l->fd[1]);
	}
#endif
	l->fd[0] = l->fd[1] = -1;
}

/* Frees l once nobody (caller, thread or cache) holds it. A finished lookup only the cache
 * holds needs no pipe: whoever asks next gets its answer at once. */
static void maybe_free_locked(rl_lookup *l)
{
	if (l->users == 0 && l->done) {
		close_pipe(l);
	}
	if (l->users > 0 || l->cached) {
		return;
	}
	RL_LIST_UNLINK(g_lookups, l, prev, next);
	close_pipe(l);
	if (l->found != NULL && --l->found->refs == 0) {
		free(l->found);
	}
	free(l);
}

static void uncache_locked(rl_lookup *l)
{
	if (l->cached) {
		l->cached = 0;
		g_cached--;
		maybe_free_locked(l);
	}
}

static rl_lookup *find_locked(const char *host, int port)
{
	rl_lookup *l;

	for (l = g_lookups; l != NULL; l = l->next) {
		if (l->cached && l->port == port && strcmp(l->host, host) == 0) {
			return l;
		}
	}
	return NULL;
}

/* Room for one more cached entry: forgets the finished entry that expires first. False when
 * every entry is a lookup still in flight. */
static int make_room_locked(void)
{
	rl_lookup *l, *victim = NULL;

	if (g_cached < RL_RESOLVE_CACHE_MAX) {
		return 1;
	}
	for (l = g_lookups; l != NULL; l = l->next) {
		if (l->cached && l->done && (victim == NULL || l->expires_ms < victim->expires_ms)) {
			victim = l;
		}
	}
	if (victim == NULL) {
		return 0;
	}
	uncache_locked(victim);
	return 1;
}

static rl_lookup *lookup_new_locked(const char *host, int port)
{
	size_t len = strlen(host);
	rl_lookup *l = calloc(1, sizeof(*l) + len + 1);

	if (l == NULL) {
		return NULL;
	}
	memcpy(l->host, host, len + 1);
	l->port = port;
	l->fd[0] = l->fd[1] = -1;
	l->cached = 1;
	g_cached++;
	l->next = g_lookups;
	if (g_lookups) {
		g_lookups->prev = l;
	}
	g_lookups = l;
	return l;
}

/* A finished lookup's answer, as rl_resolve_start returns it. */
static int result_locked(rl_lookup *l, rl_addresses **out, char *err, size_t errlen)
{
	if (l->found != NULL) {
		l->found->refs++;
		*out = l->found;
		return RL_RESOLVE_DONE;
	}
	snprintf(err, errlen, "%s", l->error);
	return RL_RESOLVE_FAILED;
}

/* Records a lookup's answer, wakes whoever polls its pipe, and drops the reference its thread
 * (or, on Windows, its synchronous caller) held. */
static void complete_locked(rl_lookup *l, rl_addresses *found, const char *error)
{
	l->done = 1;
	l->running = 0;
	g_running--;
	l->found = found;
	snprintf(l->error, sizeof(l->error), "%s", error);
	l->expires_ms = rl_now_ms() + (found != NULL ? RL_RESOLVE_POSITIVE_MS : RL_RESOLVE_NEGATIVE_MS);
#ifndef _WIN32
	if (l->fd[1] >= 0) {
		char byte = 1;
		/* One byte in an empty pipe: cannot block or fail for want of room. */
		if (write(l->fd[1], &byte, 1) != 1) {
			/* nothing to do: a poller then waits until its own timeout */
		}
	}
#endif
	l->users--;
	maybe_free_locked(l);
}

#ifndef _WIN32

static void lock_for_fork(void)
{
	pthread_mutex_lock(&g_lock);
}

static void unlock_in_parent(void)
{
	pthread_mutex_unlock(&g_lock);
}

static void unlock_in_child(void)
{
	g_forked = 1;
	pthread_mutex_unlock(&g_lock);
}

/* In a forked child: the lookups our parent's threads were running have no thread here. Drop
 * the reference each of those threads held; one that a caller still holds is started again when
 * asked for (ensure_running_locked), one nobody holds is forgotten. Finished entries stay. */
static void after_fork_locked(void)
{
	rl_lookup *l, *next;

	if (!g_forked) {
		return;
	}
	g_forked = 0;
	for (l = g_lookups; l != NULL; l = next) {
		next = l->next;
		if (!l->running) {
			continue;
		}
		l->running = 0;
		l->users--;
		g_running--;
		if (l->users == 0 && l->cached) {
			l->cached = 0;
			g_cached--;
		}
		maybe_free_locked(l);
	}
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void init_once(void)
{
	/* g_lock is not held across fork(); and a lookup thread still inside getaddrinfo() at PHP's
	 * shutdown returns into code that stays mapped (rl_fork_guard keeps the module loaded). */
	rl_fork_guard(lock_for_fork, unlock_in_parent, unlock_in_child);
}

static int make_pipe(int fd[2])
{
# if defined(__linux__) && defined(O_CLOEXEC)
	return pipe2(fd, O_CLOEXEC | O_NONBLOCK);
# else
	int i;

	if (pipe(fd) != 0) {
		return -1;
	}
	for (i = 0; i < 2; i++) {
		fcntl(fd[i], F_SETFD, FD_CLOEXEC);
		fcntl(fd[i], F_SETFL, fcntl(fd[i], F_GETFL) | O_NONBLOCK);
	}
	return 0;
# endif
}

static void *lookup_thread(void *arg)
{
	rl_lookup *l = arg;
	char error[RL_RESOLVE_ERROR_MAX] = "";
	/* host and port never change once a lookup exists: read without the lock. */
	rl_addresses *found = lookup_now(l->host, l->port, error, sizeof(error));

	rl_lock();
	complete_locked(l, found, error);
	rl_unlock();
	return NULL;
}

/* Starts l's thread, which holds a reference until it is done. All signals are blocked in it:
 * a signal meant for PHP (SIGALRM of max_execution_time, SIGCHLD, pcntl handlers) must reach a
 * PHP thread, which then returns from poll() with EINTR. */
static int spawn_locked(rl_lookup *l, char *err, size_t errlen)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int rc;

	close_pipe(l); /* a forked child's copy of its parent's pipe: the parent's thread writes there */
	if (make_pipe(l->fd) != 0) {
		snprintf(err, errlen, "resolve: cannot create a pipe: %s", strerror(errno));
		l->fd[0] = l->fd[1] = -1;
		return -1;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	l->running = 1;
	l->users++;
	g_running++;
	rc = pthread_create(&thread, &attr, lookup_thread, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		l->running = 0;
		l->users--;
		g_running--;
		close_pipe(l);
		snprintf(err, errlen, "resolve: cannot start a thread: %s", strerror(rc));
		return -1;
	}
	return 0;
}

/* A lookup not done must have a thread in this process (a forked child restarts its parent's).
 * When none can be started, the lookup fails with that reason and leaves the cache. */
static void ensure_running_locked(rl_lookup *l)
{
	if (l->done || l->running) {
		return;
	}
	if (spawn_locked(l, l->error, sizeof(l->error)) != 0) {
		l->done = 1;
		uncache_locked(l); /* a caller holds it, so this never frees it */
	}
}

#else /* _WIN32 */

# define after_fork_locked() ((void) 0)

/* No threads: the caller resolves, blocking, with the lock released meanwhile. Another thread
 * asking for the same name in the meantime gets RL_RESOLVE_PENDING and no descriptor (-1), and
 * calls rl_lookup_finish again until done or its own timeout. */
static void ensure_running_locked(rl_lookup *l)
{
	char error[RL_RESOLVE_ERROR_MAX] = "";
	rl_addresses *found;

	if (l->done || l->running) {
		return;
	}
	l->running = 1;
	l->users++;
	g_running++;
	rl_unlock();
	found = lookup_now(l->host, l->port, error, sizeof(error));
	rl_lock();
	complete_locked(l, found, error);
}

#endif

/* A new lookup of host:port, room made for it among those in flight; NULL with err. Locked. */
static rl_lookup *begin_lookup_locked(const char *host, int port, char *err, size_t errlen)
{
	rl_lookup *l;

	if (!make_room_locked()) {
		snprintf(err, errlen, "resolve: too many lookups in flight");
		return NULL;
	}
	if ((l = lookup_new_locked(host, port)) == NULL) {
		snprintf(err, errlen, "resolve: out of memory");
	}
	return l;
}

int rl_resolve_start(const char *host, int port, double now_ms, rl_addresses **out, rl_lookup **pending,
	char *err, size_t errlen)
{
	rl_lookup *l;
	int status;

	*out = NULL;
	*pending = NULL;
	status = rl_addresses_numeric(host, port, out);
	if (status != 0) {
		if (status < 0) {
			snprintf(err, errlen, "resolve: out of memory");
		}
		return status;
	}
#ifndef _WIN32
	pthread_once(&g_once, init_once);
#endif
	rl_lock();
	after_fork_locked();
	l = find_locked(host, port);
	if (l != NULL && l->done && now_ms >= l->expires_ms) {
		uncache_locked(l);
		l = NULL;
	}
	if (l != NULL && l->done) {
		status = result_locked(l, out, err, errlen);
		rl_unlock();
		return status;
	}
	if (l == NULL && (l = begin_lookup_locked(host, port, err, errlen)) == NULL) {
		rl_unlock();
		return RL_RESOLVE_FAILED;
	}
	l->users++;
	ensure_running_locked(l); /* a new lookup, or one a forked child inherited */
	if (l->done) {
		status = result_locked(l, out, err, errlen);
		l->users--;
		maybe_free_locked(l);
		rl_unlock();
		return status;
	}
	*pending = l;
	rl_unlock();
	return RL_RESOLVE_PENDING;
}

int rl_lookup_fd(rl_lookup *l)
{
	int fd;

	rl_lock();
	after_fork_locked();
	ensure_running_locked(l);
	fd = l->fd[0];
	rl_unlock();
	return fd;
}

int rl_lookup_finish(rl_lookup *l, rl_addresses **out, char *err, size_t errlen)
{
	int status = RL_RESOLVE_PENDING;

	*out = NULL;
	rl_lock();
	after_fork_locked();
	ensure_running_locked(l);
	if (l->done) {
		status = result_locked(l, out, err, errlen);
	}
	rl_unlock();
	return status;
}

void rl_lookup_release(rl_lookup *l)
{
	if (l == NULL) {
		return;
	}
	rl_lock();
	after_fork_locked();
	l->users--;
	maybe_free_locked(l);
	rl_unlock();
}

size_t rl_resolve_in_flight(void)
{
	size_t n;

	rl_lock();
	after_fork_locked();
	n = g_running;
	rl_unlock();
	return n;
}

void rl_resolve_shutdown(void)
{
	rl_lookup *l, *next;

	rl_lock();
	after_fork_locked();
	for (l = g_lookups; l != NULL; l = next) {
		next = l->next;
		uncache_locked(l); /* frees it unless a caller or its thread still holds it */
	}
	rl_unlock();
}
