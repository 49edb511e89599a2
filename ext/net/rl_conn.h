/* One non-blocking connection to one Redis server: resolve, connect, send, receive, and the
 * bookkeeping that pairs replies with the commands that asked for them. Our own sockets and
 * output buffer (wiped before it is freed: it carries AUTH); replies are read into rl_reader.
 * No zvals.
 *
 * The connection's life is one state machine:
 *
 *     DOWN --rl_conn_open--> RESOLVING --lookup done--> CONNECTING --connected--> [HANDSHAKING] --> READY
 *       ^                       |  (a name: the lookup       |  (refused: the next     |  (TLS only:       |
 *       |                       |   runs on a thread)        |   address is tried)     |   rl_tls.c)       |
 *       +--------- rl_conn_close (error, end of file, overdue, fork) ----------------------------------------+
 *
 * Literal addresses and unix sockets skip RESOLVING; plain TCP skips HANDSHAKING. Commands may be
 * queued in every state but DOWN: they leave once the socket is READY, in order, on that one stream.
 *
 * Whether a call may use the connection as it is, or must start afresh, is decided in one place,
 * rl_conn_begin_call(). Replies are owed in three kinds, read in this order: `checked` (AUTH and
 * SELECT sent on connect: an error fails the server with its own text), `stale` (owed to an
 * earlier call that stopped waiting: read and dropped), `expected` (the current call's). */
#ifndef RL_CONN_H
#define RL_CONN_H

#include <math.h>
#include <stddef.h>
#include "net/rl_platform.h"
#include "protocol/rl_hiredis_reader.h"
#include "protocol/rl_reply.h"
#include "protocol/rl_clock_jump.h"
#include "net/rl_tls.h"

#ifdef _WIN32
# define RL_INVALID_SOCKET INVALID_SOCKET
# define rl_closesocket closesocket
#else
# define RL_INVALID_SOCKET (-1)
# define rl_closesocket close
#endif

typedef struct rl_endpoint {
	char *host;        /* a host name or address; a path when it starts with '/' */
	int port;
	double timeout_ms; /* bounds each call on this server, connect included; 0 = no limit */
	char *username;    /* ACL user for AUTH, NULL for the default user */
	char *password;    /* NULL: no AUTH. Never printed anywhere. */
	int database;      /* SELECTed on connect when not 0 */
	char *pool_key;    /* which pooled connections fit: address, database, hashed credentials and TLS settings */
	rl_tls_config *tls; /* NULL: plain TCP */
	int test_double;    /* a memory:// server: its keys expire on the test clock */
	struct rl_sentinel *sentinel; /* a Sentinel-managed member (rl_sentinel.h): host and port are its
	                               * master's as last learnt; NULL for a fixed address */
	struct rl_shards *shards;     /* a Redis Cluster member (rl_shards.h): host and port are the node
	                               * its last call went to; NULL otherwise */
} rl_endpoint;

/* A Sentinel-managed member's connection whose ROLE is not master: it never votes. */
#define RL_CONN_NOT_MASTER "ROLE: this server is not the master (the sentinels' answer is out of date)"

typedef enum {
	RL_CONN_DOWN = 0,
	RL_CONN_RESOLVING,
	RL_CONN_CONNECTING,
	RL_CONN_HANDSHAKING, /* TLS: the socket is connected, the handshake runs */
	RL_CONN_READY
} rl_conn_state;

struct rl_lookup;
struct rl_addresses;

