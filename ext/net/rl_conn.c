/* One non-blocking connection on our own sockets: the stream, its output buffer, reply pairing and
 * whether a call may use it. Opening it is in rl_connect.c. See rl_conn.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <hiredis/hiredis.h> /* only for its version: the I/O is ours */

#include "net/rl_conn_private.h"
#include "net/rl_shards.h"
#include "protocol/rl_resp.h"
#include "net/rl_net_private.h"

void rl_hiredis_version(char *out, size_t size)
{
	snprintf(out, size, "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
}

int64_t rl_clock_offset_us; /* see rl_platform.h */

/* memset that the compiler may not drop as a dead store. */
static void wipe(void *bytes, size_t len)
{
	volatile unsigned char *p = bytes;
	while (len--) {
		*p++ = 0;
	}
}

void rl_conn_init(rl_conn *conn)
{
	memset(conn, 0, sizeof(*conn));
	conn->fd = RL_INVALID_SOCKET;
	conn->deadline = HUGE_VAL;
	conn->stale_deadline = HUGE_VAL;
	rl_reader_init(&conn->reader);
}

void rl_conn_forget_after_fork(rl_conn *conn)
{
	if (conn->state == RL_CONN_CONNECTING || conn->state == RL_CONN_READY || conn->state == RL_CONN_HANDSHAKING) {
		rl_closesocket(conn->fd);
	}
	if (conn->out != NULL) {
		wipe(conn->out, conn->out_cap); /* may hold AUTH: never left readable in the child */
	}
	rl_conn_init(conn);
}

uint32_t rl_master_mark(const char *host, int port)
{
	uint32_t hash = 2166136261u; /* FNV-1a over "host" then the port's bytes */
	const unsigned char *at;

	for (at = (const unsigned char *) (host != NULL ? host : ""); *at; at++) {
		hash = (hash ^ *at) * 16777619u;
	}
	hash = (hash ^ (uint32_t) (port & 0xff)) * 16777619u;
	hash = (hash ^ (uint32_t) ((port >> 8) & 0xff)) * 16777619u;
	return hash != 0 ? hash : 1;
}

/* Nothing owed, nothing unsent, nothing buffered: the state of a fresh stream. */
static void reset_stream(rl_conn *conn)
{
	conn->checked = 0;
	conn->role_checked = 0;
	conn->probes = 0;
	conn->native_release = RL_NATIVE_NONE;
	conn->eviction_policy = RL_POLICY_NOT_LEARNT;
	conn->policy_flags = 0;
	conn->master_mark = 0;
	conn->stale = 0;
	conn->expected = 0;
	conn->time_owed = 0;
	conn->time_stale_pos = 0;
	conn->clock_due = 0;
	conn->clock.server_ms = 0; /* a new stream, maybe another server (a failover): a new reference */
	conn->clock_jump = 0;
	conn->stale_deadline = HUGE_VAL;
	conn->peer_closed = 0;
	if (conn->out != NULL && conn->out_secret) {
		wipe(conn->out, conn->out_cap);
	}
	conn->out_secret = 0;
	conn->out_start = conn->out_end = 0;
	conn->dropped_error[0] = '\0';
	conn->moved_late = 0;
	rl_reader_reset(&conn->reader); /* hiredis' reader goes with the stream it parsed */
}

/* The connection ended: the server's own words when it said something before, else reason. */
static void set_ended(rl_conn *conn, rl_outcome *out, const char *reason)
{
	if (conn->dropped_error[0] != '\0') {
		rl_outcome_set(out, RL_OUTCOME_ERROR, conn->dropped_error);
	} else {
		rl_outcome_set(out, RL_OUTCOME_IO, reason);
	}
}


void rl_conn_close(rl_conn *conn)
{
	rl_tls_free(conn);
	if (conn->state != RL_CONN_RESOLVING && conn->fd != RL_INVALID_SOCKET) {
		rl_closesocket(conn->fd);
	}
	rl_conn_drop_connect_state(conn);
	conn->fd = RL_INVALID_SOCKET;
	conn->state = RL_CONN_DOWN;
	reset_stream(conn);
}

void rl_conn_release(rl_conn *conn)
{
	rl_conn_close(conn);
	if (conn->out != NULL) {
		wipe(conn->out, conn->out_cap);
		free(conn->out);
	}
	conn->out = NULL;
	conn->out_cap = 0;
}

int rl_conn_read_failed(rl_conn *conn, long result, rl_outcome *out)
{
	if (result < 0 && rl_socket_would_block()) {
		return 0;
	}
	if (result == 0) {
		/* The end of file: the replies before it (an error the server sent before closing,
		 * such as "max number of clients reached") are parsed first. */
		conn->peer_closed = 1;
		return 0;
	}
	if (out != NULL) {
		char message[RL_MESSAGE_MAX];
		snprintf(message, sizeof(message), "read: %s", strerror(errno));
		set_ended(conn, out, message);
	}
	return -1;
}

int rl_conn_queue_unsent(rl_conn *conn, const char *bytes, size_t len)
{
	if (conn->out_start > 0 && conn->out_start == conn->out_end) {
		conn->out_start = conn->out_end = 0;
	}
	if (conn->out_end + len > conn->out_cap) {
		size_t used = conn->out_end - conn->out_start;
		size_t cap = conn->out_cap ? conn->out_cap : 512;
		char *grown, *old;

		while (cap < used + len) {
			cap *= 2;
		}
		/* A fresh buffer rather than realloc: the old one may hold credentials to wipe. */
		grown = malloc(cap);
		if (grown == NULL) {
			return -1;
		}
		if (used) {
			memcpy(grown, conn->out + conn->out_start, used);
		}
		/* Wiped before the switch, freed after it: whenever a fork() from another thread lands,
		 * conn->out is an allocated buffer at least out_cap long (rl_conn_forget_after_fork). */
		old = conn->out;
		if (old != NULL) {
			wipe(old, conn->out_cap);
		}
		conn->out = grown;
		conn->out_cap = cap;
		conn->out_start = 0;
		conn->out_end = used;
		free(old);
	}
	memcpy(conn->out + conn->out_end, bytes, len);
	conn->out_end += len;
	return 0;
}

/* Encodes with rl_resp.h and queues. secret: the bytes hold credentials, wiped after use. */
static int queue_command(rl_conn *conn, int argc, const char **argv, const size_t *argvlen, int secret)
{
	char small[512];
	size_t size = rl_resp_size(argc, argvlen);
	char *bytes = size <= sizeof(small) ? small : malloc(size);
	int status;

	if (bytes == NULL) {
		return -1;
	}
	rl_resp_format(bytes, argc, argv, argvlen);
	if (secret) {
		/* Into the buffer, wiped when it is emptied or freed, rather than sent here: the
		 * connection is not open yet when the setup is queued. */
		conn->out_secret = 1;
		status = rl_conn_queue_unsent(conn, bytes, size);
		wipe(bytes, size);
	} else {
		status = rl_conn_send_or_queue(conn, bytes, size);
	}
	if (bytes != small) {
		free(bytes);
	}
	return status;
}

int rl_conn_append(rl_conn *conn, int argc, const char **argv, const size_t *argvlen)
{
	if (queue_command(conn, argc, argv, argvlen, 0) != 0) {
		return -1;
	}
	conn->expected++;
	return 0;
}

int rl_endpoint_set(rl_endpoint *one, const char *host, int port, double timeout_ms, const char *username,
	const char *password, const rl_tls_config *tls)
{
	one->host = host != NULL ? strdup(host) : NULL;
	one->port = port;
	one->timeout_ms = timeout_ms;
	one->username = username != NULL ? strdup(username) : NULL;
	one->password = password != NULL ? strdup(password) : NULL;
	one->tls = tls != NULL ? rl_tls_config_copy(tls) : NULL;
	return one->host == NULL || (username && one->username == NULL) || (password && one->password == NULL)
		|| (tls && one->tls == NULL) ? -1 : 0;
}

int rl_conn_append_setup(rl_conn *conn, const rl_endpoint *endpoint)
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
		if (queue_command(conn, argc, argv, argvlen, 1) != 0) {
			return -1;
		}
		conn->checked++;
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
		if (queue_command(conn, 2, argv, argvlen, 0) != 0) {
			return -1;
		}
		conn->checked++;
	}
	if (endpoint->sentinel != NULL || endpoint->shards != NULL) {
		static const char *const role[] = {"ROLE"};
		static const size_t role_len[] = {4};

		if (queue_command(conn, 1, (const char **) role, role_len, 0) != 0) {
			return -1;
		}
		conn->checked++;
		conn->role_checked = 1;
		conn->master_mark = endpoint->shards != NULL ? rl_shards_mark(endpoint) : rl_master_mark(endpoint->host, endpoint->port);
		conn->policy_flags |= RL_POLICY_FLAG_MASTER;
	}
	return 0;
}

