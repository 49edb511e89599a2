/* One non-blocking connection to one Redis server: connect, send, receive, and the bookkeeping
 * that keeps replies paired with the commands that asked for them. hiredis connects and holds
 * what a write leaves unsent; replies are read into rl_reader. No zvals. */
#ifndef RL_CONN_H
#define RL_CONN_H

#include <stddef.h>
#include "rl_platform.h"
#include "rl_reader.h"
#include "rl_reply.h"

typedef struct rl_endpoint {
	char *host;        /* a host name or address; a path when it starts with '/' */
	int port;
	double timeout_ms; /* bounds the connect and each reply; 0 = no limit */
	char *username;    /* ACL user for AUTH, NULL for the default user */
	char *password;    /* NULL: no AUTH. Never printed anywhere. */
	int database;      /* SELECTed on connect when not 0 */
	char *pool_key;    /* which pooled connections fit: address, database, hashed credentials */
} rl_endpoint;

typedef enum {
	RL_CONN_DOWN = 0,
	RL_CONN_CONNECTING,
	RL_CONN_READY
} rl_conn_state;

typedef struct rl_conn {
	void *ctx;            /* redisContext*, NULL while down */
	rl_socket fd;         /* its socket, valid while ctx is set */
	rl_conn_state state;
	unsigned char unsent; /* hiredis' output buffer holds bytes the socket did not take yet */
	unsigned checked;     /* replies to AUTH/SELECT sent on connect: an error there fails the server */
	unsigned stale;       /* replies owed to an earlier call: read and dropped before ours */
	unsigned expected;    /* replies the current call still waits for */
	double waiting_since; /* ms: last progress while something was outstanding */
	rl_reader reader;
} rl_conn;

/* The hiredis version this was built against, "major.minor.patch". Kept here so that no Zend
 * file includes hiredis.h (its ssize_t clashes with PHP's on Windows). */
void rl_hiredis_version(char *out, size_t size);

/* Starts a non-blocking connect. Returns 0, or -1 with the reason in *out. */
int rl_conn_open(rl_conn *conn, const rl_endpoint *endpoint, double now, rl_outcome *out);
void rl_conn_close(rl_conn *conn);

/* False when the server closed an idle, ready connection since we last used it (restart,
 * CLIENT KILL, idle timeout): reusing it would fail the next call. Never blocks. */
int rl_conn_still_open(rl_conn *conn);

/* Queues AUTH and SELECT as the endpoint asks, right after rl_conn_open. Their replies are
 * checked (not dropped): an error reply fails the connection with the server's text. */
int rl_conn_append_setup(rl_conn *conn, const rl_endpoint *endpoint, double now);

/* Replies still owed on this connection, of any kind. */
static inline unsigned rl_conn_owed(const rl_conn *conn)
{
	return conn->checked + conn->stale + conn->expected;
}

/* Reads and drops the checked and stale replies still owed, waiting up to wait_ms for them. Then
 * true only when the connection is READY with nothing owed, nothing unsent, no unread bytes and
 * no error: the only state in which another caller can use it without inheriting our replies. */
int rl_conn_settle_clean(rl_conn *conn, double wait_ms);

/* Hands the hiredis context over (to the pool) and leaves conn DOWN; NULL when there is none. */
void *rl_conn_detach(rl_conn *conn);

/* Takes a context from the pool: READY, nothing owed. */
void rl_conn_attach(rl_conn *conn, void *ctx, double now);

/* Closes a detached context. */
void rl_conn_free_context(void *ctx);

/* True when a detached, idle context shows no sign of life or death: the server closed it
 * (EOF) or sent something unasked. Such a context must not be reused. */
int rl_conn_context_is_quiet(void *ctx);

/* True when a reply or the connect has been awaited longer than the endpoint allows. */
static inline int rl_conn_overdue(const rl_conn *conn, const rl_endpoint *endpoint, double now)
{
	int waiting = conn->state == RL_CONN_CONNECTING || rl_conn_owed(conn) > 0;
	return waiting && endpoint->timeout_ms > 0 && now - conn->waiting_since >= endpoint->timeout_ms;
}

/* Queues a command (sent by rl_conn_flush or when the socket turns writable). */
int rl_conn_append(rl_conn *conn, int argc, const char **argv, const size_t *argvlen, double now);

/* Leaves bytes in hiredis' output buffer, for rl_conn_flush. 0, or -1 when out of memory. */
int rl_conn_queue_unsent(rl_conn *conn, const char *bytes, size_t len);

