/* Background renewal of held locks. See rl_watchdog.h. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
# define _GNU_SOURCE /* dladdr() */
#endif
#include <stdlib.h>
#include <string.h>

#include "services/rl_watchdog.h"
#include "core/rl_algorithm.h"
#include "net/rl_fanout.h"

#ifdef _WIN32
/* No pthreads: rl_watchdog_create() fails and the glue reports autoExtend as unsupported. */
rl_watchdog *rl_watchdog_create(const rl_watchdog_config *c) { (void) c; return NULL; }
int rl_watchdog_add(rl_watchdog *w, const rl_lock_keys *k, const char *t, size_t l, int64_t ttl, double v)
{ (void) w; (void) k; (void) t; (void) l; (void) ttl; (void) v; return -1; }
rl_watch_state rl_watchdog_state(rl_watchdog *w, const char *t, size_t l, int64_t *r)
{ (void) w; (void) t; (void) l; (void) r; return RL_WATCH_UNKNOWN; }
int rl_watchdog_count_extension(rl_watchdog *w, const char *t, size_t l) { (void) w; (void) t; (void) l; return -1; }
rl_watch_state rl_watchdog_remove(rl_watchdog *w, const char *t, size_t l)
{ (void) w; (void) t; (void) l; return RL_WATCH_UNKNOWN; }
int rl_watchdog_set_alarm(rl_watchdog *w, const char *t, size_t l, void (*raise)(void *), void *arg)
{ (void) w; (void) t; (void) l; (void) raise; (void) arg; return -1; }
void rl_watchdog_destroy(rl_watchdog *w) { (void) w; }
void rl_watchdog_stop_owned(const void *owner) { (void) owner; }

#else

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

/* One lock being renewed. Its strings are the thread's own copies. */
typedef struct watch_entry {
	struct watch_entry *next;
	char *token;
	size_t token_len;
	size_t key_count;
	char **keys;
	size_t *lens;
	int multi;
	int64_t ttl;
	double due;         /* rl_now_ms() of the next renewal */
	double valid_until; /* end of the last validity won: past it the lock counts as lost */
	int64_t left;       /* renewals still allowed; < 0: no cap */
	int64_t renewals;   /* renewals that succeeded */
	rl_watch_state state;
	void (*raise)(void *); /* abortOnLoss: told at once when the lock is found lost */
	void *raise_arg;
	int busy;           /* the thread is renewing it, without the lock held */
	int removed;        /* forgotten while busy: the thread frees it when done */
} watch_entry;

struct rl_watchdog {
	struct rl_watchdog *next_all; /* every watchdog of the process, for rl_watchdog_stop_owned */
	const void *owner;
	pthread_cond_t wake;
	pthread_t thread;
	int running, stop;
	int io_busy;        /* the thread is using the connections (matters to a forked child) */
	int forked;         /* wake was initialised again in a forked child */
	long owner_pid;
	watch_entry *entries;
	rl_cluster *cluster; /* the thread's own connections to copies of the object's servers */
	rl_outcome *outcomes;
	rl_lock_policy policy;
	rl_lock_io io;
	int64_t max_extensions;
};

/* One mutex for every watchdog: held only for bookkeeping, never across I/O. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static rl_watchdog *g_all;

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

static void entry_free(watch_entry *e)
{
	size_t i;

	for (i = 0; e->keys && i < e->key_count; i++) {
		free(e->keys[i]);
	}
	free(e->keys);
	free(e->lens);
	free(e->token);
	free(e);
}

static void unlink_entry(rl_watchdog *w, watch_entry *e)
{
	watch_entry **at;

	for (at = &w->entries; *at; at = &(*at)->next) {
		if (*at == e) {
			*at = e->next;
			return;
		}
	}
}

static watch_entry *find(rl_watchdog *w, const char *token, size_t len)
{
	watch_entry *e;

	for (e = w->entries; e; e = e->next) {
		if (!e->removed && e->token_len == len && memcmp(e->token, token, len) == 0) {
			return e;
		}
	}
	return NULL;
}

/* In a forked child: the thread is its parent's (never joined or signalled from here), the entries
 * are the parent's locks (not renewed here), the sockets are shared with the parent (closed here,
 * which leaves the parent's open). Called with g_lock held. */
