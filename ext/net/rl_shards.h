/* A Redis Cluster as one member (cluster://, clusters://, or the keyed form with "cluster"): its
 * seeds, and the slot map learnt from CLUSTER NODES (which master owns which of the 16384 hash
 * slots). Each call of the member goes to the master owning the slot of its keys: the member's
 * endpoint is pointed there (its host and port, as a Sentinel member's are pointed at its master),
 * its connection checked in to the pool or closed when it led elsewhere. MOVED and ASK are followed
 * by the fan-out within the call's deadline. The rules (why CLUSTER NODES, when the map is asked
 * again, why a replica never votes, the master-changed rule) are argued in docs/design/cluster.md.
 * The name: rl_cluster is already the servers of one RedLock object. No zvals. */
#ifndef RL_SHARDS_H
#define RL_SHARDS_H

#include <stddef.h>
#include <stdint.h>
#include "net/rl_conn.h"
#include "net/rl_seeds.h"
#include "protocol/rl_request.h"

#define RL_SHARDS_SLOTS 16384
#define RL_SLOT_NONE (-1)  /* a call without keys */
#define RL_SLOT_CROSS (-2) /* keys on different slots */
/* MOVED and ASK followed per member and call, at most (then the redirection is the member's error). */
#define RL_SHARDS_REDIRECTS_MAX 3

/* One member as parsed from the PHP side. Strings NUL-terminated; NULL = absent. */
typedef struct rl_shards_spec {
	rl_seeds_spec seeds;
	unsigned pin;             /* RedLock::fromCluster's member pin - 1 (see rl_shards.pin); 0: a cluster member */
} rl_shards_spec;

typedef struct rl_shards_node {
	char *host;
	int port;
} rl_shards_node;

typedef enum {
	RL_SHARDS_UNRESOLVED = 0, /* never asked */
	RL_SHARDS_RESOLVED,       /* the map is believed current */
	RL_SHARDS_STALE           /* a MOVED, a failed node, CLUSTERDOWN: ask again before the next call */
} rl_shards_state;

/* The slot map: a cluster member's own, or shared by the fromCluster() members of one object
 * (rl_shards_share): the members place by the order of the masters, so all of them place by the same
 * map, refreshed when any of them meets a move (docs/design/cluster.md#one-map-per-object). */
typedef struct rl_shards_map {
	unsigned refs;
	size_t node_count;
	rl_shards_node *nodes;  /* the masters as last learnt */
	uint16_t *owner;        /* per slot: 1 + the index of its master in nodes; 0: none known */
	rl_shards_state state;
	/* After every node asked failed, the member fails at once with the same reason until then. */
	double quiet_until;
	char failure[RL_MESSAGE_MAX];
	unsigned version;       /* bumped whenever the map changes */
	/* The masters that own slots by median slot (fromCluster's placement), as indexes in nodes,
	 * computed once per version: order_count of them, valid while order_version == version + 1. */
	uint16_t *order;
	size_t order_count;
	unsigned order_version;
} rl_shards_map;

typedef struct rl_shards {
	size_t seed_count;
	rl_endpoint *seeds;     /* host, port, timeout, credentials and TLS (every node's) */
	char *identity;         /* "host:port,host:port": description, duplicates */
	rl_shards_map *map;
	/* RedLock::fromCluster (docs/design/cluster.md#fromcluster-placement): 1 + the member's index i. Its
	 * master is the i-th by median slot owned; its keys carry the hash tag tag ("rl<i>.<k>", k the least
	 * whose slot that master owns), recomputed with the map. 0: a cluster member (each key to its own slot). */
	unsigned pin;
	char tag[32];
	size_t tag_len;
	unsigned char tag_changed; /* since the endpoint's pool key was made: the key names the tag */
	unsigned placed_version;   /* the map's version the tag was placed at */
	int placed_slot;
} rl_shards;

#define RL_SHARDS_RETRY_MS 1000.0

/* NULL when out of memory. */
rl_shards *rl_shards_create(const rl_shards_spec *spec);
void rl_shards_free(rl_shards *shards);

struct rl_pool;

/* How many masters own slots, asked of the seeds now (RedLock::fromCluster counts its members). The
 * count, or -1 with *out: no map, or a map with a slot no master owns (a cluster partly down, not
 * counted: server trouble, which the count would pass off as a smaller cluster). */
int rl_shards_masters(rl_shards *shards, double call_deadline, rl_outcome *out);

/* The hash slot of a key (or of a channel: sharded pub/sub hashes its channels as keys). */
int rl_shards_key_slot(const char *key, size_t len);

/* The node a "MOVED slot host:port" error names (an empty host: answered_host's): its host copied
 * into host (cap bytes, NUL-terminated) and *port. 0, or -1 when message is not such a MOVED. */
int rl_shards_moved_node(const char *message, const char *answered_host, char *host, size_t cap, int *port);

#endif
