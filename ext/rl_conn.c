/* One non-blocking hiredis connection. See rl_conn.h.
 * Uses only hiredis API common to 0.14 and 1.x. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#ifndef _WIN32
# include <sys/socket.h>
#endif
#include <hiredis/hiredis.h>

#include "rl_conn.h"
#include "rl_resp.h"

void rl_hiredis_version(char *out, size_t size)
{
	snprintf(out, size, "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
}

/* Nothing owed, nothing unsent, nothing buffered: the state of a fresh or handed-over stream. */
static void reset_stream(rl_conn *conn, double now)
{
	conn->checked = 0;
	conn->stale = 0;
	conn->unsent = 0;
	conn->expected = 0;
	conn->waiting_since = now;
	rl_reader_init(&conn->reader);
}

int rl_conn_open(rl_conn *conn, const rl_endpoint *endpoint, double now, rl_outcome *out)
{
	redisContext *ctx;

	if (endpoint->host[0] == '/') {
		ctx = redisConnectUnixNonBlock(endpoint->host);
	} else {
		ctx = redisConnectNonBlock(endpoint->host, endpoint->port);
	}
	reset_stream(conn, now);
	if (ctx == NULL) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "connect: out of memory");
		conn->state = RL_CONN_DOWN;
		conn->ctx = NULL;
		return -1;
	}
	if (ctx->err) {
		char message[RL_MESSAGE_MAX];
		snprintf(message, sizeof(message), "connect: %s", ctx->errstr);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		redisFree(ctx);
		conn->state = RL_CONN_DOWN;
		conn->ctx = NULL;
		return -1;
	}
	conn->ctx = ctx;
	conn->fd = ctx->fd;
	conn->state = RL_CONN_CONNECTING;
	rl_reader_init(&conn->reader);
	return 0;
}

void rl_conn_close(rl_conn *conn)
{
	if (conn->ctx) {
		redisFree(conn->ctx);
	}
	conn->ctx = NULL;
	conn->state = RL_CONN_DOWN;
	reset_stream(conn, 0);
}

int rl_conn_read_failed(rl_conn *conn, long result, rl_outcome *out)
{
	(void) conn;
	if (result < 0 && rl_socket_would_block()) {
		return 0;
	}
	if (out != NULL) {
		if (result == 0) {
			rl_outcome_set(out, RL_OUTCOME_IO, "server closed the connection");
		} else {
			char message[RL_MESSAGE_MAX];
			snprintf(message, sizeof(message), "read: %s", strerror(errno));
			rl_outcome_set(out, RL_OUTCOME_IO, message);
		}
	}
	return -1;
}

int rl_conn_still_open(rl_conn *conn)
{
	int round;

	if (conn->state != RL_CONN_READY) {
		return 1;
	}
	/* Bounded: a few reads take in stale replies ahead of an end-of-file. A full reader buffer
	 * waits for the caller to parse it. */
	for (round = 0; round < 4 && conn->reader.end - conn->reader.start < sizeof(conn->reader.buf); round++) {
		rl_pollfd pfd;

		pfd.fd = rl_conn_fd(conn);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (rl_poll(&pfd, 1, 0) <= 0 || pfd.revents == 0) {
			return 1;
		}
		if (rl_conn_read(conn, NULL) < 0) {
			return 0;
		}
	}
	return 1;
}

int rl_conn_queue_unsent(rl_conn *conn, const char *bytes, size_t len)
{
	if (redisAppendFormattedCommand(conn->ctx, bytes, len) != REDIS_OK) {
		return -1;
	}
	conn->unsent = 1;
	return 0;
}

