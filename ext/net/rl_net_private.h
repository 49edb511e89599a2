/* What the files of net/ share and no other folder sees: the functions of net/'s public headers that
 * only net/ calls, each group under the file that defines it. scripts/check-layers.sh refuses a
 * *_private.h of net/ included from another folder. (rl_conn_private.h: the connect states
 * rl_conn.c and rl_connect.c share; rl_uri_private.h, rl_addresses_private.h and
 * rl_fanout_queue_private.h: what their own files share.) */
#ifndef RL_NET_PRIVATE_H
#define RL_NET_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include "net/rl_platform.h"
#include "net/rl_tls.h"
#include "net/rl_conn.h"
#include "net/rl_pool.h"
#include "net/rl_cluster.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"
#include "net/rl_resolve.h"
#include "net/rl_uri.h"
#include "protocol/rl_request.h"

/* --- rl_tls.c ----------------------------------------------------------------------------------- */

/* A deep copy (the context is not shared: each copy makes its own). NULL when out of memory. */
rl_tls_config *rl_tls_config_copy(const rl_tls_config *from);

/* The settings as bytes, for the pool key: connections fit only the same settings. Returns the
 * length written (at most size; call with size 0 to learn it). Includes the passphrase: the
 * caller hashes it with a secret and wipes the buffer. */
size_t rl_tls_config_bytes(const rl_tls_config *config, unsigned char *out, size_t size);

/* The TCP connection is up: start the handshake (conn goes HANDSHAKING, or READY at once).
 * 0, or -1 with the reason in *out. */
int rl_tls_start(struct rl_conn *conn, const struct rl_endpoint *endpoint, struct rl_outcome *out);

/* One more step of the handshake: 0 (READY, or still HANDSHAKING with conn->tls_want set), or -1
 * with the reason in *out ("tls: certificate verify failed: certificate has expired", ...). */
int rl_tls_handshake(struct rl_conn *conn, struct rl_outcome *out);

/* SSL_write: bytes taken (> 0), 0 when it must wait (poll conn->tls_want), -1 on an error with
 * the text in conn->connect_error. */
long rl_tls_send(struct rl_conn *conn, const char *bytes, size_t len);

/* Decrypted bytes OpenSSL holds that poll() cannot see. */
int rl_tls_buffered(const struct rl_conn *conn);

/* Frees the SSL object (no close_notify: after a fork the socket is the parent's too). */
void rl_tls_free(struct rl_conn *conn);

/* --- rl_conn.c, rl_connect.c -------------------------------------------------------------------- */

/* Copies a seed's address and credentials into *one (a Sentinel's, a cluster seed's): 0, or -1 when out
 * of memory (what was copied stays in *one for its owner to free). */
int rl_endpoint_set(rl_endpoint *one, const char *host, int port, double timeout_ms, const char *username,
	const char *password, const rl_tls_config *tls);

/* Which master a Sentinel member's connection reached: a hash of the address the sentinels named
 * (never 0). Two connections to one address have the same mark in any process. */
uint32_t rl_master_mark(const char *host, int port);

/* Decides, at the start of a call, whether the connection can carry it: takes in what arrived
 * since its last use (late replies are dropped; revents: what a poll just saw on it, or
 * RL_NOT_PROBED to look now) and closes it when the server closed it, the stream is out of step,
 * or replies owed to an earlier call are overdue (a silent server: start afresh rather than
 * queue behind it). Then sets the deadline of this call on this server (rl_conn_due). Returns 1 when
 * it closed the connection. */
int rl_conn_begin_call(rl_conn *conn, const rl_endpoint *endpoint, short revents, double now, double call_deadline);

/* Whether another caller (the pool's next user) could take the connection over: READY, no
 * error. Replies still owed are theirs to drop, until the deadline. */
int rl_conn_reusable(const rl_conn *conn);

/* Queues TIME (not sent yet: the command queued next goes in the same write) and records when, so
 * that its reply, read before the command's, samples the server's clock (rl_clock_jump.h). 0, or
 * -1 when out of memory. */
int rl_conn_queue_time(rl_conn *conn, double now);

/* Appends bytes to the output buffer. 0, or -1 when out of memory. */
int rl_conn_queue_unsent(rl_conn *conn, const char *bytes, size_t len);

/* send() on the socket, or SSL_write(): bytes taken, 0 or -1 with rl_socket_would_block() when it
 * must wait (TLS: 0), -1 on an error. */
static inline long rl_conn_send(rl_conn *conn, const char *bytes, size_t len)
{
	return conn->tls != NULL ? rl_tls_send(conn, bytes, len) : rl_send(conn->fd, bytes, len);
}

/* Sends what an idle ready socket takes at once; the output buffer keeps the rest, for
 * rl_conn_flush (which also reports a write error). 0, or -1 when out of memory. */
static inline int rl_conn_send_or_queue(rl_conn *conn, const char *bytes, size_t len)
{
	if (conn->state == RL_CONN_READY && !rl_conn_has_unsent(conn)) {
		long sent = rl_conn_send(conn, bytes, len);
		if (sent > 0) {
			bytes += sent;
			len -= (size_t) sent;
		}
	}
	return len > 0 ? rl_conn_queue_unsent(conn, bytes, len) : 0;
}

