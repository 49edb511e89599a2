/* One non-blocking connection on our own sockets. See rl_conn.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#ifndef _WIN32
# include <fcntl.h>
# include <netinet/in.h>
# include <netinet/tcp.h>
# include <sys/socket.h>
# include <sys/un.h>
#else
# include <ws2tcpip.h>
#endif
#include <hiredis/hiredis.h> /* only for its version: the I/O is ours */

#include "rl_conn.h"
#include "rl_resolve.h"
#include "rl_resp.h"

#ifdef _WIN32
# define RL_INVALID_SOCKET INVALID_SOCKET
# define rl_closesocket closesocket
#else
# define RL_INVALID_SOCKET (-1)
# define rl_closesocket close
#endif

void rl_hiredis_version(char *out, size_t size)
{
	snprintf(out, size, "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
}

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

/* Nothing owed, nothing unsent, nothing buffered: the state of a fresh stream. */
static void reset_stream(rl_conn *conn)
{
	conn->checked = 0;
	conn->stale = 0;
	conn->expected = 0;
	conn->stale_deadline = HUGE_VAL;
	conn->peer_closed = 0;
	if (conn->out != NULL && conn->out_secret) {
		wipe(conn->out, conn->out_cap);
	}
	conn->out_secret = 0;
	conn->out_start = conn->out_end = 0;
	conn->dropped_error[0] = '\0';
	rl_reader_init(&conn->reader);
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

static void drop_connect_state(rl_conn *conn)
{
	if (conn->lookup != NULL) {
		rl_lookup_release(conn->lookup);
		conn->lookup = NULL;
	}
	if (conn->addresses != NULL) {
		rl_addresses_release(conn->addresses);
		conn->addresses = NULL;
	}
	conn->next_address = 0;
}

void rl_conn_close(rl_conn *conn)
{
	if (conn->state != RL_CONN_RESOLVING && conn->fd != RL_INVALID_SOCKET) {
		rl_closesocket(conn->fd);
	}
	drop_connect_state(conn);
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

static int set_nonblocking(rl_socket fd)
{
#ifdef _WIN32
	u_long on = 1;
	return ioctlsocket(fd, FIONBIO, &on) == 0 ? 0 : -1;
#else
	int flags = fcntl(fd, F_GETFL, 0);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		return -1;
	}
	(void) fcntl(fd, F_SETFD, FD_CLOEXEC); /* a child exec()ed by PHP must not keep our sockets */
	return 0;
#endif
}

static int connect_in_progress(void)
{
#ifdef _WIN32
	return WSAGetLastError() == WSAEWOULDBLOCK;
#else
	return errno == EINPROGRESS || errno == EINTR;
#endif
}

/* A server that could not be reached: "connect: <reason>". */
static int connect_failed(rl_outcome *out, const char *reason)
{
	char message[RL_MESSAGE_MAX];

	snprintf(message, sizeof(message), "connect: %s", reason);
	rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
	return -1;
}

/* A non-blocking socket connecting to address. 0 (CONNECTING), or -1 with conn->connect_error. */
static int start_socket(rl_conn *conn, int family, const struct sockaddr *address, socklen_t len)
{
	rl_socket fd = socket(family, SOCK_STREAM, 0);

	if (fd == RL_INVALID_SOCKET) {
		snprintf(conn->connect_error, sizeof(conn->connect_error), "%s", strerror(errno));
		return -1;
	}
	if (set_nonblocking(fd) != 0) {
		snprintf(conn->connect_error, sizeof(conn->connect_error), "%s", strerror(errno));
		rl_closesocket(fd);
		return -1;
	}
	if (family != AF_UNIX) {
		int on = 1;
		/* Small requests wait for their reply: Nagle would hold them back. */
		(void) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, (const char *) &on, sizeof(on));
	}
#ifdef SO_NOSIGPIPE
	{
		int on = 1; /* where MSG_NOSIGNAL does not exist (macOS): never SIGPIPE */
		(void) setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof(on));
	}
#endif
	if (connect(fd, address, len) != 0 && !connect_in_progress()) {
		snprintf(conn->connect_error, sizeof(conn->connect_error), "%s", strerror(errno));
		rl_closesocket(fd);
		return -1;
	}
	conn->fd = fd;
	conn->state = RL_CONN_CONNECTING;
	return 0;
}

