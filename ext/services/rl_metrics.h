/* Per-process counters of every RedLock object of the process, every PHP thread (ZTS) and every
 * renewal thread together: what a Prometheus or OpenTelemetry exporter reads (RedLock::metrics(),
 * phpinfo()). Plain C, lock-free: relaxed atomic additions, so any thread may count at any time;
 * a reader sees each counter exact but the set of them not as one snapshot.
 *
 * Counted by the one acquisition path (client/rl_client.c) and by the renewal thread
 * (services/rl_renewal.c, services/rl_leases.c); never by the glue. A forked child starts with its
 * parent's figures (PHP-FPM workers fork from a master that takes no locks: theirs start at 0). */
#ifndef RL_METRICS_H
#define RL_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "net/rl_cluster.h"

typedef enum {
	RL_METRIC_ACQUIRED = 0,  /* lock(), lockShared(), lockSemaphore(), run(): won */
	RL_METRIC_CONTENDED,     /* not won: enough servers said "taken" that no quorum was possible */
	RL_METRIC_FAILED,        /* not won otherwise: errors, timeouts, validity used up, out of memory */
	RL_METRIC_RELEASED,      /* unlock() (run()'s too) and forceUnlock() that a quorum carried out */
	RL_METRIC_EXTENDED,      /* extend() that won a new validity */
	RL_METRIC_LOST,          /* tracked locks found lost (a failed renewal, or their validity ran out) */
	RL_METRIC_RENEWALS,      /* autoExtend renewals that reached a quorum */
	RL_METRIC_OBSERVER_ERRORS, /* observer calls that threw (the exception is swallowed) */
	RL_METRIC_ON_LOSS_ERRORS,  /* 'onLoss' calls that threw (swallowed likewise) */
	RL_METRIC_CLOCK_JUMPS_FORWARD,  /* a server's clock seen jumping forward (TIME against our clock) */
	RL_METRIC_CLOCK_JUMPS_BACKWARD, /* ... and backward */
	RL_METRIC_COUNT
} rl_metric;

/* Upper bounds (ms, inclusive) of the wait-time histogram's buckets; one more bucket holds the rest. */
#define RL_WAIT_BUCKETS 12
extern const double rl_metrics_wait_bounds[RL_WAIT_BUCKETS];

/* Per-server error classes (a "taken" vote is no error). */
typedef enum {
	RL_SERVER_CONNECT = 0,
	RL_SERVER_TIMEOUT,
	RL_SERVER_IO,
	RL_SERVER_ERROR,   /* the server replied with an error (WRONGPASS, NOPERM, OOM, ...) */
	RL_SERVER_CLASSES
} rl_server_error_class;

/* The servers with errors, by address ("host:port", or a unix socket's path); no credentials. */
#define RL_METRICS_SERVERS 64
#define RL_METRICS_ADDRESS_MAX 128

void rl_metrics_add(rl_metric metric, uint64_t n);

/* One acquisition's wait (ms from the call's start to its result, won or not). */
void rl_metrics_wait(double ms);

/* Counts the errors among outcomes (one per server of cluster, as a call left them). */
void rl_metrics_server_errors(const rl_cluster *cluster, const rl_outcome *outcomes);

/* Records the maxmemory-policy each server of cluster was last found with (docs/guide/eviction.md). */
void rl_metrics_server_policies(const rl_cluster *cluster);

typedef struct rl_metrics_snapshot {
	uint64_t counters[RL_METRIC_COUNT];
	uint64_t buckets[RL_WAIT_BUCKETS + 1]; /* cumulative (Prometheus' le): [i] waits of at most bounds[i] ms;
	                                         * [RL_WAIT_BUCKETS] every wait */
	uint64_t wait_count;
	double wait_sum_ms;
	uint64_t server_errors_other[RL_SERVER_CLASSES]; /* servers beyond the table's RL_METRICS_SERVERS */
} rl_metrics_snapshot;

void rl_metrics_read(rl_metrics_snapshot *into);

/* The i-th server with errors or a learnt maxmemory-policy: 1 with its address, counts and policy
 * (an rl_eviction_policy; NOT_LEARNT: none), 0 past the last. */
int rl_metrics_server(size_t i, char address[RL_METRICS_ADDRESS_MAX], uint64_t errors[RL_SERVER_CLASSES],
	int *policy);

#endif