int rl_conn_append_probes(rl_conn *conn)
{
	static const char *const delex[] = {"DELEX", "redlock:native-release-probe", "IFEQ", "-"};
	static const size_t delex_len[] = {5, 28, 4, 1};
	static const char *const delifeq[] = {"DELIFEQ", "redlock:native-release-probe", "-"};
	static const size_t delifeq_len[] = {7, 28, 1};
	static const char *const config_get[] = {"CONFIG", "GET", "maxmemory-policy"};
	static const size_t config_get_len[] = {6, 3, 16};
	static const char *const info[] = {"INFO", "memory"};
	static const size_t info_len[] = {4, 6};

	if (queue_command(conn, 4, (const char **) delex, delex_len, 0) != 0
		|| queue_command(conn, 3, (const char **) delifeq, delifeq_len, 0) != 0
		|| queue_command(conn, 3, (const char **) config_get, config_get_len, 0) != 0
		|| queue_command(conn, 2, (const char **) info, info_len, 0) != 0
		|| rl_reader_watch(&conn->reader, RL_POLICY_INFO_FIELD) != 0) {
		return -1;
	}
	conn->probes += RL_CONN_PROBES;
	return 0;
}

int rl_conn_queue_time(rl_conn *conn, double now)
{
	static const char time_command[] = "*1\r\n$4\r\nTIME\r\n";

	if (rl_conn_queue_unsent(conn, time_command, sizeof(time_command) - 1) != 0) {
		return -1;
	}
	conn->time_owed++;
	conn->time_sent = now;
	conn->clock_due = now + RL_CLOCK_SAMPLE_MS;
	return 0;
}