/* Sends what an idle ready socket takes at once; hiredis' output buffer keeps the rest, for
 * rl_conn_flush (which also reports a write error). 0, or -1 when out of memory. */
static inline int rl_conn_send_or_queue(rl_conn *conn, const char *bytes, size_t len)
{
	if (conn->state == RL_CONN_READY && !conn->unsent) {
		long sent = rl_send(conn->fd, bytes, len);
		if (sent > 0) {
			bytes += sent;
			len -= (size_t) sent;
		}
	}
	return len > 0 ? rl_conn_queue_unsent(conn, bytes, len) : 0;
}

/* Queues a command already encoded (rl_resp.h), so that one encoding serves every server.
 * Inline, as this runs once per server and call. */
static inline int rl_conn_append_encoded(rl_conn *conn, const char *bytes, size_t len, double now)
{
	if (conn->state == RL_CONN_READY && conn->stale + conn->expected == 0) {
		conn->waiting_since = now;
	}
	if (rl_conn_send_or_queue(conn, bytes, len) != 0) {
		return -1;
	}
	conn->expected++;
	return 0;
}

/* Writes what it can of the unsent bytes without blocking. 0, or -1 with the reason in *out. */
int rl_conn_write_unsent(rl_conn *conn, rl_outcome *out);

/* rl_conn_write_unsent when there is something to write (a connecting socket writes later). */
static inline int rl_conn_flush(rl_conn *conn, rl_outcome *out)
{
	return conn->unsent && conn->state == RL_CONN_READY ? rl_conn_write_unsent(conn, out) : 0;
}

static inline short rl_conn_poll_events(const rl_conn *conn)
{
	return conn->state == RL_CONN_CONNECTING || conn->unsent ? POLLOUT | POLLIN : POLLIN;
}
static inline rl_socket rl_conn_fd(const rl_conn *conn)
{
	return conn->fd;
}

/* After rl_recv() returned result <= 0: 0 when that only meant "nothing yet", else -1 with the
 * reason in *out (when not NULL). */
int rl_conn_read_failed(rl_conn *conn, long result, rl_outcome *out);

/* One recv() into the reader: 0 (also when nothing was there), or -1 at end of file or on a
 * socket error, reason in *out when not NULL. Callers parse before reading again: a full
 * buffer then holds only the start of a line, which rl_reader drops. */
static inline int rl_conn_read(rl_conn *conn, rl_outcome *out)
{
	size_t room;
	char *space = rl_reader_space(&conn->reader, &room);
	long got = rl_recv(conn->fd, space, room);

	if (got > 0) {
		rl_reader_fed(&conn->reader, (size_t) got);
		return 0;
	}
	return rl_conn_read_failed(conn, got, out);
}

/* rl_conn_on_events beyond reading a ready connection: connects and writes. */
int rl_conn_on_events_any(rl_conn *conn, short revents, rl_outcome *out);

/* Handles poll() results: finishes a connect, writes, reads. Returns 0, or -1 with the reason in *out. */
static inline int rl_conn_on_events(rl_conn *conn, short revents, rl_outcome *out)
{
	if (conn->state == RL_CONN_READY && !(revents & POLLOUT)) {
		return revents & (POLLIN | POLLERR | POLLHUP) ? rl_conn_read(conn, out) : 0;
	}
	return rl_conn_on_events_any(conn, revents, out);
}

/* What rl_conn_next_reply does beyond its common case; got is rl_reader_next's result. */
int rl_conn_sort_reply(rl_conn *conn, int got, rl_reply *reply, double now, rl_outcome *out);

/* Next reply for the current call, after dropping stale ones: 1 with *reply (valid until the
 * connection reads again), 0 when none has arrived yet, -1 on a protocol error (reason in *out).
 * Inline: it runs once per server and call, and twice when the reply has come. */
static inline int rl_conn_next_reply(rl_conn *conn, rl_reply *reply, double now, rl_outcome *out)
{
	int got = rl_reader_next(&conn->reader, reply);

	if (got == 0) {
		return 0;
	}
	if (got == 1 && (conn->checked | conn->stale) == 0 && conn->expected > 0) {
		conn->expected--;
		conn->waiting_since = now;
		return 1;
	}
	return rl_conn_sort_reply(conn, got, reply, now, out);
}

/* Drops the stale replies already read, when no current call waits. Returns 0, or -1 when a
 * reply nobody owes arrived (the connection is out of step). */
int rl_conn_drop_stale(rl_conn *conn, double now);

/* The call gave up waiting: what it still expected becomes stale for the next call. */
void rl_conn_abandon(rl_conn *conn);

#endif
