/* The servers of one RedLock object: their endpoints (address, timeout, credentials) and their
 * connections, created, checked in to the pool, left behind after a fork, destroyed. No zvals. */
#ifndef RL_CLUSTER_H
#define RL_CLUSTER_H

#include <stddef.h>
#include "net/rl_conn.h"
#include "net/rl_pool.h"
#include "protocol/rl_resp.h"

typedef struct rl_cluster {
	size_t count;
	rl_endpoint *endpoints;
	rl_conn *conns;
	rl_pool *pool; /* where connections come from and go back to; NULL: private connections */
	long owner_pid; /* the process the connections were opened in (see rl_process_id) */
	long natives_asked_pid; /* rl_cluster_natives_known() asked once in this process */
	/* Telemetry, from clock reads the fan-out makes anyway: the start of the first fan-out since
	 * the caller set call_began to 0, the last poll round of the latest one, and how many of its
	 * outcomes were errors (connect, timeout, I/O, error reply). */
	double call_began, call_ended;
	unsigned call_errors;
	int claims_real_clock; /* counted among the clusters that keep the test clock still */
	const struct rl_cluster *endpoints_of; /* a sibling: whose endpoints these are (not freed here) */
	/* Eviction (docs/guide/eviction.md): each server's maxmemory-policy as last learnt
	 * (rl_eviction_policy; a sibling shares its object's), whether one was learnt during the
	 * latest fan-outs (telemetry records it, then clears this), and whether the votes of servers
	 * whose policy can evict lock keys are refused ('evictingServers' => 'refuse'). */
	unsigned char *policies;
	unsigned char policies_news;
	unsigned char refuse_evicting;
	/* The master-changed rule (docs/design/sentinel.md#master-changed-since-the-lock-was-taken): per
	 * server, the master that granted the lock the next calls ask about (0: any; expecting 0: no rule),
	 * and the master each vote of the latest fan-outs came from (0: a fixed address). Each cluster its
	 * own, a sibling's too: a lane's calls never mix with another's. */
	uint32_t *lock_masters, *vote_masters;
	int expecting_masters;
	/* Clock jumps (docs/design/verification.md#clock-jumps): per server what its TIME samples
	 * showed, shared by the object's clusters (siblings) and its renewal thread's (clocks_owner: 0
	 * when borrowed); for the calls on a held lock that follow (rl_cluster_expect_clock), when the
	 * lock was taken (0: not known, no rule), whether every call samples, whether a server's
	 * forward jump came at or after it (its yes does not count); the jumps this cluster noted
	 * since telemetry took them (rl_cluster_take_clock_news). */
	struct rl_server_clock *clocks;
	unsigned char clocks_owner;
	unsigned char clock_every_call;
	unsigned char clock_rule;
	double clock_taken_at;
	unsigned clock_news[2]; /* forward, backward */
} rl_cluster;

/* What the TIME samples of one server showed, read and written by the PHP thread and the renewal
 * thread (relaxed atomics: each field alone; noting a jump holds busy, so that two threads seeing
 * the same jump at once count it once). Times in microseconds of rl_now_ms(). */
typedef struct rl_server_clock {
	int64_t forward_at_us; /* when its latest forward jump was seen; 0: none */
	int64_t seen_at_us;    /* when its latest jump (either way) was seen */
	int64_t jump_ms;       /* that jump, signed; 0: none */
	int64_t spread_ms;     /* how far the true jump may lie from jump_ms (rl_clock_sample) */
	uint32_t jumps;        /* jumps seen, counted once across connections */
	unsigned char busy;    /* held while a jump is noted */
} rl_server_clock;

/* One server as parsed from the PHP side. Strings need not be NUL-terminated; NULL = absent. */
typedef struct rl_endpoint_spec {
	const char *host;
	size_t host_len;
	int port;
	double timeout_ms;
	const char *username;
	size_t username_len;
	const char *password;
	size_t password_len;
	int database;
	const rl_tls_config *tls; /* NULL: plain TCP; copied */
	int test_double;          /* a memory:// server */
	const struct rl_sentinel *sentinel; /* a Sentinel-managed member (host is then ""); copied */
	const struct rl_shards *shards;     /* a Redis Cluster member (host is then the first seed); copied */
} rl_endpoint_spec;