static void leave_parent_locked(rl_watchdog *w)
{
	long pid = rl_process_id();
	size_t i;

	if (w->owner_pid == pid) {
		return;
	}
	w->owner_pid = pid;
	w->running = 0;
	w->stop = 0;
	/* The copy may show the parent's thread waiting on it: a fresh one, never destroyed (glibc's
	 * destroy would wait for that waiter; helgrind flags destroying it). */
	init_wake(&w->wake);
	w->forked = 1;
	while (w->entries) {
		watch_entry *e = w->entries;
		w->entries = e->next;
		entry_free(e);
	}
	if (w->io_busy) {
		/* Forked in the middle of a renewal: the connections' bookkeeping may be half-updated.
		 * Close the descriptors and start with fresh connection structs (the old ones' buffers
		 * are left behind in this child rather than freed from a state that may be torn). */
		for (i = 0; i < w->cluster->count; i++) {
			rl_conn *conn = &w->cluster->conns[i];
			if (conn->state == RL_CONN_CONNECTING || conn->state == RL_CONN_READY) {
				rl_closesocket(conn->fd);
			}
			rl_conn_init(conn);
		}
		w->io_busy = 0;
	}
	rl_cluster_leave_parent(w->cluster);
}

static void close_connections(rl_watchdog *w)
{
	size_t i;

	for (i = 0; i < w->cluster->count; i++) {
		rl_conn_close(&w->cluster->conns[i]);
	}
}

static watch_entry *next_due(rl_watchdog *w)
{
	watch_entry *e, *best = NULL;

	for (e = w->entries; e; e = e->next) {
		if (e->removed || e->busy || e->state != RL_WATCH_HELD) {
			continue;
		}
		if (best == NULL || e->due < best->due) {
			best = e;
		}
	}
	return best;
}

static void mark_lost(rl_watchdog *w, watch_entry *e)
{
	(void) w;
	e->state = RL_WATCH_LOST;
	if (e->raise) {
		e->raise(e->raise_arg);
	}
}

