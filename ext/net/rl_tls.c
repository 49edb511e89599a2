/* TLS with OpenSSL on our own sockets. See rl_tls.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
# include <unistd.h>
# include <arpa/inet.h>
#else
# include <io.h>
# include <ws2tcpip.h>
# define open _open
# define read(fd, buf, len) _read(fd, buf, (unsigned) (len))
# define close _close
# define O_CLOEXEC 0
#endif

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "net/rl_conn.h"
#include "net/rl_tls.h"
#include "net/rl_net_private.h"

static void wipe(void *bytes, size_t len)
{
	volatile unsigned char *p = bytes;
	while (len--) {
		*p++ = 0;
	}
}

static void free_secret(char *secret)
{
	if (secret != NULL) {
		wipe(secret, strlen(secret));
		free(secret);
	}
}

rl_tls_config *rl_tls_config_new(void)
{
	rl_tls_config *config = calloc(1, sizeof(*config));

	if (config != NULL) {
		config->verify_peer = 1;
		config->verify_peer_name = 1;
	}
	return config;
}

static int copy_field(char **to, const char *from)
{
	if (from == NULL) {
		*to = NULL;
		return 0;
	}
	*to = strdup(from);
	return *to != NULL ? 0 : -1;
}

rl_tls_config *rl_tls_config_copy(const rl_tls_config *from)
{
	rl_tls_config *config = rl_tls_config_new();

	if (config == NULL) {
		return NULL;
	}
	config->verify_peer = from->verify_peer;
	config->verify_peer_name = from->verify_peer_name;
	if (copy_field(&config->ca_file, from->ca_file) || copy_field(&config->ca_path, from->ca_path)
		|| copy_field(&config->cert_file, from->cert_file) || copy_field(&config->key_file, from->key_file)
		|| copy_field(&config->passphrase, from->passphrase) || copy_field(&config->peer_name, from->peer_name)) {
		rl_tls_config_free(config);
		return NULL;
	}
	return config;
}

void rl_tls_config_free(rl_tls_config *config)
{
	if (config == NULL) {
		return;
	}
	free(config->ca_file);
	free(config->ca_path);
	free(config->cert_file);
	free(config->key_file);
	free_secret(config->passphrase);
	free(config->peer_name);
	if (config->ctx != NULL) {
		SSL_CTX_free(config->ctx); /* connections still pooled keep their own reference */
	}
	free(config);
}

/* Appends a field: a presence byte, its bytes and a NUL, so that no two settings read alike. */
static size_t put_field(unsigned char *out, size_t size, size_t at, const char *field)
{
	size_t len = field ? strlen(field) + 1 : 0;

	if (at < size) {
		out[at] = field ? 1 : 0;
	}
	if (field != NULL && at + 1 + len <= size) {
		memcpy(out + at + 1, field, len);
	}
	return at + 1 + len;
}

size_t rl_tls_config_bytes(const rl_tls_config *config, unsigned char *out, size_t size)
{
	size_t at = 0;

	if (size >= 2) {
		out[0] = (unsigned char) config->verify_peer;
		out[1] = (unsigned char) config->verify_peer_name;
	}
	at = 2;
	at = put_field(out, size, at, config->ca_file);
	at = put_field(out, size, at, config->ca_path);
	at = put_field(out, size, at, config->cert_file);
	at = put_field(out, size, at, config->key_file);
	at = put_field(out, size, at, config->peer_name);
	at = put_field(out, size, at, config->passphrase);
	return at;
}

const char *rl_tls_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* The first error OpenSSL queued, as "what: reason", or what: fallback. Empties the queue. */
static void describe_error(char *message, size_t size, const char *what, const char *fallback)
{
	unsigned long code = ERR_get_error();
	const char *reason = code ? ERR_reason_error_string(code) : NULL;

#ifdef ERR_SYSTEM_ERROR
	if (code != 0 && ERR_SYSTEM_ERROR(code)) {
		reason = strerror(ERR_GET_REASON(code)); /* "No such file or directory" */
	}
#endif
	snprintf(message, size, "%s: %s", what, reason ? reason : fallback);
	ERR_clear_error();
}