/* Allocates count endpoints and connections (hosts are copied). NULL on allocation failure. */
rl_cluster *rl_cluster_create(size_t count);
/* Copies spec into endpoint index. Returns 0, or -1 when out of memory. */
int rl_cluster_set_endpoint_spec(rl_cluster *cluster, size_t index, const rl_endpoint_spec *spec);

/* Takes connections from pool and gives them back to it on destroy. Returns 0, or -1 when out
 * of memory (the cluster then keeps private connections). */
int rl_cluster_use_pool(rl_cluster *cluster, rl_pool *pool);

/* How long unlock()/validity()/extend() may wait in all: the largest server timeout, a server
 * without one (timeout 0, "no limit") counting as RL_DEFAULT_CALL_BOUND_MS. */
#define RL_DEFAULT_CALL_BOUND_MS 1000.0
double rl_cluster_call_bound(const rl_cluster *cluster);

/* The test clock (rl_clock_offset_us, moved by memory:// servers) and leases on real servers never
 * share a process: docs/design/callables.md#the-test-clock. An object's cluster with a server
 * other than memory:// claims the real clock: 0, or -1 while the test clock is moved. The test
 * clock moves (offset_us != 0) only while no such cluster exists: 0, or -1 with their number in
 * *real_clusters (the offset unchanged). rl_cluster_destroy gives the claim back. */
int rl_cluster_claim_clock(rl_cluster *cluster);
int rl_test_clock_set(int64_t offset_us, long *real_clusters);
/* Another set of connections to the same servers (endpoints shared with of, which must outlive it;
 * the same pool): for a call that runs while of's connections are lent to another one. Its
 * connections come from the pool or are opened on first use. NULL when out of memory. */
rl_cluster *rl_cluster_sibling(const rl_cluster *of);

/* The clock-jump rule for the calls on a held lock that follow, until called with every_call 0:
 * they sample each server's clock, and with taken_at > 0 (rl_now_ms() when the lock was taken)
 * a yes from a server whose clock jumped forward at or after it counts as "not held". */
void rl_cluster_expect_clock(rl_cluster *cluster, double taken_at, int every_call);
/* The renewal thread's copy of an object's servers shares what the object's samples showed (of
 * must outlive cluster). */
void rl_cluster_share_clocks(rl_cluster *cluster, const rl_cluster *of);
/* Server i's warnings (its eviction policy, its latest clock jump) as one text into out: out, or
 * NULL when there is none. */
const char *rl_cluster_server_warning(const rl_cluster *cluster, size_t i, char *out, size_t size);
/* The clock jumps server i showed to the object (forward and backward, each counted once). */
unsigned rl_cluster_clock_jumps(const rl_cluster *cluster, size_t i);
/* The jumps (news[0] forward, news[1] backward) this cluster noted since last asked: for metrics. */
void rl_cluster_take_clock_news(rl_cluster *cluster, unsigned news[2]);

/* The master-changed rule for the calls that follow, until called again: a yes from a Sentinel
 * member whose master is not masters[i] (its mark: rl_master_mark; 0: any) counts as "not held".
 * masters NULL: no rule (a lock not tracked, or a new acquisition). 1 when a member may have changed
 * masters already (its master not known, or not masters[i]): an extend then awaits every reply
 * (rl_lock_policy.await_every_reply), else it could stop before that member's answer, never adopt it,
 * and lose the lock at the next member's failover. */
int rl_cluster_expect_masters(rl_cluster *cluster, const uint32_t *masters);

/* After a call that won (a lock taken, an extend with its quorum): each Sentinel member that answered
 * it, yes or "not held", gets the master it answered from in masters[i] (one healed by this call is
 * adopted from now on); the others keep theirs, except that for a lock just taken a member whose reply
 * came after the quorum gets the master its connection reached (the one its key was sent to). 1 when any
 * is known (the lock has Sentinel members). */
int rl_cluster_note_masters(const rl_cluster *cluster, const rl_outcome *outcomes, uint32_t *masters, int taken);

/* Closes the connections, or checks them in to the pool, and frees everything. */
void rl_cluster_destroy(rl_cluster *cluster);

/* After a fork the child closes its copies of the sockets (its parent's stay open) and connects
 * afresh: used from both processes, one socket would hand each the other's replies. */
void rl_cluster_leave_parent(rl_cluster *cluster);

/* Whether the servers have said which native release they have (the probes sent on connect are
 * answered): false the first time in a process, and while an open connection still owes its
 * probes' replies. What a release without scripts needs to know first. */
int rl_cluster_natives_known(rl_cluster *cluster);

#endif
