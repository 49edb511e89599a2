/* The leases an object tracks, and their renewal thread. See rl_leases.h. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
# define _GNU_SOURCE /* dladdr() */
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "services/rl_leases.h"
#include "core/rl_algorithm.h"
#include "net/rl_fanout.h"

#ifdef _WIN32
/* No threads here: the registry is used by the PHP thread alone and renew is refused. */
# define LOCK() ((void) 0)
# define UNLOCK() ((void) 0)
#else
# include <dlfcn.h>
# include <pthread.h>
# include <signal.h>
# include <time.h>
/* One mutex for every registry: held only for bookkeeping, never across I/O. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
# define LOCK() pthread_mutex_lock(&g_lock)
# define UNLOCK() pthread_mutex_unlock(&g_lock)
#endif

/* Below this many leases nothing is forgotten; past it, expired ones go each time the count
 * reaches a power of two, so the cost spreads thinly over the additions. */
#define PRUNE_MIN 64

/* One tracked lock. Its strings are the registry's own copies. */
typedef struct lease {
	struct lease *next;
	char *token;
	size_t token_len;
	rl_lock_target held; /* keys point into keys_copy/lens_copy */
	char **keys_copy;
	size_t *lens_copy;
	int64_t ttl;
	double due;          /* rl_now_ms() of the next renewal */
	double valid_until;  /* end of the last validity won: past it the lease is lost */
	double expires_at;   /* past it no server can still hold the keys: safe to forget */
	int64_t left;        /* extensions still allowed; < 0: no cap */
	int lost;
	int pinned;
	void (*raise)(void *); /* abortOnLoss: told at once when the lease is found lost */
	void *raise_arg;
	int busy;            /* the thread is renewing it, without the lock held */
	int removed;         /* forgotten while busy: the thread frees it when done */
} lease;

struct rl_leases {
	struct rl_leases *next_all; /* every registry of the process, for rl_leases_stop_owned */
	const void *owner;
	lease *leases;
	size_t count;
	int64_t max_extensions;
	double drift_factor;
	int renew;
	/* The renewal thread and its own connections (renew only). */
	rl_cluster *cluster;
	rl_outcome *outcomes;
	rl_lock_policy policy;
	rl_lock_io io;
#ifndef _WIN32
	pthread_cond_t wake;
	pthread_t thread;
	int running, stop;
	int io_busy;        /* the thread is using the connections (matters to a forked child) */
	int forked;         /* wake was initialised again in a forked child */
#endif
	long owner_pid;
};

static rl_leases *g_all;

static void lease_free(lease *e)
{
	size_t i;

	for (i = 0; e->keys_copy && i < e->held.keys.count; i++) {
		free(e->keys_copy[i]);
	}
	free(e->keys_copy);
	free(e->lens_copy);
	free(e->token);
	free(e);
}

static void unlink_lease(rl_leases *w, lease *e)
{
	lease **at;

	for (at = &w->leases; *at; at = &(*at)->next) {
		if (*at == e) {
			*at = e->next;
			w->count--;
			return;
		}
	}
}

static lease *find(rl_leases *w, const char *token, size_t len)
{
	lease *e;

	for (e = w->leases; e; e = e->next) {
		if (!e->removed && e->token_len == len && memcmp(e->token, token, len) == 0) {
			return e;
		}
	}
	return NULL;
}

static rl_lease_state state_of(const rl_leases *w, const lease *e, double now)
{
	if (e->lost || now >= e->valid_until) {
		return RL_LEASE_LOST; /* a renewal failed, still hangs, was capped or never asked for */
	}
	return w->renew && e->left == 0 ? RL_LEASE_CAPPED : RL_LEASE_HELD;
}

static void mark_lost(lease *e)
{
	e->lost = 1;
	if (e->raise) {
		e->raise(e->raise_arg);
	}
}