/* TIME's reply, read in its call or later among the stale ones: a sample of the server's clock. */
static void take_time(rl_conn *conn, const rl_reply *reply, double sent)
{
	double server_ms;

	if (rl_clock_parse_time(reply, &server_ms)) { /* else (NOPERM, a proxy): no sample */
		double since, spread, recv = rl_now_ms();
		double jump = rl_clock_sample(&conn->clock, sent, recv, server_ms, &since, &spread);

		if (jump != 0) {
			conn->clock_jump = jump;
			conn->clock_jump_spread = spread;
			conn->clock_jump_since = since;
			conn->clock_jump_seen = recv;
			conn->policy_flags |= RL_POLICY_FLAG_CLOCK;
		}
	}
}

/* The reply to the probe at index (rl_conn_append_probes' order), taken in. */
static void take_probe(rl_conn *conn, unsigned index, const rl_reply *reply)
{
	switch (index) {
	case 0: /* DELEX, then DELIFEQ: the first the server has is used */
	case 1:
		if (reply->type == RL_REPLY_INTEGER && conn->native_release == RL_NATIVE_NONE) {
			conn->native_release = (unsigned char) (index == 0 ? RL_NATIVE_DELEX : RL_NATIVE_DELIFEQ);
		}
		break;
	case 2: /* CONFIG GET maxmemory-policy: ["maxmemory-policy", its value] */
		if (reply->type == RL_REPLY_ARRAY && reply->integer == 2 && reply->items[1].type == RL_REPLY_STRING
			&& reply->items[1].str != NULL) {
			conn->eviction_policy = (unsigned char) rl_eviction_policy_parse(reply->items[1].str, reply->items[1].len);
		}
		break;
	default: /* INFO memory, the field watched: what CONFIG GET did not say */
		rl_reader_watch(&conn->reader, NULL);
		if (conn->eviction_policy == RL_POLICY_NOT_LEARNT) {
			conn->eviction_policy = (unsigned char) (reply->type == RL_REPLY_STRING && reply->str != NULL
				? rl_eviction_policy_parse(reply->str, reply->len) : RL_POLICY_UNKNOWN);
		}
		conn->policy_flags = (unsigned char) (RL_POLICY_FLAG_NEWS | (conn->policy_flags & (RL_POLICY_FLAG_MASTER | RL_POLICY_FLAG_CLOCK))
			| (rl_eviction_policy_evicts((rl_eviction_policy) conn->eviction_policy) ? RL_POLICY_FLAG_EVICTS : 0));
		break;
	}
}

