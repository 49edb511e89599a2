/* Per-process counters. See rl_metrics.h. */
#include <stdio.h>
#include <string.h>

#include "services/rl_metrics.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"

#if defined(_MSC_VER)
# include <windows.h>
# define ADD(p, v) ((void) InterlockedExchangeAdd64((volatile LONG64 *) (p), (LONG64) (v)))
# define LOAD(p) ((uint64_t) InterlockedCompareExchange64((volatile LONG64 *) (p), 0, 0))
# define CLAIM(p) (InterlockedCompareExchange((volatile LONG *) (p), 1, 0) == 0)
# define PUBLISH(p) ((void) InterlockedExchange((volatile LONG *) (p), 2))
# define STATE(p) ((int) InterlockedCompareExchange((volatile LONG *) (p), 0, 0))
# define STORE_INT(p, v) ((void) InterlockedExchange((volatile LONG *) (p), (LONG) (v)))
# define LOAD_INT(p) ((int) InterlockedCompareExchange((volatile LONG *) (p), 0, 0))
typedef LONG slot_state;
#else
# define ADD(p, v) ((void) __atomic_fetch_add((p), (uint64_t) (v), __ATOMIC_RELAXED))
# define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
# define CLAIM(p) __extension__ ({ int expected_ = 0; \
	__atomic_compare_exchange_n((p), &expected_, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); })
# define PUBLISH(p) __atomic_store_n((p), 2, __ATOMIC_RELEASE)
# define STATE(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
# define STORE_INT(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
# define LOAD_INT(p) __atomic_load_n((p), __ATOMIC_RELAXED)
typedef int slot_state;
#endif

const double rl_metrics_wait_bounds[RL_WAIT_BUCKETS] = {1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000};

static uint64_t g_counters[RL_METRIC_COUNT];
static uint64_t g_buckets[RL_WAIT_BUCKETS + 1];
static uint64_t g_wait_count;
static uint64_t g_wait_sum_us;

/* A server's slot: claimed (0 -> 1) by the first thread to see an error there, published (2) once
 * its address is written; never freed, so lookups need no lock. */
typedef struct server_slot {
	slot_state state;
	char address[RL_METRICS_ADDRESS_MAX];
	uint64_t errors[RL_SERVER_CLASSES];
	int policy; /* rl_eviction_policy, the latest learnt; written and read atomically */
} server_slot;

static server_slot g_servers[RL_METRICS_SERVERS];
static uint64_t g_other[RL_SERVER_CLASSES];

void rl_metrics_add(rl_metric metric, uint64_t n)
{
	ADD(&g_counters[metric], n);
}

void rl_metrics_wait(double ms)
{
	size_t i = 0;

	while (i < RL_WAIT_BUCKETS && ms > rl_metrics_wait_bounds[i]) {
		i++;
	}
	ADD(&g_buckets[i], 1);
	ADD(&g_wait_count, 1);
	ADD(&g_wait_sum_us, (uint64_t) (ms > 0 ? ms * 1000.0 : 0));
}

/* The slot of address, claimed when new; NULL when the table is full. */
static server_slot *slot_of(const char *address)
{
	size_t i;

	for (i = 0; i < RL_METRICS_SERVERS; i++) {
		server_slot *s = &g_servers[i];
		int spins = 0;

		if (STATE(&s->state) == 0 && CLAIM(&s->state)) {
			snprintf(s->address, sizeof(s->address), "%s", address);
			PUBLISH(&s->state);
			return s;
		}
		/* Claimed by another thread: its address follows at once. Bounded, for a child forked
		 * in between (it then skips the slot). */
		while (STATE(&s->state) != 2 && ++spins < 100000) {
		}
		if (STATE(&s->state) == 2 && strcmp(s->address, address) == 0) {
			return s;
		}
	}
	return NULL;
}

static int error_class(rl_outcome_kind kind)
{
	switch (kind) {
	case RL_OUTCOME_CONNECT: return RL_SERVER_CONNECT;
	case RL_OUTCOME_TIMEOUT: return RL_SERVER_TIMEOUT;
	case RL_OUTCOME_IO: return RL_SERVER_IO;
	case RL_OUTCOME_ERROR: return RL_SERVER_ERROR;
	default: return -1;
	}
}

/* The slot of server i of cluster, by its address (no credentials); NULL when the table is full. */
static server_slot *server_slot_of(const rl_cluster *cluster, size_t i)
{
	const rl_endpoint *endpoint = &cluster->endpoints[i];
	char address[RL_METRICS_ADDRESS_MAX];

	if (endpoint->host == NULL) {
		snprintf(address, sizeof(address), "#%zu", i);
	} else if (endpoint->sentinel != NULL) {
		snprintf(address, sizeof(address), "sentinel:%s", endpoint->sentinel->identity);
	} else if (endpoint->shards != NULL) {
		snprintf(address, sizeof(address), "cluster:%s", endpoint->shards->identity);
	} else if (endpoint->host[0] == '/') {
		snprintf(address, sizeof(address), "%s", endpoint->host);
	} else if (strchr(endpoint->host, ':') != NULL) {
		snprintf(address, sizeof(address), "[%s]:%d", endpoint->host, endpoint->port);
	} else {
		snprintf(address, sizeof(address), "%s:%d", endpoint->host, endpoint->port);
	}
	return slot_of(address);
}

void rl_metrics_server_errors(const rl_cluster *cluster, const rl_outcome *outcomes)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		int c = error_class(outcomes[i].kind);
		server_slot *slot;

		if (c < 0) {
			continue;
		}
		slot = server_slot_of(cluster, i);
		ADD(slot ? &slot->errors[c] : &g_other[c], 1);
	}
}

void rl_metrics_server_policies(const rl_cluster *cluster)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		server_slot *slot;

		if (cluster->policies[i] == 0) {
			continue;
		}
		slot = server_slot_of(cluster, i);
		if (slot != NULL) {
			STORE_INT(&slot->policy, (int) cluster->policies[i]);
		}
	}
}

void rl_metrics_read(rl_metrics_snapshot *into)
{
	size_t i;

	for (i = 0; i < RL_METRIC_COUNT; i++) {
		into->counters[i] = LOAD(&g_counters[i]);
	}
	for (i = 0; i <= RL_WAIT_BUCKETS; i++) {
		into->buckets[i] = LOAD(&g_buckets[i]) + (i > 0 ? into->buckets[i - 1] : 0);
	}
	into->wait_count = LOAD(&g_wait_count);
	into->wait_sum_ms = (double) LOAD(&g_wait_sum_us) / 1000.0;
	for (i = 0; i < RL_SERVER_CLASSES; i++) {
		into->server_errors_other[i] = LOAD(&g_other[i]);
	}
}

int rl_metrics_server(size_t i, char address[RL_METRICS_ADDRESS_MAX], uint64_t errors[RL_SERVER_CLASSES],
	int *policy)
{
	size_t c;

	if (i >= RL_METRICS_SERVERS || STATE(&g_servers[i].state) != 2) {
		return 0;
	}
	memcpy(address, g_servers[i].address, RL_METRICS_ADDRESS_MAX);
	for (c = 0; c < RL_SERVER_CLASSES; c++) {
		errors[c] = LOAD(&g_servers[i].errors[c]);
	}
	*policy = LOAD_INT(&g_servers[i].policy);
	return 1;
}