/* Forgets leases whose keys have expired everywhere for sure. */
static void prune(rl_leases *w, double now)
{
	lease **at = &w->leases;

	while (*at) {
		lease *e = *at;
		if (!e->busy && !e->pinned && now > e->expires_at) {
			*at = e->next;
			w->count--;
			lease_free(e);
		} else {
			at = &e->next;
		}
	}
}

#ifndef _WIN32
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* No thread holds g_lock across fork(), so a child finds it unlocked and the registry whole. */
static void lock_for_fork(void)
{
	pthread_mutex_lock(&g_lock);
}
static void unlock_after_fork(void)
{
	pthread_mutex_unlock(&g_lock);
}
/* PHP unloads extensions at shutdown (dlclose): fork handlers must not point into unmapped code
 * (a process that forks after that, e.g. an embedding SAPI). As rl_resolve.c does for its threads:
 * once we registered them, the module stays loaded until the process ends. */
static void init_once(void)
{
# if defined(RTLD_NODELETE) && defined(RTLD_NOLOAD)
	Dl_info info;

	if (dladdr((void *) &init_once, &info) != 0 && info.dli_fname != NULL) {
		(void) dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE); /* never closed */
	}
# endif
	pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

/* The condition variable's timeouts are on CLOCK_MONOTONIC, as wait_ms() computes them: with the
 * default (CLOCK_REALTIME) every timed wait would end at once and the thread would spin. */
static int init_wake(pthread_cond_t *wake)
{
	pthread_condattr_t attr;
	int rc;

	if (pthread_condattr_init(&attr) != 0) {
		return -1;
	}
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	rc = pthread_cond_init(wake, &attr);
	pthread_condattr_destroy(&attr);
	return rc == 0 ? 0 : -1;
}

static void wait_ms(rl_leases *w, double ms)
{
	struct timespec at;
	long long ns;

	if (ms > 3600e3) {
		ms = 3600e3; /* woken earlier by any change; no overflow of the timespec */
	}
	clock_gettime(CLOCK_MONOTONIC, &at);
	ns = (long long) (ms * 1e6) + 1000000; /* a ms late rather than early: no busy loop */
	at.tv_sec += (time_t) (ns / 1000000000LL);
	at.tv_nsec += (long) (ns % 1000000000LL);
	if (at.tv_nsec >= 1000000000L) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&w->wake, &g_lock, &at);
}
#endif

/* In a forked child: the thread is its parent's (never joined or signalled from here), the leases
 * are the parent's locks (not tracked here), the sockets are shared with the parent (closed here,
 * which leaves the parent's open). Called with g_lock held. */
static void leave_parent_locked(rl_leases *w)
{
	long pid = rl_process_id();
	size_t i;

	if (w->owner_pid == pid) {
		return;
	}
	w->owner_pid = pid;
	while (w->leases) {
		lease *e = w->leases;
		w->leases = e->next;
		lease_free(e);
	}
	w->count = 0;
#ifndef _WIN32
	w->running = 0;
	w->stop = 0;
	/* The copy may show the parent's thread waiting on it: a fresh one, never destroyed (glibc's
	 * destroy would wait for that waiter; helgrind flags destroying it). */
	init_wake(&w->wake);
	w->forked = 1;
	if (w->io_busy) {
		/* Forked in the middle of a renewal: the connections' bookkeeping may be half-updated.
		 * Their output buffers are wiped (AUTH) but not freed. */
		for (i = 0; i < w->cluster->count; i++) {
			rl_conn_forget_after_fork(&w->cluster->conns[i]);
		}
		w->io_busy = 0;
	}
#endif
	if (w->cluster) {
		rl_cluster_leave_parent(w->cluster);
	}
	(void) i;
}

#ifndef _WIN32
static lease *next_due(rl_leases *w, double *due)
{
	lease *e, *best = NULL;

	for (e = w->leases; e; e = e->next) {
		double at;

		if (e->removed || e->busy || e->lost) {
			continue;
		}
		at = e->left == 0 ? e->valid_until : fmin(e->due, e->valid_until); /* capped: only its end */
		if (best == NULL || at < *due) {
			best = e;
			*due = at;
		}
	}
	return best;
}