int rl_conn_write_unsent(rl_conn *conn, rl_outcome *out)
{
	while (conn->out_end > conn->out_start) {
		long sent = rl_conn_send(conn, conn->out + conn->out_start, conn->out_end - conn->out_start);

		if (sent > 0) {
			conn->out_start += (size_t) sent;
			continue;
		}
		if (conn->tls != NULL) {
			if (sent == 0) {
				return 0; /* SSL_write waits for conn->tls_want */
			}
			set_ended(conn, out, conn->connect_error);
			return -1;
		}
		if (sent < 0 && rl_socket_would_block()) {
			return 0;
		}
		{
			char message[RL_MESSAGE_MAX];
			snprintf(message, sizeof(message), "write: %s", sent < 0 ? strerror(errno) : "connection closed");
			set_ended(conn, out, message);
		}
		return -1;
	}
	if (conn->out_secret) {
		wipe(conn->out, conn->out_cap); /* AUTH has left: no copy of the password stays */
		conn->out_secret = 0;
	}
	conn->out_start = conn->out_end = 0;
	return 0;
}

int rl_conn_on_events_any(rl_conn *conn, const rl_endpoint *endpoint, short revents, rl_outcome *out)
{
	if (revents & POLLNVAL) {
		rl_outcome_set(out, RL_OUTCOME_IO, "socket closed under us");
		return -1;
	}
	if (conn->state == RL_CONN_RESOLVING) {
		if (!(revents & (POLLIN | POLLERR | POLLHUP))) {
			return 0;
		}
		if (rl_conn_finish_lookup(conn, out) != 0) {
			return -1;
		}
		return 0; /* now CONNECTING (or still resolving): polled again with the socket */
	}
	if (conn->state == RL_CONN_CONNECTING) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP))) {
			return 0;
		}
		if (rl_conn_finish_connect(conn, out) != 0) {
			return -1;
		}
		if (conn->state != RL_CONN_READY) {
			return 0; /* trying the next address */
		}
		if (endpoint->tls != NULL) {
			/* Connected: the handshake starts at once, within the same timeout. */
			if (rl_tls_start(conn, endpoint, out) != 0) {
				return -1;
			}
			if (conn->state != RL_CONN_READY) {
				return 0;
			}
			revents |= POLLIN; /* the handshake may have read past its end */
		}
	} else if (conn->state == RL_CONN_HANDSHAKING) {
		if (!(revents & (POLLIN | POLLOUT | POLLERR | POLLHUP))) {
			return 0;
		}
		if (rl_tls_handshake(conn, out) != 0) {
			return -1;
		}
		if (conn->state != RL_CONN_READY) {
			return 0;
		}
		revents |= POLLIN;
	}
	if (rl_conn_flush(conn, out) != 0) {
		return -1;
	}
	if (revents & (POLLIN | POLLERR | POLLHUP)) {
		return rl_conn_read(conn, out);
	}
	return 0;
}