static int passphrase_cb(char *buf, int size, int rwflag, void *userdata)
{
	const char *passphrase = userdata;
	size_t len = passphrase ? strlen(passphrase) : 0;

	(void) rwflag;
	if (len == 0 || len > (size_t) size) {
		return 0;
	}
	memcpy(buf, passphrase, len);
	return (int) len;
}

/* Reads a whole (small) file with read(2): unlike stdio, no buffer of ours is freed unwiped. */
static char *read_secret_file(const char *path, size_t *len, int *err)
{
	size_t cap = 4096, used = 0;
	char *buffer = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	for (;;) {
		long got;

		if (buffer == NULL || used == cap) {
			char *grown;
			if (buffer != NULL) {
				cap *= 2;
			}
			if (cap > (1 << 20) || (grown = malloc(cap)) == NULL) {
				*err = cap > (1 << 20) ? EFBIG : ENOMEM;
				break;
			}
			if (buffer != NULL) {
				memcpy(grown, buffer, used);
				wipe(buffer, used);
				free(buffer);
			}
			buffer = grown;
		}
		got = (long) read(fd, buffer + used, cap - used);
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got < 0) {
			*err = errno;
			break;
		}
		if (got == 0) {
			close(fd);
			*len = used;
			return buffer;
		}
		used += (size_t) got;
	}
	close(fd);
	if (buffer != NULL) {
		wipe(buffer, used);
		free(buffer);
	}
	return NULL;
}

static int load_private_key(SSL_CTX *ctx, const rl_tls_config *config, char *message, size_t size)
{
	const char *path = config->key_file ? config->key_file : config->cert_file;
	size_t len = 0;
	int err = 0;
	char *pem = read_secret_file(path, &len, &err);
	EVP_PKEY *key = NULL;
	BIO *bio;

	if (pem == NULL) {
		snprintf(message, size, "connect: tls: cannot read the private key %s: %s", path, strerror(err));
		return -1;
	}
	bio = BIO_new_mem_buf(pem, (int) len);
	if (bio != NULL) {
		key = PEM_read_bio_PrivateKey(bio, NULL, passphrase_cb, config->passphrase);
		BIO_free(bio);
	}
	wipe(pem, len);
	free(pem);
	if (key == NULL) {
		char what[RL_MESSAGE_MAX];
		snprintf(what, sizeof(what), "connect: tls: cannot load the private key %s", path);
		describe_error(message, size, what, "unreadable");
		return -1;
	}
	if (SSL_CTX_use_PrivateKey(ctx, key) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
		EVP_PKEY_free(key);
		describe_error(message, size, "connect: tls: the private key does not fit the certificate", "mismatch");
		return -1;
	}
	EVP_PKEY_free(key);
	return 0;
}

/* The context of an endpoint: CAs, our certificate and key. NULL with the reason in message. */
static SSL_CTX *make_context(const rl_tls_config *config, char *message, size_t size)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (ctx == NULL) {
		describe_error(message, size, "connect: tls: cannot create a context", "out of memory");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF); /* a close without close_notify is an end of file */
#endif
	if (config->verify_peer) {
		int loaded = config->ca_file || config->ca_path
			? SSL_CTX_load_verify_locations(ctx, config->ca_file, config->ca_path)
			: SSL_CTX_set_default_verify_paths(ctx);
		if (loaded != 1) {
			char what[RL_MESSAGE_MAX];
			snprintf(what, sizeof(what), "connect: tls: cannot load the CA %s %s", config->ca_file ? "file" : "path",
				config->ca_file ? config->ca_file : config->ca_path ? config->ca_path : "(system default)");
			describe_error(message, size, what, "unreadable");
			SSL_CTX_free(ctx);
			return NULL;
		}
	}
	SSL_CTX_set_verify(ctx, config->verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
	if (config->cert_file != NULL) {
		if (SSL_CTX_use_certificate_chain_file(ctx, config->cert_file) != 1) {
			char what[RL_MESSAGE_MAX];
			snprintf(what, sizeof(what), "connect: tls: cannot load the certificate %s", config->cert_file);
			describe_error(message, size, what, "unreadable");
			SSL_CTX_free(ctx);
			return NULL;
		}
		if (load_private_key(ctx, config, message, size) != 0) {
			SSL_CTX_free(ctx);
			return NULL;
		}
	}
	ERR_clear_error();
	return ctx;
}