/* Encodes with rl_resp.h: hiredis' encoder costs ~4,000 instructions per command. */
static int queue_command(rl_conn *conn, int argc, const char **argv, const size_t *argvlen)
{
	char small[512];
	size_t size = rl_resp_size(argc, argvlen);
	char *bytes = size <= sizeof(small) ? small : malloc(size);
	int status;

	if (bytes == NULL) {
		return -1;
	}
	rl_resp_format(bytes, argc, argv, argvlen);
	status = rl_conn_send_or_queue(conn, bytes, size);
	if (bytes != small) {
		free(bytes);
	}
	return status;
}

int rl_conn_append(rl_conn *conn, int argc, const char **argv, const size_t *argvlen, double now)
{
	if (rl_conn_owed(conn) == 0 && conn->state == RL_CONN_READY) {
		conn->waiting_since = now;
	}
	if (queue_command(conn, argc, argv, argvlen) != 0) {
		return -1;
	}
	conn->expected++;
	return 0;
}

/* Appends one setup command and counts its reply as checked rather than expected. */
static int append_checked(rl_conn *conn, int argc, const char **argv, const size_t *argvlen, double now)
{
	if (rl_conn_append(conn, argc, argv, argvlen, now) != 0) {
		return -1;
	}
	conn->expected--;
	conn->checked++;
	return 0;
}

int rl_conn_append_setup(rl_conn *conn, const rl_endpoint *endpoint, double now)
{
	if (endpoint->password != NULL) {
		const char *argv[3];
		size_t argvlen[3];
		int argc = 0;

		argv[argc] = "AUTH";
		argvlen[argc++] = 4;
		if (endpoint->username != NULL) {
			argv[argc] = endpoint->username;
			argvlen[argc++] = strlen(endpoint->username);
		}
		argv[argc] = endpoint->password;
		argvlen[argc++] = strlen(endpoint->password);
		if (append_checked(conn, argc, argv, argvlen, now) != 0) {
			return -1;
		}
	}
	if (endpoint->database != 0) {
		char db_text[16];
		const char *argv[2];
		size_t argvlen[2];

		snprintf(db_text, sizeof(db_text), "%d", endpoint->database);
		argv[0] = "SELECT";
		argvlen[0] = 6;
		argv[1] = db_text;
		argvlen[1] = strlen(db_text);
		if (append_checked(conn, 2, argv, argvlen, now) != 0) {
			return -1;
		}
	}
	return 0;
}

static int fail_from_context(rl_conn *conn, rl_outcome_kind kind, const char *prefix, rl_outcome *out)
{
	char message[RL_MESSAGE_MAX];
	redisContext *ctx = conn->ctx;

	snprintf(message, sizeof(message), "%s%s", prefix, ctx->errstr[0] ? ctx->errstr : "connection lost");
	rl_outcome_set(out, kind, message);
	return -1;
}

int rl_conn_write_unsent(rl_conn *conn, rl_outcome *out)
{
	int done = 0;

	if (redisBufferWrite(conn->ctx, &done) != REDIS_OK) {
		return fail_from_context(conn, RL_OUTCOME_IO, "", out);
	}
	conn->unsent = done ? 0 : 1;
	return 0;
}

static int finish_connect(rl_conn *conn, rl_outcome *out)
{
	int err = 0;
#ifdef _WIN32
	int len = sizeof(err);
#else
	socklen_t len = sizeof(err);
#endif
	char message[RL_MESSAGE_MAX];

	if (getsockopt(rl_conn_fd(conn), SOL_SOCKET, SO_ERROR, (char *) &err, &len) != 0) {
		err = errno;
	}
	if (err != 0) {
		snprintf(message, sizeof(message), "connect: %s", strerror(err));
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		return -1;
	}
	conn->state = RL_CONN_READY;
	return 0;
}

int rl_conn_on_events_any(rl_conn *conn, short revents, rl_outcome *out)
{
	if (conn->state == RL_CONN_CONNECTING) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP))) {
			return 0;
		}
		if (finish_connect(conn, out) != 0) {
			return -1;
		}
	}
	if ((revents & POLLOUT) && rl_conn_flush(conn, out) != 0) {
		return -1;
	}
	if (revents & (POLLIN | POLLERR | POLLHUP)) {
		return rl_conn_read(conn, out);
	}
	return 0;
}

