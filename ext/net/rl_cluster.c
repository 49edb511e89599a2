/* The servers of one RedLock object. See rl_cluster.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
# include <pthread.h>
#endif

#include "net/rl_cluster.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"
#include "net/rl_net_private.h"

rl_cluster *rl_cluster_create(size_t count)
{
	rl_cluster *cluster = calloc(1, sizeof(*cluster));
	size_t i;

	if (cluster == NULL) {
		return NULL;
	}
	cluster->count = count;
	cluster->owner_pid = rl_process_id();
	cluster->endpoints = calloc(count ? count : 1, sizeof(*cluster->endpoints));
	cluster->conns = calloc(count ? count : 1, sizeof(*cluster->conns));
	cluster->policies = calloc(count ? count : 1, 1);
	cluster->clocks = calloc(count ? count : 1, sizeof(*cluster->clocks));
	cluster->clocks_owner = 1;
	if ((cluster->lock_masters = calloc(2 * (count ? count : 1), sizeof(*cluster->lock_masters))) != NULL) {
		cluster->vote_masters = cluster->lock_masters + (count ? count : 1);
	}
	if (cluster->endpoints == NULL || cluster->conns == NULL || cluster->policies == NULL || cluster->clocks == NULL
		|| cluster->lock_masters == NULL) {
		rl_cluster_destroy(cluster);
		return NULL;
	}
	for (i = 0; i < count; i++) {
		rl_conn_init(&cluster->conns[i]);
	}
	return cluster;
}

rl_cluster *rl_cluster_sibling(const rl_cluster *of)
{
	rl_cluster *cluster = calloc(1, sizeof(*cluster));
	size_t i;

	if (cluster == NULL) {
		return NULL;
	}
	cluster->conns = calloc(of->count ? of->count : 1, sizeof(*cluster->conns));
	if ((cluster->lock_masters = calloc(2 * (of->count ? of->count : 1), sizeof(*cluster->lock_masters))) != NULL) {
		cluster->vote_masters = cluster->lock_masters + (of->count ? of->count : 1);
	}
	if (cluster->conns == NULL || cluster->lock_masters == NULL) {
		free(cluster->conns);
		free(cluster->lock_masters);
		free(cluster);
		return NULL;
	}
	cluster->count = of->count;
	cluster->owner_pid = rl_process_id();
	cluster->endpoints = of->endpoints;
	cluster->endpoints_of = of;
	cluster->pool = of->pool;
	cluster->policies = of->policies; /* what its calls learn shows on the object */
	cluster->clocks = of->clocks;
	cluster->refuse_evicting = of->refuse_evicting;
	for (i = 0; i < of->count; i++) {
		rl_conn_init(&cluster->conns[i]);
	}
	return cluster;
}

static char *copy_bytes(const char *bytes, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy != NULL) {
		memcpy(copy, bytes, len);
		copy[len] = '\0';
	}
	return copy;
}

static void endpoint_free(rl_endpoint *endpoint)
{
	free(endpoint->host);
	free(endpoint->username);
	rl_secret_free(endpoint->password);
	free(endpoint->pool_key);
	rl_tls_config_free(endpoint->tls);
	rl_sentinel_free(endpoint->sentinel);
	rl_shards_free(endpoint->shards);
	memset(endpoint, 0, sizeof(*endpoint));
}