static void wait_ms(rl_watchdog *w, double ms)
{
	struct timespec at;
	long long ns;

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

/* One renewal of e, g_lock held on entry and on return (released around the I/O). */
static void renew_locked(rl_watchdog *w, watch_entry *e)
{
	rl_lock_keys keys = {e->key_count, (const char *const *) e->keys, e->lens, e->multi};
	double start, validity;

	e->busy = 1;
	w->io_busy = 1;
	if (e->left > 0) {
		e->left--;
	}
	pthread_mutex_unlock(&g_lock);
	start = rl_now_ms();
	/* The same compare-the-token script as extend(): keys still holding our token get at least
	 * ttl more; another holder's keys are never touched. */
	validity = rl_lock_extend(&w->io, &w->policy, &keys, e->token, e->token_len, e->ttl, w->outcomes);
	pthread_mutex_lock(&g_lock);
	w->io_busy = 0;
	e->busy = 0;
	if (e->removed) {
		unlink_entry(w, e);
		entry_free(e);
		return;
	}
	if (validity > 0) {
		e->renewals++;
		e->valid_until = start + validity;
		e->due = start + (double) e->ttl / 3.0;
	} else if (validity == 0) {
		mark_lost(w, e);
	} else {
		e->due = rl_now_ms() + 10; /* out of memory: try again soon; valid_until still bounds it */
	}
}

static void *watch_thread(void *arg)
{
	rl_watchdog *w = arg;

	pthread_mutex_lock(&g_lock);
	while (!w->stop) {
		watch_entry *e = next_due(w);
		double now = rl_now_ms();

		if (e == NULL) {
			pthread_cond_wait(&w->wake, &g_lock);
			continue;
		}
		if (now >= e->valid_until) {
			mark_lost(w, e); /* not renewed in time (this thread was starved, or a renewal hung) */
			continue;
		}
		if (e->left == 0) {
			e->state = RL_WATCH_CAPPED; /* maxExtensions reached: left to expire */
			continue;
		}
		if (e->due > now) {
			wait_ms(w, e->due - now);
			continue;
		}
		renew_locked(w, e);
	}
	w->io_busy = 1;
	pthread_mutex_unlock(&g_lock);
	close_connections(w); /* no connection outlives the thread */
	pthread_mutex_lock(&g_lock);
	w->io_busy = 0;
	pthread_mutex_unlock(&g_lock);
	return NULL;
}

rl_watchdog *rl_watchdog_create(const rl_watchdog_config *config)
{
	const rl_cluster *from = config->servers;
	rl_watchdog *w = calloc(1, sizeof(*w));
	size_t i;

	pthread_once(&g_once, init_once);
	if (w == NULL) {
		return NULL;
	}
	w->cluster = rl_cluster_create(from->count);
	w->outcomes = calloc(from->count ? from->count : 1, sizeof(*w->outcomes));
	if (w->cluster == NULL || w->outcomes == NULL || init_wake(&w->wake) != 0) {
		rl_cluster_destroy(w->cluster);
		free(w->outcomes);
		free(w);
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
		(void) rl_cluster_set_endpoint_spec(w->cluster, i, &spec);
	}
	w->cluster->greeting = from->greeting;
	w->cluster->greeting_count = from->greeting_count;
	w->owner_pid = rl_process_id();
	w->owner = config->owner;
	w->max_extensions = config->max_extensions;
	w->policy.quorum = config->quorum;
	w->policy.drift_factor = config->drift_factor;
	w->policy.call_bound_ms = rl_cluster_call_bound(w->cluster);
	w->policy.scripts = config->scripts;
	rl_fanout_bind(w->cluster, &w->io);
	w->io.random = NULL; /* extend draws nothing */
	pthread_mutex_lock(&g_lock);
	w->next_all = g_all;
	g_all = w;
	pthread_mutex_unlock(&g_lock);
	return w;
}

/* Starts the thread, all signals blocked in it: SIGALRM/SIGPROF of max_execution_time, SIGCHLD
 * and pcntl's signals must reach the PHP thread. g_lock held. */
static int start_locked(rl_watchdog *w)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->stop = 0;
	rc = pthread_create(&w->thread, &attr, watch_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		return -1;
	}
	w->running = 1;
	return 0;
}

/* Stops and joins the thread. g_lock held on entry and on return. */
static void join_locked(rl_watchdog *w)
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

int rl_watchdog_add(rl_watchdog *w, const rl_lock_keys *keys, const char *token, size_t token_len,
	int64_t ttl, double validity)
{
	watch_entry *e = calloc(1, sizeof(*e));
	double now = rl_now_ms();
	size_t i;
	int rc = 0;

	if (e == NULL) {
		return -1;
	}
	e->token = malloc(token_len + 1);
	e->keys = calloc(keys->count ? keys->count : 1, sizeof(*e->keys));
	e->lens = calloc(keys->count ? keys->count : 1, sizeof(*e->lens));
	if (e->token == NULL || e->keys == NULL || e->lens == NULL) {
		entry_free(e);
		return -1;
	}
	memcpy(e->token, token, token_len);
	e->token[token_len] = '\0';
	e->token_len = token_len;
	e->key_count = keys->count;
	for (i = 0; i < keys->count; i++) {
		e->keys[i] = malloc(keys->lens[i] + 1);
		if (e->keys[i] == NULL) {
			entry_free(e);
			return -1;
		}
		memcpy(e->keys[i], keys->keys[i], keys->lens[i]);
		e->keys[i][keys->lens[i]] = '\0';
		e->lens[i] = keys->lens[i];
	}
	e->multi = keys->multi;
	e->ttl = ttl;
	e->due = now + (double) ttl / 3.0;
	e->valid_until = now + validity;
	e->left = w->max_extensions;
	e->state = RL_WATCH_HELD;

	pthread_mutex_lock(&g_lock);
	leave_parent_locked(w);
	e->next = w->entries;
	w->entries = e;
	if (!w->running && start_locked(w) != 0) {
		w->entries = e->next;
		entry_free(e);
		rc = -1;
	} else {
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&g_lock);
	return rc;
}