/* Tries the resolved addresses from next_address on. 0 (CONNECTING), or -1 when none is left. */
static int connect_next_address(rl_conn *conn, rl_outcome *out)
{
	while (conn->addresses != NULL && conn->next_address < rl_addresses_count(conn->addresses)) {
		socklen_t len;
		const struct sockaddr *address = rl_addresses_get(conn->addresses, conn->next_address++, &len);

		if (start_socket(conn, address->sa_family, address, len) == 0) {
			return 0;
		}
	}
	drop_connect_state(conn);
	conn->state = RL_CONN_DOWN;
	conn->fd = RL_INVALID_SOCKET;
	return connect_failed(out, conn->connect_error[0] ? conn->connect_error : "no address");
}

static int open_unix(rl_conn *conn, const char *path, rl_outcome *out)
{
#ifdef _WIN32
	(void) conn;
	(void) path;
	rl_outcome_set(out, RL_OUTCOME_CONNECT, "connect: unix sockets are not supported here");
	return -1;
#else
	struct sockaddr_un address;
	size_t len = strlen(path);

	memset(&address, 0, sizeof(address));
	address.sun_family = AF_UNIX;
	if (len >= sizeof(address.sun_path)) {
		/* Truncating it would connect to some other socket. */
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "connect: unix socket path too long");
		return -1;
	}
	memcpy(address.sun_path, path, len + 1);
	if (start_socket(conn, AF_UNIX, (const struct sockaddr *) &address, sizeof(address)) != 0) {
		return connect_failed(out, conn->connect_error);
	}
	return 0;
#endif
}

/* A lookup ended (status as rl_resolve_start's): connect to the first address, or fail with err. */
static int after_lookup(rl_conn *conn, int status, const char *err, rl_outcome *out)
{
	if (status != RL_RESOLVE_DONE) {
		drop_connect_state(conn);
		return connect_failed(out, err);
	}
	return connect_next_address(conn, out);
}

int rl_conn_open(rl_conn *conn, const rl_endpoint *endpoint, double now, rl_outcome *out)
{
	char err[RL_MESSAGE_MAX - 16];
	int status;

	rl_conn_close(conn);
	conn->connect_error[0] = '\0';
	if (endpoint->host[0] == '/') {
		return open_unix(conn, endpoint->host, out);
	}
	status = rl_resolve_start(endpoint->host, endpoint->port, now, &conn->addresses, &conn->lookup, err, sizeof(err));
	if (status == RL_RESOLVE_PENDING) {
		int fd = rl_lookup_fd(conn->lookup);
		if (fd >= 0) {
			conn->fd = (rl_socket) fd;
			conn->state = RL_CONN_RESOLVING;
			return 0;
		}
		status = rl_lookup_finish(conn->lookup, &conn->addresses, err, sizeof(err));
		rl_lookup_release(conn->lookup);
		conn->lookup = NULL;
	}
	return after_lookup(conn, status, err, out);
}

/* RESOLVING and the lookup's fd turned readable: connect to what it found. */
static int finish_lookup(rl_conn *conn, rl_outcome *out)
{
	char err[RL_MESSAGE_MAX - 16];
	int status = rl_lookup_finish(conn->lookup, &conn->addresses, err, sizeof(err));

	if (status == RL_RESOLVE_PENDING) {
		int fd = rl_lookup_fd(conn->lookup); /* may change after a fork */
		conn->fd = fd >= 0 ? (rl_socket) fd : conn->fd;
		return 0;
	}
	rl_lookup_release(conn->lookup);
	conn->lookup = NULL;
	conn->fd = RL_INVALID_SOCKET;
	conn->state = RL_CONN_DOWN;
	return after_lookup(conn, status, err, out);
}