int rl_cluster_set_endpoint_spec(rl_cluster *cluster, size_t index, const rl_endpoint_spec *spec)
{
	rl_endpoint *endpoint = &cluster->endpoints[index];

	endpoint_free(endpoint);
	endpoint->port = spec->port;
	endpoint->timeout_ms = spec->timeout_ms;
	endpoint->database = spec->database;
	endpoint->test_double = spec->test_double;
	endpoint->host = copy_bytes(spec->host, spec->host_len);
	if (spec->username != NULL) {
		endpoint->username = copy_bytes(spec->username, spec->username_len);
	}
	if (spec->password != NULL) {
		endpoint->password = copy_bytes(spec->password, spec->password_len);
	}
	if (spec->tls != NULL) {
		endpoint->tls = rl_tls_config_copy(spec->tls);
	}
	if (spec->sentinel != NULL) {
		endpoint->sentinel = rl_sentinel_copy(spec->sentinel);
	}
	if (spec->shards != NULL && (endpoint->shards = rl_shards_copy(spec->shards)) != NULL) {
		size_t other;

		/* the fromCluster() members of one object place by one map (net/rl_shards.h) */
		for (other = 0; other < cluster->count; other++) {
			if (other != index && cluster->endpoints[other].shards != NULL
				&& rl_shards_share(endpoint->shards, cluster->endpoints[other].shards)) {
				break;
			}
		}
	}
	if (endpoint->host == NULL || (spec->username && endpoint->username == NULL)
		|| (spec->password && endpoint->password == NULL) || (spec->tls && endpoint->tls == NULL)
		|| (spec->sentinel && endpoint->sentinel == NULL) || (spec->shards && endpoint->shards == NULL)) {
		/* A NULL host makes the server fail with "connect: out of memory" rather than connect
		 * without the credentials (or the TLS) it was given. */
		endpoint_free(endpoint);
		return -1;
	}
	return 0;
}

int rl_cluster_use_pool(rl_cluster *cluster, rl_pool *pool)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		rl_endpoint *endpoint = &cluster->endpoints[i];
		if (endpoint->host == NULL) {
			continue;
		}
		free(endpoint->pool_key);
		endpoint->pool_key = rl_pool_key(pool, endpoint);
		if (endpoint->pool_key == NULL) {
			return -1;
		}
	}
	cluster->pool = pool;
	return 0;
}

double rl_cluster_call_bound(const rl_cluster *cluster)
{
	double bound = 0;
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		double timeout = cluster->endpoints[i].timeout_ms;
		if (timeout <= 0) {
			timeout = RL_DEFAULT_CALL_BOUND_MS;
		}
		if (timeout > bound) {
			bound = timeout;
		}
	}
	return bound > 0 ? bound : RL_DEFAULT_CALL_BOUND_MS;
}

void rl_cluster_leave_parent(rl_cluster *cluster)
{
	long pid = rl_process_id();
	size_t i;

	if (cluster->owner_pid == pid) {
		return;
	}
	for (i = 0; cluster->conns && i < cluster->count; i++) {
		rl_conn_close(&cluster->conns[i]);
	}
	cluster->owner_pid = pid;
}

/* One lock orders claims against moves of the test clock (memory:// servers need unix sockets: on
 * Windows the clock never moves). */
#ifndef _WIN32
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
# define clock_guard() pthread_mutex_lock(&clock_lock)
# define clock_unguard() pthread_mutex_unlock(&clock_lock)
#else
# define clock_guard() ((void) 0)
# define clock_unguard() ((void) 0)
#endif
static long real_clusters;

int rl_cluster_claim_clock(rl_cluster *cluster)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < cluster->count && cluster->endpoints[i].test_double; i++) {
	}
	if (i == cluster->count) {
		return 0; /* memory:// servers only: they live on the test clock */
	}
	clock_guard();
	if (rl_clock_offset_us != 0) { /* written under this lock only */
		rc = -1;
	} else {
		real_clusters++;
		cluster->claims_real_clock = 1;
	}
	clock_unguard();
	return rc;
}

int rl_test_clock_set(int64_t offset_us, long *real)
{
	int rc = 0;

	clock_guard();
	if (offset_us != 0 && real_clusters > 0) {
		*real = real_clusters;
		rc = -1;
	} else {
#ifndef _WIN32
		__atomic_store_n(&rl_clock_offset_us, offset_us, __ATOMIC_RELAXED); /* rl_now_ms() reads it anywhere */
#else
		rl_clock_offset_us = offset_us;
#endif
	}
	clock_unguard();
	return rc;
}