/* One renewal of e, g_lock held on entry and on return (released around the I/O). */
static void renew_locked(rl_leases *w, lease *e)
{
	double start, validity;

	e->busy = 1;
	w->io_busy = 1;
	if (e->left > 0) {
		e->left--;
	}
	pthread_mutex_unlock(&g_lock);
	start = rl_now_ms();
	/* The kind's own compare-the-token script, as extend(): keys still holding our token get at
	 * least ttl more; another holder's keys are never touched. */
	validity = rl_kind_extend(&w->io, &w->policy, &e->held, e->token, e->token_len, e->ttl, w->outcomes);
	pthread_mutex_lock(&g_lock);
	w->io_busy = 0;
	e->busy = 0;
	if (e->removed) {
		unlink_lease(w, e);
		lease_free(e);
		return;
	}
	if (validity > 0) {
		if (start + validity > e->valid_until) {
			e->valid_until = start + validity;
		}
		e->expires_at = fmax(e->expires_at, rl_now_ms() + (double) e->ttl + rl_drift_ms(e->ttl, w->drift_factor));
		e->due = start + (double) e->ttl / 3.0;
	} else if (validity == 0) {
		mark_lost(e);
	} else {
		e->due = rl_now_ms() + 10; /* out of memory: try again soon; valid_until still bounds it */
	}
}

static void *renewal_thread(void *arg)
{
	rl_leases *w = arg;

	pthread_mutex_lock(&g_lock);
	while (!w->stop) {
		double due = 0, now;
		lease *e = next_due(w, &due);

		if (e == NULL) {
			pthread_cond_wait(&w->wake, &g_lock);
			continue;
		}
		now = rl_now_ms();
		if (now >= e->valid_until) {
			mark_lost(e); /* capped and run out, or not renewed in time (starved, or a renewal hung) */
			continue;
		}
		if (due > now) {
			wait_ms(w, due - now);
			continue;
		}
		renew_locked(w, e);
	}
	w->io_busy = 1;
	pthread_mutex_unlock(&g_lock);
	{
		size_t i;
		for (i = 0; i < w->cluster->count; i++) {
			rl_conn_close(&w->cluster->conns[i]); /* no connection outlives the thread */
		}
	}
	pthread_mutex_lock(&g_lock);
	w->io_busy = 0;
	pthread_mutex_unlock(&g_lock);
	return NULL;
}

/* Starts the thread, all signals blocked in it: SIGALRM/SIGPROF of max_execution_time, SIGCHLD
 * and pcntl's signals must reach the PHP thread. g_lock held. */
static int start_locked(rl_leases *w)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->stop = 0;
	rc = pthread_create(&w->thread, &attr, renewal_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		return -1;
	}
	w->running = 1;
	return 0;
}

/* Stops and joins the thread. g_lock held on entry and on return. */
static void join_locked(rl_leases *w)
{
	if (!w->running) {
		return;
	}
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&g_lock);
	pthread_join(w->thread, NULL);
	pthread_mutex_lock(&g_lock);
	w->running = 0;
	w->stop = 0;
}
#endif

/* The renewal thread's own connections: copies of the object's servers. */
static rl_cluster *copy_servers(const rl_cluster *from)
{
	rl_cluster *cluster = rl_cluster_create(from->count);
	size_t i;

	if (cluster == NULL) {
		return NULL;
	}
	for (i = 0; i < from->count; i++) {
		const rl_endpoint *src = &from->endpoints[i];
		rl_endpoint_spec spec;

		memset(&spec, 0, sizeof(spec));
		if (src->host == NULL) {
			continue; /* that server fails with "connect: out of memory", as in the object */
		}
		spec.host = src->host;
		spec.host_len = strlen(src->host);
		spec.port = src->port;
		spec.timeout_ms = src->timeout_ms;
		spec.username = src->username;
		spec.username_len = src->username ? strlen(src->username) : 0;
		spec.password = src->password;
		spec.password_len = src->password ? strlen(src->password) : 0;
		spec.database = src->database;
		spec.tls = src->tls; /* copied: the thread owns its own */
		(void) rl_cluster_set_endpoint_spec(cluster, i, &spec);
	}
	cluster->greeting = from->greeting;
	cluster->greeting_count = from->greeting_count;
	return cluster;
}