/* CONNECTING and the socket turned writable (or failed). */
static int finish_connect(rl_conn *conn, rl_outcome *out)
{
	int err = 0;
#ifdef _WIN32
	int len = sizeof(err);
#else
	socklen_t len = sizeof(err);
#endif

	if (getsockopt(conn->fd, SOL_SOCKET, SO_ERROR, (char *) &err, &len) != 0) {
		err = errno;
	}
	if (err == 0) {
		conn->state = RL_CONN_READY;
		drop_connect_state(conn);
		return 0;
	}
	snprintf(conn->connect_error, sizeof(conn->connect_error), "%s", strerror(err));
	rl_closesocket(conn->fd);
	conn->fd = RL_INVALID_SOCKET;
	conn->state = RL_CONN_DOWN;
	if (conn->addresses == NULL) { /* a unix socket: nothing else to try */
		return connect_failed(out, conn->connect_error);
	}
	return connect_next_address(conn, out); /* e.g. ::1 refused: try 127.0.0.1 */
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
		char *grown;

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
		if (conn->out != NULL) {
			wipe(conn->out, conn->out_cap);
			free(conn->out);
		}
		conn->out = grown;
		conn->out_cap = cap;
		conn->out_start = 0;
		conn->out_end = used;
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
	return 0;
}

int rl_conn_write_unsent(rl_conn *conn, rl_outcome *out)
{
	while (conn->out_end > conn->out_start) {
		long sent = rl_send(conn->fd, conn->out + conn->out_start, conn->out_end - conn->out_start);

		if (sent > 0) {
			conn->out_start += (size_t) sent;
			continue;
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
	(void) endpoint;
	if (revents & POLLNVAL) {
		rl_outcome_set(out, RL_OUTCOME_IO, "socket closed under us");
		return -1;
	}
	if (conn->state == RL_CONN_RESOLVING) {
		if (!(revents & (POLLIN | POLLERR | POLLHUP))) {
			return 0;
		}
		if (finish_lookup(conn, out) != 0) {
			return -1;
		}
		return 0; /* now CONNECTING (or still resolving): polled again with the socket */
	}
	if (conn->state == RL_CONN_CONNECTING) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP))) {
			return 0;
		}
		if (finish_connect(conn, out) != 0) {
			return -1;
		}
		if (conn->state != RL_CONN_READY) {
			return 0; /* trying the next address */
		}
	}
	if (rl_conn_flush(conn, out) != 0) {
		return -1;
	}
	if (revents & (POLLIN | POLLERR | POLLHUP)) {
		return rl_conn_read(conn, out);
	}
	return 0;
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
		if (conn->checked + conn->stale == 1) {
			conn->stale_deadline = HUGE_VAL; /* the last one owed from before has come */
		}
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
			if (reply->type == RL_REPLY_ERROR) {
				rl_outcome said; /* made printable, NUL-free, bounded */
				rl_outcome_set_bytes(&said, RL_OUTCOME_ERROR, reply->str, reply->len);
				memcpy(conn->dropped_error, said.message, sizeof(conn->dropped_error));
			}
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

int rl_conn_drop_stale(rl_conn *conn)
{
	rl_outcome ignored;
	rl_reply reply;

	/* Only stale replies were owed, so a reply that gets through is out of step. */
	if (rl_conn_next_reply(conn, &reply, &ignored) != 0) {
		return -1;
	}
	return conn->peer_closed ? -1 : 0;
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

void rl_conn_begin_call(rl_conn *conn, const rl_endpoint *endpoint, short revents, double now, double call_deadline)
{
	conn->dropped_error[0] = '\0'; /* only what the server says during this call counts */
	if (conn->state == RL_CONN_READY && !take_in_idle(conn, revents)) {
		rl_conn_close(conn); /* restart, CLIENT KILL, idle timeout, or out of step */
	}
	if (conn->state != RL_CONN_DOWN && conn->checked + conn->stale > 0 && now >= conn->stale_deadline) {
		/* Still silent since an earlier call: start afresh. Closing is safe even with a
		 * rollback in flight on it, as every attempt has a token of its own. */
		rl_conn_close(conn);
	}
	conn->deadline = rl_conn_due(endpoint, now, call_deadline);
}

int rl_conn_reusable(const rl_conn *conn)
{
	return conn->state == RL_CONN_READY && !conn->peer_closed && rl_reader_error(&conn->reader) == NULL;
}
