/* Opening a connection: resolving its host name (rl_resolve), a non-blocking socket to each address
 * in turn, a unix socket. The DOWN -> RESOLVING -> CONNECTING -> READY part of rl_conn.h's state
 * machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
# include <fcntl.h>
# include <netinet/in.h>
# include <netinet/tcp.h>
# include <sys/socket.h>
# include <sys/un.h>
#else
# include <ws2tcpip.h>
#endif

#include "net/rl_conn_private.h"
#include "net/rl_resolve.h"
#include "net/rl_net_private.h"

void rl_conn_drop_connect_state(rl_conn *conn)
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
	rl_conn_drop_connect_state(conn);
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
		rl_conn_drop_connect_state(conn);
		return connect_failed(out, err);
	}
	return connect_next_address(conn, out);
}

/* The streams this process opened (rl_conn.stream), counted by every thread. */
static uint64_t streams_opened;

static uint64_t next_stream(void)
{
#if defined(__GNUC__) || defined(__clang__)
	return __atomic_add_fetch(&streams_opened, 1, __ATOMIC_RELAXED);
#else /* no renewal thread there (rl_leases.h): one thread */
	return ++streams_opened;
#endif
}

int rl_conn_open(rl_conn *conn, const rl_endpoint *endpoint, double now, rl_outcome *out)
{
	char err[RL_MESSAGE_MAX - 16];
	int status;

	rl_conn_close(conn);
	conn->reopened = conn->was_ready; /* a connect that never succeeded does not count again */
	conn->was_ready = 0;
	conn->opens++;
	conn->stream = next_stream();
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
int rl_conn_finish_lookup(rl_conn *conn, rl_outcome *out)
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
int rl_conn_finish_connect(rl_conn *conn, rl_outcome *out)
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
		conn->was_ready = 1;
		rl_conn_drop_connect_state(conn);
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