void rl_cluster_destroy(rl_cluster *cluster)
{
	size_t i;

	if (cluster == NULL) {
		return;
	}
	if (cluster->claims_real_clock) {
		clock_guard();
		real_clusters--;
		clock_unguard();
	}
	rl_cluster_leave_parent(cluster); /* never pools a socket the parent still uses */
	for (i = 0; cluster->conns && i < cluster->count; i++) {
		rl_conn *conn = &cluster->conns[i];
		rl_outcome ignored;

		/* A rollback queued last must leave now if the socket takes it: nobody flushes later. */
		if (rl_conn_flush(conn, &ignored) != 0) {
			rl_conn_close(conn);
		}
		if (cluster->pool != NULL && cluster->endpoints) {
			/* Never waits: replies still owed go with the connection (see rl_pool.h). */
			rl_pool_checkin(cluster->pool, cluster->endpoints[i].pool_key, conn);
		}
		rl_conn_release(conn);
	}
	for (i = 0; cluster->endpoints_of == NULL && cluster->endpoints && i < cluster->count; i++) {
		endpoint_free(&cluster->endpoints[i]);
	}
	if (cluster->endpoints_of == NULL) {
		free(cluster->endpoints);
		free(cluster->policies);
	}
	if (cluster->clocks_owner) {
		free(cluster->clocks);
	}
	free(cluster->conns);
	free(cluster->lock_masters);
	free(cluster);
}


int rl_cluster_natives_known(rl_cluster *cluster)
{
	size_t i;
	int asked = cluster->natives_asked_pid == rl_process_id();

	for (i = 0; i < cluster->count; i++) {
		const rl_conn *conn = &cluster->conns[i];
		/* open and still owing its probes' replies, or not open and never asked here (a server
		 * that could not be reached is not asked again each time: a release would wait for its
		 * timeout twice); a pooled connection already knows */
		if ((conn->state != RL_CONN_DOWN && rl_conn_natives_pending(conn)) || (conn->state == RL_CONN_DOWN && !asked)) {
			cluster->natives_asked_pid = rl_process_id();
			return 0;
		}
	}
	return 1;
}

/* --- clock jumps (docs/design/verification.md#clock-jumps) --------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
# define CLOCK_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
# define CLOCK_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
# define CLOCK_ADD(p, v) ((void) __atomic_add_fetch((p), (v), __ATOMIC_RELAXED))
# define CLOCK_HOLD(c) do { } while (__atomic_test_and_set(&(c)->busy, __ATOMIC_ACQUIRE))
# define CLOCK_LET_GO(c) __atomic_clear(&(c)->busy, __ATOMIC_RELEASE)
#else /* no renewal thread there (rl_leases.h): one thread */
# define CLOCK_LOAD(p) (*(p))
# define CLOCK_STORE(p, v) (*(p) = (v))
# define CLOCK_ADD(p, v) ((void) (*(p) += (v)))
# define CLOCK_HOLD(c) ((void) (c))
# define CLOCK_LET_GO(c) ((void) (c))
#endif

/* A jump server i's connection saw, kept for the object: counted once when the object's other
 * connection (or the renewal thread's) already saw it; a forward one arms the rule for a lock taken
 * before it. */