rl_leases *rl_leases_create(const rl_leases_config *config)
{
	rl_leases *w;

#ifdef _WIN32
	if (config->renew) {
		return NULL;
	}
#else
	pthread_once(&g_once, init_once);
#endif
	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		return NULL;
	}
	w->owner_pid = rl_process_id();
	w->owner = config->owner;
	w->max_extensions = config->max_extensions;
	w->drift_factor = config->policy->drift_factor;
	w->renew = config->renew;
	if (w->renew) {
#ifndef _WIN32
		w->cluster = copy_servers(config->servers);
		w->outcomes = calloc(config->servers->count ? config->servers->count : 1, sizeof(*w->outcomes));
		if (w->cluster == NULL || w->outcomes == NULL || init_wake(&w->wake) != 0) {
			rl_cluster_destroy(w->cluster);
			free(w->outcomes);
			free(w);
			return NULL;
		}
		w->policy = *config->policy;
		w->policy.call_bound_ms = rl_cluster_call_bound(w->cluster);
		rl_fanout_bind(w->cluster, &w->io);
		w->io.random = NULL; /* extend draws nothing */
#endif
	}
	LOCK();
	w->next_all = g_all;
	g_all = w;
	UNLOCK();
	return w;
}

static lease *lease_new(const rl_lock_target *held, const char *token, size_t token_len)
{
	lease *e = calloc(1, sizeof(*e));
	size_t i, count = held->keys.count;

	if (e == NULL) {
		return NULL;
	}
	e->held = *held;
	e->held.keys.count = 0; /* until the copies are made, for lease_free */
	e->token = malloc(token_len + 1);
	e->keys_copy = calloc(count ? count : 1, sizeof(*e->keys_copy));
	e->lens_copy = calloc(count ? count : 1, sizeof(*e->lens_copy));
	if (e->token == NULL || e->keys_copy == NULL || e->lens_copy == NULL) {
		lease_free(e);
		return NULL;
	}
	memcpy(e->token, token, token_len);
	e->token[token_len] = '\0';
	e->token_len = token_len;
	for (i = 0; i < count; i++) {
		e->keys_copy[i] = malloc(held->keys.lens[i] + 1);
		if (e->keys_copy[i] == NULL) {
			lease_free(e);
			return NULL;
		}
		memcpy(e->keys_copy[i], held->keys.keys[i], held->keys.lens[i]);
		e->keys_copy[i][held->keys.lens[i]] = '\0';
		e->lens_copy[i] = held->keys.lens[i];
		e->held.keys.count = i + 1;
	}
	e->held.keys.keys = (const char *const *) e->keys_copy;
	e->held.keys.lens = e->lens_copy;
	return e;
}

int rl_leases_add(rl_leases *w, const rl_lock_target *held, const char *token, size_t token_len, int64_t ttl,
	double validity, int pinned)
{
	lease *e = lease_new(held, token, token_len);
	double now = rl_now_ms();
	int rc = 0;

	if (e == NULL) {
		return -1;
	}
	e->ttl = ttl;
	e->due = now + (double) ttl / 3.0;
	e->valid_until = now + validity;
	e->expires_at = now + (double) ttl + rl_drift_ms(ttl, w->drift_factor);
	e->left = w->max_extensions;
	e->pinned = pinned;

	LOCK();
	leave_parent_locked(w);
	if (w->count >= PRUNE_MIN && (w->count & (w->count - 1)) == 0) {
		prune(w, now);
	}
	e->next = w->leases;
	w->leases = e;
	w->count++;
#ifndef _WIN32
	if (w->renew) {
		if (!w->running && start_locked(w) != 0) {
			w->leases = e->next;
			w->count--;
			lease_free(e);
			rc = -1;
		} else {
			pthread_cond_signal(&w->wake);
		}
	}
#endif
	UNLOCK();
	return rc;
}