typedef struct rl_conn {
	rl_socket fd;         /* the socket; the lookup's fd while RESOLVING */
	rl_conn_state state;
	unsigned char peer_closed; /* end of file seen: what arrived before it is still parsed */
	unsigned char out_secret;  /* the output buffer has held credentials */
	unsigned checked;     /* replies to AUTH/SELECT sent on connect */
	unsigned probes;      /* replies to the native-release probes sent on connect (after checked) */
	unsigned char native_release; /* what the server said it has: RL_NATIVE_* */
	unsigned char role_checked;   /* the last of the checked replies is ROLE's (Sentinel members) */
	unsigned char eviction_policy; /* its maxmemory-policy (rl_eviction_policy), learnt from the probes */
	unsigned char policy_flags;    /* RL_POLICY_FLAG_*: what the fan-out's eviction guard must look at */
	uint32_t master_mark; /* Sentinel and cluster members: the master this connection reached (rl_master_mark); 0: fixed */
	unsigned char redirects; /* cluster members: MOVED and ASK followed in the current call */
	/* cluster members: a MOVED among the replies read after their call had settled (a member answering
	 * last, after the quorum): its slot moved, the map is asked again before the next call (rl_shards_route) */
	unsigned char moved_late;
	/* cluster members: the first MOVED or ASK among a transaction's queued replies (MULTI's commands are
	 * redirected when queued, and EXEC then answers only EXECABORT): what that EXECABORT means, for
	 * follow_redirect (rl_fanout.c); cleared when a call begins on the connection */
	char queued_redirect[RL_MESSAGE_MAX];
	unsigned stale;       /* replies owed to an earlier call: read and dropped before ours */
	unsigned expected;    /* replies the current call still waits for */
	unsigned time_owed;   /* TIME replies owed (rl_conn_queue_time): read after the stale ones, before ours */
	double time_sent;     /* rl_now_ms() when the TIME owed was queued */
	double clock_due;     /* rl_now_ms() from which lock() samples the server's clock again */
	rl_clock_ref clock;   /* the reference TIME sample of this stream (rl_clock_jump.h) */
	double clock_jump;    /* the jump the last sample showed (RL_POLICY_FLAG_CLOCK until the cluster noted it) */
	double clock_jump_spread; /* how far the true jump may lie from clock_jump (rl_clock_sample) */
	double clock_jump_since; /* our clock after which it happened, and when it was seen */
	double clock_jump_seen;
	uint32_t clock_jumps_known; /* the server's jump count (rl_server_clock.jumps) once this connection noted or matched
	                             * its latest jump: a jump it sees later is a new one, never that one again */
	unsigned time_stale_pos; /* a TIME whose call gave up on it: its place among the stale replies (1: next) */
	double time_stale_sent;  /* and when it was queued */
	unsigned opens;       /* rl_conn_open() calls on it: the fan-out sees a call open it */
	uint64_t stream;      /* this stream's number, unique in the process (rl_conn_open): replies come in the
	                       * order of what was sent on one stream, never across two (rl_lock_io.stream) */
	unsigned char was_ready;  /* this stream reached READY (since its rl_conn_open) */
	unsigned char reopened;   /* opened over a stream that had been READY: the server restarted, killed
	                           * the connection or broke it; keys it held may be gone (self-healing) */
	double deadline;      /* rl_now_ms() by which the current call's reply is overdue; HUGE_VAL: no limit */
	double stale_deadline; /* by which the checked and stale replies were due: the earliest of the
	                        * calls that left them (a command queued behind does not move it) */
	char *out;            /* bytes not sent yet: out[out_start, out_end) */
	size_t out_start, out_end, out_cap;
	struct rl_lookup *lookup;       /* RESOLVING: the host name lookup */
	struct rl_addresses *addresses; /* CONNECTING: the addresses to try, in order */
	size_t next_address;
	char connect_error[96];         /* why the last address failed, for when all have */
	/* An error reply dropped as stale in this call (a server at maxclients answers the first
	 * command it gets, and closes): reported if the connection then ends. */
	char dropped_error[RL_MESSAGE_MAX];
	void *tls;            /* the SSL object of a TLS connection, else NULL */
	short tls_want;       /* the poll events the TLS layer waits for (handshake, or a write) */
	rl_reader reader;
} rl_conn;

/* The hiredis version this was built against, "major.minor.patch". */
void rl_hiredis_version(char *out, size_t size);

/* A DOWN connection, with no socket. */
void rl_conn_init(rl_conn *conn);

/* Starts resolving or connecting, without blocking. Returns 0, or -1 with the reason in *out. */
int rl_conn_open(rl_conn *conn, const rl_endpoint *endpoint, double now, rl_outcome *out);

/* Closes the socket (bytes already written are still delivered by the kernel: safe, since every
 * command carries a token of its own) and wipes the output buffer. conn is DOWN afterwards. */
void rl_conn_close(rl_conn *conn);

/* In a child forked while another thread of the parent used conn: closes the child's copy of the
 * socket and wipes the output buffer (it may hold AUTH) without freeing anything whose
 * bookkeeping may be torn; conn is DOWN and empty afterwards. */
void rl_conn_forget_after_fork(rl_conn *conn);

/* Wipes and frees the output buffer too: conn is not used again. */
void rl_conn_release(rl_conn *conn);

#define RL_NOT_PROBED ((short) -1)
#define RL_CALL_BEGUN ((short) -2) /* a caller's revents once it ran rl_conn_begin_call itself */

/* rl_conn.policy_flags: the policy was learnt (or the connection came from the pool with it) since
 * the fan-out last looked; it can evict lock keys. Zero for most connections: one test per vote. */
#define RL_POLICY_FLAG_NEWS 1
#define RL_POLICY_FLAG_EVICTS 2
/* A Sentinel member's connection: its votes pass the master-changed rule (rl_cluster_expect_masters). */
#define RL_POLICY_FLAG_MASTER 4
/* The server's clock jumped (clock_jump): noted for the object by the guard or at the call's end. */
#define RL_POLICY_FLAG_CLOCK 8