static void note_clock(rl_cluster *cluster, size_t i)
{
	rl_conn *conn = &cluster->conns[i];
	rl_server_clock *clock = &cluster->clocks[i];
	double jump = conn->clock_jump;
	int64_t seen_us = (int64_t) (conn->clock_jump_seen * 1000.0);
	int seen_before;

	conn->policy_flags &= (unsigned char) ~RL_POLICY_FLAG_CLOCK;
	CLOCK_HOLD(clock);
	/* a connection never sees one jump twice: once it noted or matched the latest, its next is a new one
	 * (two jumps alike, one sample apart, passed for one) */
	seen_before = clock->jumps > 0 && conn->clock_jumps_known != clock->jumps
		&& rl_clock_same_jump(jump, conn->clock_jump_spread, conn->clock_jump_since, (double) clock->jump_ms,
			(double) clock->spread_ms, (double) clock->seen_at_us / 1000.0);
	if (!seen_before) {
		if (jump > 0) {
			CLOCK_STORE(&clock->forward_at_us, seen_us);
		}
		CLOCK_STORE(&clock->seen_at_us, seen_us);
		CLOCK_STORE(&clock->jump_ms, (int64_t) (jump > 0 ? jump + 0.5 : jump - 0.5));
		CLOCK_STORE(&clock->spread_ms, (int64_t) (conn->clock_jump_spread + 1.5)); /* rounded up, plus jump_ms's rounding */
		CLOCK_ADD(&clock->jumps, 1);
	}
	conn->clock_jumps_known = clock->jumps;
	CLOCK_LET_GO(clock);
	if (seen_before) {
		return; /* the same jump, seen again */
	}
	if (jump > 0 && cluster->clock_taken_at > 0 && conn->clock_jump_seen >= cluster->clock_taken_at) {
		cluster->clock_rule = 1;
	}
	cluster->clock_news[jump > 0 ? 0 : 1]++;
}

/* Whether server i's clock jumped forward at or after the held lock was taken. */
static int jumped_since_taken(const rl_cluster *cluster, size_t i)
{
	int64_t at = CLOCK_LOAD(&cluster->clocks[i].forward_at_us);

	return at != 0 && (double) at / 1000.0 >= cluster->clock_taken_at;
}

void rl_cluster_expect_clock(rl_cluster *cluster, double taken_at, int every_call)
{
	size_t i;

	cluster->clock_every_call = (unsigned char) (every_call != 0);
	cluster->clock_taken_at = every_call ? taken_at : 0;
	cluster->clock_rule = 0;
	for (i = 0; cluster->clock_taken_at > 0 && i < cluster->count; i++) {
		cluster->clock_rule |= (unsigned char) jumped_since_taken(cluster, i);
	}
}

void rl_cluster_share_clocks(rl_cluster *cluster, const rl_cluster *of)
{
	if (cluster->clocks_owner) {
		free(cluster->clocks);
	}
	cluster->clocks = of->clocks;
	cluster->clocks_owner = 0;
}

const char *rl_cluster_server_warning(const rl_cluster *cluster, size_t i, char *out, size_t size)
{
	char policy[RL_MESSAGE_MAX], clock[RL_MESSAGE_MAX];
	int64_t jump = CLOCK_LOAD(&cluster->clocks[i].jump_ms);
	const char *p = rl_eviction_policy_warning((rl_eviction_policy) cluster->policies[i], policy, sizeof(policy));
	const char *c = jump != 0 ? rl_clock_jump_warning((double) jump, clock, sizeof(clock)) : NULL;

	if (p == NULL && c == NULL) {
		return NULL;
	}
	snprintf(out, size, "%s%s%s", p ? p : "", p && c ? "; " : "", c ? c : "");
	return out;
}

unsigned rl_cluster_clock_jumps(const rl_cluster *cluster, size_t i)
{
	return CLOCK_LOAD(&cluster->clocks[i].jumps);
}

void rl_cluster_take_clock_news(rl_cluster *cluster, unsigned news[2])
{
	news[0] = cluster->clock_news[0];
	news[1] = cluster->clock_news[1];
	cluster->clock_news[0] = cluster->clock_news[1] = 0;
}

/* The eviction guard, in the one place every vote passes (docs/guide/eviction.md). A policy the
 * connection learnt (its probes' replies come before the vote on the stream) or brought from the
 * pool is kept for the object and telemetry; with 'evictingServers' => 'refuse' the vote of a
 * server whose policy can evict lock keys does not count. Its command ran all the same: a key it
 * wrote there is released as on any other server. */