rl_lease_state rl_leases_state(rl_leases *w, const char *token, size_t token_len)
{
	rl_lease_state state = RL_LEASE_UNKNOWN;
	lease *e;

	LOCK();
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		state = state_of(w, e, rl_now_ms());
	}
	UNLOCK();
	return state;
}

int rl_leases_begin_extend(rl_leases *w, const char *token, size_t token_len)
{
	lease *e;
	int rc = -1;

	LOCK();
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		rc = e->left != 0 && state_of(w, e, rl_now_ms()) != RL_LEASE_LOST;
		if (rc && e->left > 0) {
			e->left--;
		}
	}
	UNLOCK();
	return rc;
}

void rl_leases_extended(rl_leases *w, const char *token, size_t token_len, double start, double validity,
	int64_t ttl)
{
	lease *e;

	LOCK();
	e = find(w, token, token_len);
	if (e != NULL && validity > 0) {
		if (start + validity > e->valid_until) {
			e->valid_until = start + validity;
		}
		e->expires_at = fmax(e->expires_at, rl_now_ms() + (double) ttl + rl_drift_ms(ttl, w->drift_factor));
	}
	UNLOCK();
}

static int anything_renewed(const rl_leases *w)
{
	const lease *e;

	for (e = w->leases; e; e = e->next) {
		if (!e->removed) {
			return 1;
		}
	}
	return 0;
}

rl_lease_state rl_leases_remove(rl_leases *w, const char *token, size_t token_len)
{
	rl_lease_state state = RL_LEASE_UNKNOWN;
	lease *e;

	LOCK();
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		state = state_of(w, e, rl_now_ms());
		if (e->busy) {
			e->removed = 1; /* the thread frees it after its renewal, and counts nothing of it */
		} else {
			unlink_lease(w, e);
			lease_free(e);
		}
	}
#ifndef _WIN32
	if (w->renew && !anything_renewed(w)) {
		join_locked(w);
	}
#endif
	UNLOCK();
	return state;
}

int rl_leases_set_alarm(rl_leases *w, const char *token, size_t token_len, void (*raise)(void *), void *arg)
{
	lease *e;
	int rc = -1;

	LOCK();
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		e->raise = raise;
		e->raise_arg = arg;
		if (raise && state_of(w, e, rl_now_ms()) == RL_LEASE_LOST) {
			raise(arg); /* lost already */
		}
		rc = 0;
	}
	UNLOCK();
	return rc;
}

static void stop_locked(rl_leases *w)
{
	leave_parent_locked(w);
#ifndef _WIN32
	join_locked(w);
#endif
	while (w->leases) {
		lease *e = w->leases;
		w->leases = e->next;
		lease_free(e);
	}
	w->count = 0;
}

void rl_leases_stop_owned(const void *owner)
{
	rl_leases *w;

	LOCK();
	for (w = g_all; w; w = w->next_all) {
		if (w->owner == owner) {
			stop_locked(w); /* drops g_lock while joining: the list itself only changes on this thread */
		}
	}
	UNLOCK();
}

void rl_leases_destroy(rl_leases *w)
{
	rl_leases **at;

	if (w == NULL) {
		return;
	}
	LOCK();
	stop_locked(w);
	for (at = &g_all; *at; at = &(*at)->next_all) {
		if (*at == w) {
			*at = w->next_all;
			break;
		}
	}
	UNLOCK();
#ifndef _WIN32
	if (w->renew && !w->forked) {
		pthread_cond_destroy(&w->wake);
	}
#endif
	rl_cluster_destroy(w->cluster); /* no pool: closes; the copied password is wiped */
	free(w->outcomes);
	free(w);
}
