/* The fan-out's first half, private to net/rl_fanout*.c: a command queued on every server of a
 * cluster before the poll loop (rl_fanout.c) waits for the replies. Encoded once for all servers,
 * the native release picked per server, late replies taken in, a connection opened, checked out
 * of the pool or asked of a Sentinel member's sentinels where needed. prepare()'s common case (a
 * ready, idle connection: a few tests and a send()) is inline here, the rest in rl_fanout_queue.c. */
#ifndef RL_FANOUT_QUEUE_PRIVATE_H
#define RL_FANOUT_QUEUE_PRIVATE_H

#include <stdlib.h>

#include "net/rl_cluster.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"
#include "net/rl_net_private.h"
#include "protocol/rl_request.h"

/* Up to this many servers, a fan-out polls and probes from the stack. */
#define RL_SMALL_CLUSTER 16

/* A command encoded once for every server. */
typedef struct rl_encoded {
	char *bytes; /* NULL when out of memory */
	size_t len;
	char small[512];
} rl_encoded;

/* The commands without Lua a request offers (rl_request.native), encoded on first use: most
 * servers have neither, and encoding both on every release was a quarter of the encoding's cost. */
typedef struct rl_natives {
	const rl_command *commands; /* NULL: the request offers none */
	rl_encoded encoded[2];
	unsigned char tried[2];
} rl_natives;

/* A command (or a batch: MULTI ... EXEC, count commands pipelined in one buffer) encoded once for
 * every server; bytes NULL when out of memory. Freed by rl_encoded_free. */
void rl_fanout_encode(const rl_command *command, rl_encoded *enc);
void rl_fanout_encode_all(const rl_command *commands, unsigned count, rl_encoded *enc);

/* The same, each key given the hash tag tag first ("{tag}key"): a RedLock::fromCluster member's
 * (net/rl_shards.h). bytes NULL when out of memory. */
void rl_fanout_encode_tagged(const rl_command *commands, unsigned count, const char *tag, size_t tag_len, rl_encoded *enc);

static inline void rl_encoded_free(rl_encoded *enc)
{
	if (enc->bytes != enc->small) {
		free(enc->bytes);
	}
}

static inline void rl_natives_init(rl_natives *natives, const rl_request *request)
{
	natives->commands = request->native[0].argc > 0 ? request->native : NULL;
	natives->tried[0] = natives->tried[1] = 0;
}

static inline void rl_natives_free(rl_natives *natives)
{
	size_t k;

	for (k = 0; k < 2; k++) {
		if (natives->tried[k] && natives->encoded[k].bytes != NULL) {
			rl_encoded_free(&natives->encoded[k]);
		}
	}
}

/* The command for this connection: without Lua where its server has one (known once the probes
 * sent on connect were answered), else the script. */
static inline const rl_encoded *rl_fanout_pick(const rl_conn *conn, const rl_encoded *lua, rl_natives *natives)
{
	size_t k;

	if (natives == NULL || natives->commands == NULL || conn->native_release == RL_NATIVE_NONE) {
		return lua;
	}
	k = (size_t) conn->native_release - 1;
	if (!natives->tried[k]) {
		natives->tried[k] = 1;
		natives->encoded[k].bytes = NULL;
		if (natives->commands[k].argc > 0) {
			rl_fanout_encode(&natives->commands[k], &natives->encoded[k]);
		}
	}
	return natives->encoded[k].bytes != NULL ? &natives->encoded[k] : lua;
}

/* What has arrived on each ready connection since it was last used, in seen[i] (see rl_fanout_queue.c). */
void rl_fanout_probe_idle(const rl_cluster *cluster, short seen[RL_SMALL_CLUSTER]);

/* rl_conn_begin_call for member i; a connection it closed (the server closed it: Sentinel closes a
 * demoted master's clients) makes a Sentinel member ask its sentinels again. */
static inline void rl_fanout_begin_call(rl_cluster *cluster, size_t i, short seen, double now, double call_deadline)
{
	if (rl_conn_begin_call(&cluster->conns[i], &cluster->endpoints[i], seen, now, call_deadline)) {
		rl_sentinel_note_closed(&cluster->endpoints[i]);
		if (cluster->endpoints[i].shards != NULL) { /* the node closed it: a failover may have demoted it */
			cluster->endpoints[i].shards->map->state = RL_SHARDS_STALE;
		}
	}
}

/* rl_fanout_prepare beyond its common case: takes in what arrived, opens or checks out the
 * connection, queues command (behind ASKING when asking: a cluster member's ASK redirection) and
 * flushes. */
int rl_fanout_prepare_any(rl_cluster *cluster, size_t i, const rl_encoded *lua, rl_natives *natives, double now,
	double call_deadline, rl_outcome *out, int queue_behind_silent, short seen, int lua_forbidden, unsigned leading,
	int asking);

/* Opens the connection if needed and queues command. Returns 0, or -1 with *out filled.
 * queue_behind_silent: a release queues behind a silent server's SET rather than start afresh,
 * so that it follows the SET it must undo on the same stream (else it may arrive first, find
 * nothing, and leave the late SET's key to expire). seen: what rl_fanout_probe_idle() found on it.
 * Inline: its common case, a connection ready and idle since its last call (nothing to take in,
 * not overdue, or its late replies just taken in), is a few tests and a send(). */
static RL_ALWAYS_INLINE int rl_fanout_prepare(rl_cluster *cluster, size_t i, const rl_encoded *lua, rl_natives *natives,
	double now, double call_deadline, rl_outcome *out, int queue_behind_silent, short seen, int lua_forbidden, unsigned leading)
{
	rl_conn *conn = &cluster->conns[i];

	if (seen > 0 && !queue_behind_silent) { /* late replies (about 3 a drop-in cycle), taken in here */
		rl_fanout_begin_call(cluster, i, seen, now, call_deadline);
		seen = conn->state == RL_CONN_READY && rl_conn_owed(conn) == 0 && !rl_conn_has_unsent(conn)
			&& rl_reader_idle(&conn->reader) ? 0 : RL_CALL_BEGUN;
	}
	/* a server's clock sampled (rl_conn_queue_time) goes the other way: at most every
	 * RL_CLOCK_SAMPLE_MS per connection, every call on a held lock; never with a command whose
	 * replies nobody awaits (queue_behind_silent: rl_fanout_send) */
	if (seen == 0 && rl_conn_owed(conn) == 0 && !rl_conn_has_unsent(conn) && rl_reader_idle(&conn->reader)
		&& (queue_behind_silent || (now < conn->clock_due && !cluster->clock_every_call))) {
		const rl_encoded *command = rl_fanout_pick(conn, lua, natives);

		if (command->bytes != NULL && !(lua_forbidden && command == lua)) {
			conn->deadline = rl_conn_due(&cluster->endpoints[i], now, call_deadline);
			if (rl_conn_append_encoded(conn, command->bytes, command->len) != 0) {
				rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
				rl_conn_close(conn);
				return -1;
			}
			conn->expected += leading;
			return 0;
		}
	}
	return rl_fanout_prepare_any(cluster, i, lua, natives, now, call_deadline, out, queue_behind_silent, seen,
		lua_forbidden, leading, 0);
}

#endif