static int is_ip_address(const char *host)
{
	unsigned char buffer[16];
	return inet_pton(AF_INET, host, buffer) == 1 || inet_pton(AF_INET6, host, buffer) == 1;
}

#if !defined(_WIN32) && defined(MSG_NOSIGNAL)
# include <pthread.h>
/* OpenSSL's socket BIO writes with write(), which raises SIGPIPE on a connection the server closed:
 * PHP's CLI ignores that signal, other SAPIs (embed, FrankenPHP) need not. The same BIO, writing
 * with send(MSG_NOSIGNAL) as our plain sockets do. */
static BIO_METHOD *nosigpipe_method;
static pthread_once_t nosigpipe_once = PTHREAD_ONCE_INIT;

static int nosigpipe_write(BIO *bio, const char *bytes, int len)
{
	long sent = rl_send((rl_socket) BIO_get_fd(bio, NULL), bytes, (size_t) (len > 0 ? len : 0));

	BIO_clear_retry_flags(bio);
	if (sent < 0 && rl_socket_would_block()) {
		BIO_set_retry_write(bio);
	}
	return (int) sent;
}

static void nosigpipe_init(void)
{
	const BIO_METHOD *socket = BIO_s_socket();
	BIO_METHOD *method = BIO_meth_new(BIO_TYPE_SOCKET, "redlock socket");

	if (method != NULL && BIO_meth_set_write(method, nosigpipe_write) == 1
		&& BIO_meth_set_read(method, BIO_meth_get_read(socket)) == 1
		&& BIO_meth_set_puts(method, BIO_meth_get_puts(socket)) == 1
		&& BIO_meth_set_ctrl(method, BIO_meth_get_ctrl(socket)) == 1
		&& BIO_meth_set_create(method, BIO_meth_get_create(socket)) == 1
		&& BIO_meth_set_destroy(method, BIO_meth_get_destroy(socket)) == 1) {
		nosigpipe_method = method;
	} else if (method != NULL) {
		BIO_meth_free(method);
	}
}

/* The session's BIO over the socket: ours, or OpenSSL's where ours could not be made. */
static int attach_socket(SSL *ssl, rl_socket fd)
{
	BIO *bio;

	pthread_once(&nosigpipe_once, nosigpipe_init);
	if (nosigpipe_method == NULL || (bio = BIO_new(nosigpipe_method)) == NULL) {
		return SSL_set_fd(ssl, (int) fd);
	}
	BIO_set_fd(bio, (int) fd, BIO_NOCLOSE);
	SSL_set_bio(ssl, bio, bio);
	return 1;
}
#else
static int attach_socket(SSL *ssl, rl_socket fd)
{
	return SSL_set_fd(ssl, (int) fd); /* Windows: send() raises no signal */
}
#endif

static int tls_failed(rl_conn *conn, rl_outcome *out, const char *message)
{
	(void) conn;
	rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
	return -1;
}

int rl_tls_start(rl_conn *conn, const rl_endpoint *endpoint, rl_outcome *out)
{
	rl_tls_config *config = endpoint->tls;
	const char *name = config->peer_name ? config->peer_name : endpoint->host;
	char message[RL_MESSAGE_MAX];
	SSL *ssl;

	ERR_clear_error();
	if (config->ctx == NULL) {
		config->ctx = make_context(config, message, sizeof(message));
		if (config->ctx == NULL) {
			return tls_failed(conn, out, message);
		}
	}
	ssl = SSL_new(config->ctx);
	if (ssl == NULL || attach_socket(ssl, conn->fd) != 1) {
		SSL_free(ssl);
		describe_error(message, sizeof(message), "connect: tls", "cannot create a session");
		return tls_failed(conn, out, message);
	}
	conn->tls = ssl;
	if (!is_ip_address(name)) {
		SSL_set_tlsext_host_name(ssl, name); /* SNI is for names only */
	}
	if (config->verify_peer && config->verify_peer_name) {
		X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
		int set = is_ip_address(name) ? X509_VERIFY_PARAM_set1_ip_asc(param, name)
			: X509_VERIFY_PARAM_set1_host(param, name, 0);
		if (set != 1) {
			describe_error(message, sizeof(message), "connect: tls: cannot check the peer name", "bad name");
			return tls_failed(conn, out, message);
		}
	}
	conn->state = RL_CONN_HANDSHAKING;
	return rl_tls_handshake(conn, out);
}