/* A release without Lua, where the server has it: Redis >= 8.4 DELEX key IFEQ token, Valkey >= 9
 * DELIFEQ key token. Learnt from probes pipelined on connect (rl_conn_append_probes): no round
 * trip of their own; until their replies came, and on other servers, releases use the script. */
#define RL_NATIVE_NONE 0
#define RL_NATIVE_DELEX 1
#define RL_NATIVE_DELIFEQ 2

/* When a call starting now is overdue on this server: its timeout from now, or, for a server
 * without one (timeout 0), the call's own deadline (0: none), so that even then a silent server's
 * connection is replaced once a call gave up on it. */
static inline double rl_conn_due(const rl_endpoint *endpoint, double now, double call_deadline)
{
	if (endpoint->timeout_ms > 0) {
		return now + endpoint->timeout_ms;
	}
	return call_deadline > 0 ? call_deadline : HUGE_VAL;
}

/* Replies still owed on this connection, of any kind. */
static inline unsigned rl_conn_owed(const rl_conn *conn)
{
	return conn->checked + conn->probes + conn->stale + conn->time_owed + conn->expected;
}

static inline int rl_conn_has_unsent(const rl_conn *conn)
{
	return conn->out_end > conn->out_start;
}

/* Queues AUTH and SELECT as the endpoint asks, right after rl_conn_open, and ROLE for a Sentinel
 * member. Their replies are checked (not dropped): an error reply fails the connection with the
 * server's text, and so does a ROLE that is not master (RL_CONN_NOT_MASTER; ROLE refused with
 * NOPERM passes: READONLY on a write still tells a replica). */
int rl_conn_append_setup(rl_conn *conn, const rl_endpoint *endpoint);

/* Queues the probes, right after rl_conn_append_setup: DELEX and DELIFEQ (on a key nobody uses,
 * compared with "-": in practice they delete nothing; an integer reply says the server has the
 * command, an error (unknown command, NOPERM, READONLY) that it cannot be used), then CONFIG GET
 * maxmemory-policy and INFO memory (the fallback where CONFIG is renamed or refused): the
 * server's eviction policy (docs/guide/eviction.md). Pipelined: no round trip of their own. */
#define RL_CONN_PROBES 4
#define RL_CONN_NATIVE_PROBES 2 /* the first two */
int rl_conn_append_probes(rl_conn *conn);

/* Whether the native-release probes' replies are still owed. */
static inline int rl_conn_natives_pending(const rl_conn *conn)
{
	return conn->probes > RL_CONN_PROBES - RL_CONN_NATIVE_PROBES;
}

/* Queues a command, encoded here. Counts its reply as expected. 0, or -1 when out of memory. */
int rl_conn_append(rl_conn *conn, int argc, const char **argv, const size_t *argvlen);

/* Writes what it can of the unsent bytes without blocking. 0, or -1 with the reason in *out. */
int rl_conn_write_unsent(rl_conn *conn, rl_outcome *out);

/* rl_conn_write_unsent when there is something to write and the socket is connected. */
static inline int rl_conn_flush(rl_conn *conn, rl_outcome *out)
{
	return rl_conn_has_unsent(conn) && conn->state == RL_CONN_READY ? rl_conn_write_unsent(conn, out) : 0;
}

static inline short rl_conn_poll_events(const rl_conn *conn)
{
	if (conn->state == RL_CONN_READY) { /* the common case first: a reply awaited */
		return rl_conn_has_unsent(conn) ? POLLOUT | POLLIN : POLLIN;
	}
	if (conn->state == RL_CONN_RESOLVING) {
		return POLLIN;
	}
	if (conn->state == RL_CONN_HANDSHAKING) {
		return conn->tls_want ? conn->tls_want : POLLIN | POLLOUT;
	}
	return conn->state == RL_CONN_CONNECTING || rl_conn_has_unsent(conn) ? POLLOUT | POLLIN : POLLIN;
}

static inline rl_socket rl_conn_fd(const rl_conn *conn)
{
	return conn->fd;
}

/* After rl_recv() returned result <= 0: 0 when that only meant "nothing yet" or the end of
 * file (peer_closed is set: what arrived before it is parsed first), else -1 with the reason in
 * *out (when not NULL). */
int rl_conn_read_failed(rl_conn *conn, long result, rl_outcome *out);

/* One recv() into the reader: 0 (also when nothing was there), or -1 on a socket error. Callers
 * parse before reading again. */