void rl_cluster_note_policy(rl_cluster *cluster, size_t i)
{
	rl_conn *conn = &cluster->conns[i];

	if (conn->policy_flags & RL_POLICY_FLAG_NEWS) {
		conn->policy_flags &= (unsigned char) ~RL_POLICY_FLAG_NEWS;
		cluster->policies[i] = conn->eviction_policy;
		cluster->policies_news = 1;
	}
	if (conn->policy_flags & RL_POLICY_FLAG_CLOCK) {
		note_clock(cluster, i);
	}
}

void rl_cluster_eviction_guard(rl_cluster *cluster, size_t i, rl_outcome *out)
{
	rl_conn *conn = &cluster->conns[i];

	rl_cluster_note_policy(cluster, i);
	if (cluster->refuse_evicting && (conn->policy_flags & RL_POLICY_FLAG_EVICTS) && out->kind < RL_OUTCOME_CONNECT) {
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "maxmemory-policy %s can evict lock keys: vote refused ('evictingServers' => 'refuse')",
			rl_eviction_policy_name((rl_eviction_policy) conn->eviction_policy));
		rl_outcome_set(out, RL_OUTCOME_ERROR, message);
	}
	if (cluster->clock_rule && out->kind == RL_OUTCOME_YES && jumped_since_taken(cluster, i)) {
		/* Its key's expiry was measured on a clock that jumped forward since: it may expire before
		 * the validity this lock was promised (Kleppmann's counterexample). */
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "clock jumped %+lld ms since the lock was taken: vote not counted",
			(long long) CLOCK_LOAD(&cluster->clocks[i].jump_ms));
		rl_outcome_set(out, RL_OUTCOME_TAKEN, message);
	}
	if (conn->policy_flags & RL_POLICY_FLAG_MASTER) {
		/* A promoted replica may hold our key by replication, yet it is a member that changed under
		 * the lock: its yes waits for the self-healing extend that adopts it. */
		cluster->vote_masters[i] = conn->master_mark;
		if (cluster->expecting_masters && out->kind == RL_OUTCOME_YES && cluster->lock_masters[i] != 0
			&& cluster->lock_masters[i] != conn->master_mark) {
			rl_outcome_set(out, RL_OUTCOME_TAKEN, "the master changed since the lock was taken: not counted until healed");
		}
	}
}

int rl_cluster_note_masters(const rl_cluster *cluster, const rl_outcome *outcomes, uint32_t *masters, int taken)
{
	size_t i;
	int any = 0;

	for (i = 0; i < cluster->count; i++) {
		if ((outcomes[i].kind == RL_OUTCOME_YES || outcomes[i].kind == RL_OUTCOME_TAKEN) && cluster->vote_masters[i] != 0) {
			masters[i] = cluster->vote_masters[i];
		} else if (taken && cluster->conns[i].state != RL_CONN_DOWN) {
			masters[i] = cluster->conns[i].master_mark; /* its reply came after the quorum: where the key went */
		}
		any |= masters[i] != 0;
	}
	return any;
}

int rl_cluster_expect_masters(rl_cluster *cluster, const uint32_t *masters)
{
	size_t i;
	int suspected = 0;

	cluster->expecting_masters = masters != NULL;
	for (i = 0; masters != NULL && i < cluster->count; i++) {
		const rl_endpoint *endpoint = &cluster->endpoints[i];

		cluster->lock_masters[i] = masters[i];
		suspected |= masters[i] != 0 && endpoint->sentinel != NULL
			&& (endpoint->sentinel->state != RL_SENTINEL_RESOLVED || rl_master_mark(endpoint->host, endpoint->port) != masters[i]);
		/* a cluster member: its slot may have moved (the map not current, or its node not the one recorded) */
		suspected |= masters[i] != 0 && endpoint->shards != NULL
			&& (endpoint->shards->map->state != RL_SHARDS_RESOLVED || rl_shards_mark(endpoint) != masters[i]);
	}
	return suspected;
}