static rl_watch_state state_of(const watch_entry *e, double now)
{
	if (e->state == RL_WATCH_HELD && now >= e->valid_until) {
		return RL_WATCH_LOST; /* a renewal still hanging, or the thread starved: the lease ran out */
	}
	return e->state;
}

rl_watch_state rl_watchdog_state(rl_watchdog *w, const char *token, size_t token_len, int64_t *renewals)
{
	rl_watch_state state = RL_WATCH_UNKNOWN;
	watch_entry *e;

	pthread_mutex_lock(&g_lock);
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		state = state_of(e, rl_now_ms());
		if (renewals) {
			*renewals = e->renewals;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return state;
}

int rl_watchdog_count_extension(rl_watchdog *w, const char *token, size_t token_len)
{
	watch_entry *e;
	int rc = -1;

	pthread_mutex_lock(&g_lock);
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		rc = e->left != 0;
		if (e->left > 0) {
			e->left--;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return rc;
}

static int anything_held(const rl_watchdog *w)
{
	const watch_entry *e;

	for (e = w->entries; e; e = e->next) {
		if (!e->removed) {
			return 1;
		}
	}
	return 0;
}

rl_watch_state rl_watchdog_remove(rl_watchdog *w, const char *token, size_t token_len)
{
	rl_watch_state state = RL_WATCH_UNKNOWN;
	watch_entry *e;

	pthread_mutex_lock(&g_lock);
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		state = state_of(e, rl_now_ms());
		if (e->busy) {
			e->removed = 1; /* the thread frees it after its renewal */
		} else {
			unlink_entry(w, e);
			entry_free(e);
		}
	}
	if (!anything_held(w)) {
		join_locked(w);
	}
	pthread_mutex_unlock(&g_lock);
	return state;
}

int rl_watchdog_set_alarm(rl_watchdog *w, const char *token, size_t token_len, void (*raise)(void *), void *arg)
{
	watch_entry *e;
	int rc = -1;

	pthread_mutex_lock(&g_lock);
	leave_parent_locked(w);
	e = find(w, token, token_len);
	if (e != NULL) {
		e->raise = raise;
		e->raise_arg = arg;
		if (raise && state_of(e, rl_now_ms()) == RL_WATCH_LOST) {
			raise(arg); /* lost already */
		}
		rc = 0;
	}
	pthread_mutex_unlock(&g_lock);
	return rc;
}

static void stop_locked(rl_watchdog *w)
{
	leave_parent_locked(w);
	join_locked(w);
	while (w->entries) {
		watch_entry *e = w->entries;
		w->entries = e->next;
		entry_free(e);
	}
}

void rl_watchdog_stop_owned(const void *owner)
{
	rl_watchdog *w;

	pthread_mutex_lock(&g_lock);
	for (w = g_all; w; w = w->next_all) {
		if (w->owner == owner) {
			stop_locked(w); /* drops g_lock while joining: the list itself only changes on this thread */
		}
	}
	pthread_mutex_unlock(&g_lock);
}

void rl_watchdog_destroy(rl_watchdog *w)
{
	rl_watchdog **at;

	if (w == NULL) {
		return;
	}
	pthread_mutex_lock(&g_lock);
	stop_locked(w);
	for (at = &g_all; *at; at = &(*at)->next_all) {
		if (*at == w) {
			*at = w->next_all;
			break;
		}
	}
	pthread_mutex_unlock(&g_lock);
	if (!w->forked) {
		pthread_cond_destroy(&w->wake);
	}
	rl_cluster_destroy(w->cluster); /* no pool: closes; the copied password is wiped */
	free(w->outcomes);
	free(w);
}

#endif