static inline int rl_conn_read(rl_conn *conn, rl_outcome *out)
{
	size_t room;
	char *space;
	long got;

	if (conn->tls != NULL) {
		return rl_tls_read(conn, out);
	}
	if (conn->peer_closed) {
		return 0;
	}
	space = rl_reader_space(&conn->reader, &room);
	got = rl_recv(conn->fd, space, room);
	if (got > 0) {
		rl_reader_fed(&conn->reader, (size_t) got);
		return 0;
	}
	return rl_conn_read_failed(conn, got, out);
}

/* poll() over connections conns[owner[k]] (fds[k]), until wait_until (HUGE_VAL: no limit; the
 * timeout is clamped to what poll() takes). TLS connections holding decrypted bytes, which poll()
 * cannot see, are reported readable at once. Returns poll()'s count, or -1. With nothing to poll
 * it sleeps until wait_until. In rl_conn_poll.c. */
int rl_conn_poll(rl_pollfd *fds, const size_t *owner, size_t used, const rl_conn *conns, double wait_until,
	double now);
int rl_conn_poll_timeout(double wait_until, double now);

/* rl_conn_on_events beyond reading a ready connection: lookups, connects and writes. */
int rl_conn_on_events_any(rl_conn *conn, const rl_endpoint *endpoint, short revents, rl_outcome *out);

/* Handles poll() results: finishes a lookup or a connect, writes, reads. Returns 0, or -1 with
 * the reason in *out. */
static inline int rl_conn_on_events(rl_conn *conn, const rl_endpoint *endpoint, short revents, rl_outcome *out)
{
	if (conn->state == RL_CONN_READY && !(revents & (POLLOUT | POLLNVAL))) {
		return revents & (POLLIN | POLLERR | POLLHUP) ? rl_conn_read(conn, out) : 0;
	}
	return rl_conn_on_events_any(conn, endpoint, revents, out);
}

/* What rl_conn_next_reply does beyond its common case; got is rl_reader_next's result. */
int rl_conn_sort_reply(rl_conn *conn, int got, rl_reply *reply, rl_outcome *out);

/* Next reply for the current call, after dropping checked and stale ones: 1 with *reply (valid
 * until the connection reads again), 0 when none has arrived yet, -1 on a protocol error, a
 * failed AUTH/SELECT, or the server's end of file with a reply still owed (reason in *out). */
static inline int rl_conn_next_reply(rl_conn *conn, rl_reply *reply, rl_outcome *out)
{
	int got = rl_reader_next(&conn->reader, reply);

	if (got == 1 && (conn->checked | conn->probes | conn->stale | conn->time_owed) == 0 && conn->expected > 0) {
		conn->expected--;
		return 1;
	}
	if (got == 0 && !conn->peer_closed) {
		return 0;
	}
	return rl_conn_sort_reply(conn, got, reply, out);
}

/* Drops the stale replies already read, when no current call waits. Returns 0, or -1 when the
 * connection must be closed (a reply nobody owes, or the server's end of file). Inline: a reply
 * that came after its call's quorum was decided (about 3 per drop-in cycle) is dropped here at
 * the start of the next call; its common case, a plain stale reply, is counted off in the loop,
 * and everything else goes through rl_conn_sort_reply as before. */
static inline int rl_conn_drop_stale(rl_conn *conn)
{
	rl_outcome ignored;
	rl_reply reply;
	int got;

	while ((got = rl_reader_next(&conn->reader, &reply)) == 1 && conn->stale > 0 && (conn->checked | conn->probes) == 0
		&& reply.type != RL_REPLY_ERROR && conn->time_stale_pos == 0) {
		if (--conn->stale == 0) {
			conn->stale_deadline = HUGE_VAL; /* the last one owed from before has come */
		}
	}
	if (got == 0 && !conn->peer_closed) {
		return 0;
	}
	/* Only stale replies were owed, so a reply that gets through is out of step. */
	if (rl_conn_sort_reply(conn, got, &reply, &ignored) != 0) {
		return -1;
	}
	return conn->peer_closed ? -1 : 0;
}

/* The call gave up waiting: what it still expected becomes stale for the next call, due by the
 * call's deadline. */
static inline void rl_conn_abandon(rl_conn *conn)
{
	if (conn->expected > 0 && conn->deadline < conn->stale_deadline) {
		conn->stale_deadline = conn->deadline;
	}
	if (conn->time_owed > 0 && conn->time_stale_pos == 0) {
		conn->time_stale_pos = conn->stale + 1; /* still sampled when read (a slow server's most of all) */
		conn->time_stale_sent = conn->time_sent;
	}
	conn->stale += conn->time_owed + conn->expected;
	conn->time_owed = 0;
	conn->expected = 0;
}

#endif