int rl_conn_sort_reply(rl_conn *conn, int got, rl_reply *reply, double now, rl_outcome *out)
{
	for (;; got = rl_reader_next(&conn->reader, reply)) {
		if (got < 0) {
			rl_outcome_set(out, RL_OUTCOME_IO, rl_reader_error(&conn->reader));
			return -1;
		}
		if (got == 0) {
			return 0;
		}
		conn->waiting_since = now;
		if (conn->checked > 0) {
			conn->checked--;
			if (reply->type == RL_REPLY_ERROR) {
				/* Commands pipelined behind a failed AUTH only say NOAUTH: report the cause. */
				rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
				return -1;
			}
			continue;
		}
		if (conn->stale > 0) {
			conn->stale--;
			continue;
		}
		if (conn->expected == 0) {
			/* A reply nobody asked for: the stream is out of step and cannot be trusted. */
			rl_outcome_set(out, RL_OUTCOME_IO, "protocol error: unexpected reply");
			return -1;
		}
		conn->expected--;
		return 1;
	}
}

int rl_conn_drop_stale(rl_conn *conn, double now)
{
	rl_outcome ignored;
	rl_reply reply;

	/* Only stale replies were owed, so a reply that gets through is out of step. */
	return rl_conn_next_reply(conn, &reply, now, &ignored) != 0 ? -1 : 0;
}

void rl_conn_abandon(rl_conn *conn)
{
	conn->stale += conn->expected;
	conn->expected = 0;
}

int rl_conn_settle_clean(rl_conn *conn, double wait_ms)
{
	redisContext *ctx = conn->ctx;
	double deadline = rl_now_ms() + wait_ms;
	rl_outcome ignored;

	if (ctx == NULL || conn->state != RL_CONN_READY || ctx->err || conn->expected > 0 || conn->unsent) {
		return 0;
	}
	while (conn->checked + conn->stale > 0) {
		rl_pollfd pfd;
		rl_reply reply;
		double left = deadline - rl_now_ms();
		int ready;

		pfd.fd = rl_conn_fd(conn);
		pfd.events = POLLIN;
		pfd.revents = 0;
		ready = rl_poll(&pfd, 1, left > 0 ? (int) ceil(left) : 0);
		if (ready < 0 && rl_poll_interrupted()) {
			continue;
		}
		if (ready <= 0) {
			return 0; /* still owed when the wait ran out */
		}
		if (rl_conn_on_events(conn, pfd.revents, &ignored) != 0) {
			return 0;
		}
		/* Drops every checked and stale reply that has arrived; any other reply is out of step. */
		if (rl_conn_next_reply(conn, &reply, rl_now_ms(), &ignored) != 0) {
			return 0;
		}
	}
	return rl_conn_owed(conn) == 0 && rl_reader_idle(&conn->reader) && !ctx->err;
}

void *rl_conn_detach(rl_conn *conn)
{
	void *ctx = conn->ctx;

	conn->ctx = NULL;
	conn->state = RL_CONN_DOWN;
	reset_stream(conn, 0);
	return ctx;
}

void rl_conn_attach(rl_conn *conn, void *ctx, double now)
{
	conn->ctx = ctx;
	conn->fd = ((redisContext *) ctx)->fd;
	conn->state = RL_CONN_READY;
	reset_stream(conn, now);
}

void rl_conn_free_context(void *ctx)
{
	if (ctx != NULL) {
		redisFree(ctx);
	}
}

int rl_conn_context_is_quiet(void *ctx_ptr)
{
	redisContext *ctx = ctx_ptr;
	rl_pollfd pfd;

	if (ctx == NULL || ctx->err) {
		return 0;
	}
	pfd.fd = ctx->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	return rl_poll(&pfd, 1, 0) == 0;
}