static int starts_with(const rl_reply *reply, const char *prefix)
{
	size_t len = strlen(prefix);
	return reply->len >= len && memcmp(reply->str, prefix, len) == 0;
}

/* ROLE's reply on a Sentinel member: an array headed "master". */
static int role_is_master(const rl_reply *reply)
{
	return reply->type == RL_REPLY_ARRAY && reply->integer > 0 && reply->items[0].type == RL_REPLY_STRING
		&& reply->items[0].len == 6 && memcmp(reply->items[0].str, "master", 6) == 0;
}

int rl_conn_sort_reply(rl_conn *conn, int got, rl_reply *reply, rl_outcome *out)
{
	for (;; got = rl_reader_next(&conn->reader, reply)) {
		if (got < 0) {
			rl_outcome_set(out, RL_OUTCOME_IO, rl_reader_error(&conn->reader));
			return -1;
		}
		if (got == 0) {
			if (conn->peer_closed && rl_conn_owed(conn) > 0) {
				set_ended(conn, out, "server closed the connection");
				return -1;
			}
			return 0;
		}
		if (conn->checked + conn->probes + conn->stale == 1) {
			conn->stale_deadline = HUGE_VAL; /* the last one owed from before has come */
		}
		if (conn->checked > 0) {
			conn->checked--;
			if (conn->checked == 0 && conn->role_checked) {
				conn->role_checked = 0;
				if (reply->type == RL_REPLY_ERROR && !starts_with(reply, "NOPERM")) {
					rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len); /* NOAUTH, LOADING: its words */
					return -1;
				}
				if (reply->type != RL_REPLY_ERROR && !role_is_master(reply)) { /* NOPERM: READONLY still tells */
					rl_outcome_set(out, RL_OUTCOME_ERROR, RL_CONN_NOT_MASTER);
					return -1;
				}
				continue;
			}
			if (reply->type == RL_REPLY_ERROR) {
				/* Commands pipelined behind a failed AUTH only say NOAUTH: report the cause. */
				rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
				return -1;
			}
			continue;
		}
		if (conn->probes > 0) {
			take_probe(conn, RL_CONN_PROBES - conn->probes--, reply);
			if (reply->type == RL_REPLY_ERROR && !starts_with(reply, "ERR unknown command")
				&& !starts_with(reply, "NOPERM")) {
				/* Not the "cannot use it" a probe expects: what the server said unasked (at
				 * maxclients it answers the first command and closes), kept as a stale one's. */
				rl_outcome said;
				rl_outcome_set_bytes(&said, RL_OUTCOME_ERROR, reply->str, reply->len);
				memcpy(conn->dropped_error, said.message, sizeof(conn->dropped_error));
			}
			continue;
		}
		if (conn->stale > 0) {
			conn->stale--;
			if (conn->time_stale_pos > 0 && --conn->time_stale_pos == 0) {
				take_time(conn, reply, conn->time_stale_sent); /* the TIME an earlier call gave up on */
				continue;
			}
			if (reply->type == RL_REPLY_ERROR) {
				rl_outcome said; /* made printable, NUL-free, bounded */
				rl_outcome_set_bytes(&said, RL_OUTCOME_ERROR, reply->str, reply->len);
				memcpy(conn->dropped_error, said.message, sizeof(conn->dropped_error));
				conn->moved_late |= strncmp(said.message, "MOVED ", 6) == 0;
			}
			continue;
		}
		if (conn->time_owed > 0) {
			conn->time_owed--;
			take_time(conn, reply, conn->time_sent);
			continue;
		}
		if (conn->expected == 0) {
			if (reply->type == RL_REPLY_ERROR) {
				/* Said unasked before closing (maxclients): the server's own words. */
				rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
				return -1;
			}
			/* A reply nobody asked for: the stream is out of step and cannot be trusted. */
			rl_outcome_set(out, RL_OUTCOME_IO, "protocol error: unexpected reply");
			return -1;
		}
		conn->expected--;
		return 1;
	}
}