/* What SSL_get_error says beyond "wait": the message for an error, or NULL when it must wait
 * (conn->tls_want set). */
static const char *classify(rl_conn *conn, int result, const char *what, char *message, size_t size)
{
	SSL *ssl = conn->tls;
	int saved = errno;
	int error = SSL_get_error(ssl, result);

	switch (error) {
	case SSL_ERROR_WANT_READ:
		conn->tls_want = POLLIN;
		return NULL;
	case SSL_ERROR_WANT_WRITE:
		conn->tls_want = POLLOUT;
		return NULL;
	case SSL_ERROR_ZERO_RETURN:
		snprintf(message, size, "%s: the server closed the TLS session", what);
		return message;
	case SSL_ERROR_SYSCALL:
		if (ERR_peek_error() == 0) {
			if (saved == EAGAIN || saved == EWOULDBLOCK || saved == EINTR) {
				conn->tls_want = POLLIN | POLLOUT;
				return NULL;
			}
			snprintf(message, size, "%s: %s", what, saved ? strerror(saved) : "server closed the connection");
			ERR_clear_error();
			return message;
		}
		/* fall through */
	default: {
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "%s: tls", what);
		describe_error(message, size, prefix, "protocol error");
		return message;
	}
	}
}

int rl_tls_handshake(rl_conn *conn, rl_outcome *out)
{
	char message[RL_MESSAGE_MAX];
	const char *failure;
	int result;

	ERR_clear_error();
	result = SSL_connect(conn->tls);
	if (result == 1) {
		conn->state = RL_CONN_READY;
		conn->was_ready = 1;
		conn->tls_want = 0;
		return 0;
	}
	if (SSL_get_verify_result(conn->tls) != X509_V_OK) {
		/* Say which check failed: expired, unknown issuer, wrong name. */
		long verify = SSL_get_verify_result(conn->tls);
		snprintf(message, sizeof(message), "connect: tls: certificate verify failed: %s",
			X509_verify_cert_error_string(verify));
		ERR_clear_error();
		return tls_failed(conn, out, message);
	}
	failure = classify(conn, result, "connect", message, sizeof(message));
	if (failure == NULL) {
		return 0;
	}
	return tls_failed(conn, out, failure);
}

long rl_tls_send(rl_conn *conn, const char *bytes, size_t len)
{
	char message[RL_MESSAGE_MAX];
	const char *failure;
	int result;

	if (len > 1 << 30) {
		len = 1 << 30;
	}
	ERR_clear_error();
	result = SSL_write(conn->tls, bytes, (int) len);
	if (result > 0) {
		return result;
	}
	failure = classify(conn, result, "write", message, sizeof(message));
	if (failure == NULL) {
		return 0;
	}
	snprintf(conn->connect_error, sizeof(conn->connect_error), "%s", failure);
	return -1;
}

int rl_tls_read(rl_conn *conn, rl_outcome *out)
{
	char message[RL_MESSAGE_MAX];
	const char *failure;
	size_t room;
	char *space;
	int result, error;

	if (conn->peer_closed) {
		return 0;
	}
	space = rl_reader_space(&conn->reader, &room);
	ERR_clear_error();
	result = SSL_read(conn->tls, space, (int) room);
	if (result > 0) {
		rl_reader_fed(&conn->reader, (size_t) result);
		return 0;
	}
	error = SSL_get_error(conn->tls, result);
	if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && errno == 0)) {
		/* The end of the stream (with or without close_notify: RESP is self-delimiting, and a
		 * server at maxclients closes without one): what came before it is parsed first. */
		ERR_clear_error();
		conn->peer_closed = 1;
		return 0;
	}
	failure = classify(conn, result, "read", message, sizeof(message));
	if (failure == NULL) {
		return 0;
	}
	if (out != NULL) {
		rl_outcome_set(out, RL_OUTCOME_IO, failure);
	}
	return -1;
}

int rl_tls_buffered(const rl_conn *conn)
{
	return conn->tls != NULL && conn->state == RL_CONN_READY && !conn->peer_closed
		&& SSL_pending((SSL *) conn->tls) > 0;
}

void rl_tls_free(rl_conn *conn)
{
	if (conn->tls != NULL) {
		SSL_free(conn->tls);
		conn->tls = NULL;
	}
	conn->tls_want = 0;
}