/* Queues a command already encoded (rl_resp.h), so that one encoding serves every server. */
static inline int rl_conn_append_encoded(rl_conn *conn, const char *bytes, size_t len)
{
	if (rl_conn_send_or_queue(conn, bytes, len) != 0) {
		return -1;
	}
	conn->expected++;
	return 0;
}

/* Bytes a TLS connection has decrypted but not handed over: poll() cannot see them, so the
 * caller treats the connection as readable. */
static inline int rl_conn_buffered(const rl_conn *conn)
{
	return conn->tls != NULL && rl_tls_buffered(conn);
}

/* One question asked of several nodes at once, as a Sentinel member asks its sentinels and a
 * cluster map its nodes: one due time for all, not the sum of their timeouts. The caller's arrays,
 * count entries each (at most RL_ASK_ROUND_MAX); asking[i]: node i still waited for. In rl_conn_poll.c. */
#define RL_ASK_ROUND_MAX 16

typedef struct rl_ask_round {
	const rl_endpoint *asked;
	rl_conn *conns;
	rl_outcome *said;
	int *asking;
	size_t count, pending;
} rl_ask_round;

/* Connects each node and queues the question (after the connection's setup); a node that cannot
 * be asked gets its reason in said[i]. */
void rl_ask_round_open(rl_ask_round *r, int argc, const char **argv, const size_t *argvlen);
void rl_ask_round_done(rl_ask_round *r, size_t i);

/* A round's due time: now plus the longest timeout of the count endpoints (default_ms for one
 * without), or call_deadline (absolute; 0: none) when sooner, then *cut set. */
double rl_ask_round_due(const rl_endpoint *endpoints, size_t count, double default_ms, double now,
	double call_deadline, int *cut);

/* Waits for the answers until due: take(ctx, i, reply) on each, the round over when it returns 0.
 * 0 then, or -1 with each node's reason in said (timeouts, a failed or cancelled poll). */
int rl_ask_round_run(rl_ask_round *r, double due, int (*take)(void *ctx, size_t i, const rl_reply *reply), void *ctx);

/* --- rl_pool.c ---------------------------------------------------------------------------------- */

/* "host|port|db|<hash of user, password and TLS settings>|<secret tag>": equal keys mean interchangeable
 * connections. malloc'd; NULL when out of memory. The credentials are hashed with the pool's
 * secret, which a forked child draws afresh: a key made before the fork (tagged with the old
 * secret) then matches nothing, and a connection checked in under it is closed, not pooled. */
char *rl_pool_key(rl_pool *pool, const rl_endpoint *endpoint);

/* Moves an idle connection for the endpoint's pool_key into conn (which must be DOWN), after
 * rl_conn_begin_call() found it usable for a call starting now (call_deadline: as there). Returns 1 when there was one, 0
 * when the caller must connect itself. */
int rl_pool_checkout(rl_pool *pool, const rl_endpoint *endpoint, rl_conn *conn, double now, double call_deadline);

/* Takes conn over without waiting: pooled when READY and not broken, closed otherwise. conn is
 * DOWN afterwards. */
void rl_pool_checkin(rl_pool *pool, const char *key, rl_conn *conn);

/* --- rl_cluster.c ------------------------------------------------------------------------------- */

/* The eviction guard (docs/design/overview.md#the-eviction-guard), called by the fan-out on every
 * vote of server i whose connection has policy_flags: keeps a policy the connection learnt (or
 * brought from the pool) for the object and telemetry, and with refuse_evicting turns the vote of a
 * server whose policy can evict lock keys into an error before it is counted. */
void rl_cluster_eviction_guard(rl_cluster *cluster, size_t i, rl_outcome *out);

/* Keeps a policy server i's connection learnt since last asked, for the object and telemetry: on
 * its vote (the guard), and at the end of every call for a server whose connect-time answers came
 * without a vote of this call (late, behind the quorum). */
void rl_cluster_note_policy(rl_cluster *cluster, size_t i);

/* --- rl_sentinel.c ------------------------------------------------------------------------------ */

/* NULL when out of memory. */
rl_sentinel *rl_sentinel_copy(const rl_sentinel *from);

/* For a call about to open a connection to the member (docs/design/sentinel.md): asks the sentinels
 * unless the master is known. 0 at once for a server of fixed address. A rollback sent without waiting
 * (sending) never asks, it fails: it would connect to whatever just refused the write, and the call
 * after it would find that connection open. 0, or -1 with *out. */
int rl_sentinel_before_open(rl_endpoint *endpoint, int sending, double call_deadline, rl_outcome *out);

/* After a call: an outcome that says the master may have moved (no connection, a broken one, a
 * timeout, READONLY, a role that is not master) makes the member ask its sentinels before its next
 * connection; READONLY closes conn (it is a replica's). */
void rl_sentinel_after_call(rl_endpoint *endpoint, rl_conn *conn, const rl_outcome *out);

/* --- rl_shards.c -------------------------------------------------------------------------------- */