/* Takes in what arrived on a ready connection since its last use. False when it must close. */
static int take_in_idle(rl_conn *conn, short revents)
{
	if (revents == RL_NOT_PROBED) {
		rl_pollfd pfd;

		pfd.fd = conn->fd;
		pfd.events = POLLIN | RL_POLL_PEER_CLOSED;
		pfd.revents = 0;
		revents = rl_poll(&pfd, 1, 0) > 0 ? pfd.revents : 0;
	}
	/* The server closed it (restart, CLIENT KILL, idle timeout): POLLRDHUP tells that apart from
	 * data where the system has it; elsewhere the read below finds the end of file. */
	if (revents & (POLLERR | POLLNVAL | POLLHUP | RL_POLL_PEER_CLOSED)) {
		return 0;
	}
	/* One read: late replies are dropped below, more of them at the next look. */
	if ((revents & POLLIN) && rl_conn_read(conn, NULL) != 0) {
		return 0;
	}
	if (conn->peer_closed) {
		return 0;
	}
	return conn->expected > 0 || rl_conn_drop_stale(conn) == 0;
}

/* Overdue replies from before: before the connection is judged silent, everything already readable
 * is taken in, not only take_in_idle's one read (whose room is about 1 KB: a new connection's
 * INFO memory probe alone is larger, so replies that had all come could be left unread and the
 * connection closed as silent). Bounded: a stream that never ends is not read forever. False when
 * it must close. */
static int take_in_readable(rl_conn *conn)
{
	int reads;

	if (conn->expected > 0) {
		return 1; /* a call's replies are parsed by that call (as take_in_idle leaves them) */
	}
	for (reads = 0; reads < 64 && conn->checked + conn->probes + conn->stale > 0; reads++) {
		rl_pollfd pfd;

		pfd.fd = conn->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (rl_poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN)) {
			break; /* (TLS: bytes already decrypted wait for the next look, as before) */
		}
		if (rl_conn_read(conn, NULL) != 0 || conn->peer_closed) {
			return 0;
		}
		if (rl_conn_drop_stale(conn) != 0) {
			return 0;
		}
	}
	return 1;
}

int rl_conn_begin_call(rl_conn *conn, const rl_endpoint *endpoint, short revents, double now, double call_deadline)
{
	int was_open = conn->state != RL_CONN_DOWN;

	conn->dropped_error[0] = '\0'; /* only what the server says during this call counts */
	conn->queued_redirect[0] = '\0';
	if (conn->state == RL_CONN_READY && !take_in_idle(conn, revents)) {
		rl_conn_close(conn); /* restart, CLIENT KILL, idle timeout, or out of step */
	}
	if (conn->state == RL_CONN_READY && conn->checked + conn->probes + conn->stale > 0 && now >= conn->stale_deadline
		&& !take_in_readable(conn)) {
		rl_conn_close(conn);
	}
	if (conn->state != RL_CONN_DOWN && conn->checked + conn->probes + conn->stale > 0 && now >= conn->stale_deadline) {
		/* Still silent since an earlier call: start afresh. Closing is safe even with a
		 * rollback in flight on it, as every attempt has a token of its own. */
		rl_conn_close(conn);
	}
	conn->deadline = rl_conn_due(endpoint, now, call_deadline);
	return was_open && conn->state == RL_CONN_DOWN;
}

int rl_conn_reusable(const rl_conn *conn)
{
	return conn->state == RL_CONN_READY && !conn->peer_closed && rl_reader_error(&conn->reader) == NULL;
}