/* NULL when out of memory. */
rl_shards *rl_shards_copy(const rl_shards *from);

/* The slot of every key a request names (its command, its batch's commands; for EVAL the declared
 * keys): RL_SLOT_NONE without keys, RL_SLOT_CROSS when they are on different slots. */
int rl_request_slot(const rl_request *request);
int rl_command_slot(const rl_command *command);

/* Where a command's keys are: argv[*first..*last] (EVAL: the declared ones); 0 when it has none. */
int rl_command_keys(const rl_command *command, int *first, int *last);

/* fromCluster() members of one object (both pinned, the same seeds): shards drops its map and places by
 * with's from now on. 1 when shared, 0 when they are not such members. Not across threads: each
 * thread's copy of the servers shares among its own. */
int rl_shards_share(rl_shards *shards, rl_shards *with);

/* Before member endpoint's call on slot (RL_SLOT_*: the member's current node): learns the map
 * when it is not current (not when sending: a rollback sent without waiting never asks), points
 * the endpoint at the slot's master and moves conn out of the way (checked in to pool, or closed)
 * when it leads elsewhere. 0, or -1 with *out ("cluster: ..."). */
int rl_shards_route(rl_endpoint *endpoint, rl_conn *conn, struct rl_pool *pool, int slot, int sending,
	double call_deadline, rl_outcome *out);

/* Whether message is a redirection a resend may cure: MOVED, ASK, or EXECABORT (a transaction
 * whose command was MOVED when queued: the map is asked again). */
int rl_shards_redirection(const char *message);

/* A MOVED or ASK error reply (message): the slot map learns a MOVED (and is asked again before the
 * next call), and the endpoint is pointed at the node named, conn moved out of the way; an
 * EXECABORT: the map is asked again now (within call_deadline) for slot_of_call. 1 with
 * *asking (1 for ASK: the command goes behind ASKING), 0 when message is neither or names no
 * usable address. */
int rl_shards_redirect(rl_endpoint *endpoint, rl_conn *conn, struct rl_pool *pool, const char *message, int slot_of_call,
	double call_deadline, int *asking);

/* After a call: an outcome that says the map may have changed (no connection, a broken one, a
 * timeout, READONLY, a ROLE that is not master, CLUSTERDOWN, TRYAGAIN) makes the member ask for
 * the map before its next call; READONLY and a replica's ROLE close conn. */
void rl_shards_after_call(rl_endpoint *endpoint, rl_conn *conn, const rl_outcome *out);

/* The mark of the master a cluster member's connection reaches (rl_master_mark of the endpoint's
 * address), for a fromCluster member mixed with its hash tag: a new placement on the same master is a
 * change of master too (a restart for that member, healed by renewal: docs/design/cluster.md). */
uint32_t rl_shards_mark(const rl_endpoint *endpoint);

/* --- rl_resolve.c, rl_addresses.c --------------------------------------------------------------- */

/* The addresses, in the order to try them: getaddrinfo()'s order, with IPv6 and IPv4 taking
 * turns after the first (RFC 8305, section 4), duplicates dropped. Never empty. */
size_t rl_addresses_count(const rl_addresses *addresses);
const struct sockaddr *rl_addresses_get(const rl_addresses *addresses, size_t i, socklen_t *len);
void rl_addresses_release(rl_addresses *addresses);

/* Resolves host:port (TCP). now_ms: the caller's rl_now_ms(), for the cache's expiry.
 *  RL_RESOLVE_DONE (1):    *out holds the addresses; release them with rl_addresses_release.
 *  RL_RESOLVE_PENDING (0): *pending holds a lookup: poll rl_lookup_fd() for POLLIN, then call
 *                          rl_lookup_finish; release it with rl_lookup_release in any case.
 *  RL_RESOLVE_FAILED (-1): err holds a short reason, e.g. "resolve: Name or service not known"
 *                          (callers report it as "connect: resolve: ...").
 * Never blocks (except on Windows, see above). */
int rl_resolve_start(const char *host, int port, double now_ms, rl_addresses **out, rl_lookup **pending,
	char *err, size_t errlen);

/* The descriptor to poll for POLLIN; readable once the lookup is done, and it stays readable.
 * Ask again before every poll(): it changes when a forked child restarts its parent's lookup.
 * -1: nothing to wait for, call rl_lookup_finish now. */
int rl_lookup_fd(rl_lookup *lookup);

/* After rl_lookup_fd turned readable (or at any time): the codes of rl_resolve_start, where
 * RL_RESOLVE_PENDING means "not done yet". May be called again; each DONE hands out a reference. */
int rl_lookup_finish(rl_lookup *lookup, rl_addresses **out, char *err, size_t errlen);

/* Drops the caller's reference. A caller that gives up early releases it too: the lookup runs
 * on and fills the cache; its memory goes when the last reference (the thread's) does. */
void rl_lookup_release(rl_lookup *lookup);

/* --- rl_uri.c ----------------------------------------------------------------------------------- */

/* Zeroes then frees a secret copied with malloc. */
void rl_secret_free(char *secret);

#endif
