/* TLS on our own non-blocking sockets, with OpenSSL directly (Debian 12's hiredis 0.14 has no
 * TLS). A TLS connection goes CONNECTING -> HANDSHAKING -> READY (rl_conn.h); its reads and
 * writes go through SSL_read/SSL_write, whose "want read/write" become poll events. No zvals.
 *
 * The handshake counts against the server's timeout like the connect. Verification is on unless
 * the endpoint turns it off; a failure says why (expired, unknown issuer, name mismatch). The
 * private key is read from its file by us (not through stdio, whose buffer would keep a copy in
 * freed memory) and our copy is wiped. */
#ifndef RL_TLS_H
#define RL_TLS_H

#include <stddef.h>

struct rl_conn;
struct rl_endpoint;
struct rl_outcome;

typedef struct rl_tls_config {
	char *ca_file;      /* PEM bundle of trusted CAs; neither this nor ca_path: the system's store */
	char *ca_path;      /* a directory of hashed CA certificates */
	char *cert_file;    /* our certificate (chain) for mutual TLS */
	char *key_file;     /* its private key; defaults to cert_file */
	char *passphrase;   /* for an encrypted key: a secret, wiped when freed, never printed */
	char *peer_name;    /* the name to verify and send as SNI; default: the host */
	int verify_peer;      /* check the chain against the CAs (default 1) */
	int verify_peer_name; /* check the certificate names the host or peer_name (default 1) */
	void *ctx;          /* SSL_CTX, made at the first connect; connections hold references */
} rl_tls_config;

/* A config with verification on and nothing else set. NULL when out of memory. */
rl_tls_config *rl_tls_config_new(void);
/* A deep copy (the context is not shared: each copy makes its own). NULL when out of memory. */
rl_tls_config *rl_tls_config_copy(const rl_tls_config *from);
void rl_tls_config_free(rl_tls_config *config);

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

/* One SSL_read into the connection's reader: 0 (also when nothing was there, or at the end of
 * the stream: peer_closed), or -1 with the reason in *out (when not NULL). */
int rl_tls_read(struct rl_conn *conn, struct rl_outcome *out);

/* Decrypted bytes OpenSSL holds that poll() cannot see. */
int rl_tls_buffered(const struct rl_conn *conn);

/* Frees the SSL object (no close_notify: after a fork the socket is the parent's too). */
void rl_tls_free(struct rl_conn *conn);

/* The OpenSSL version this runs with, for phpinfo(). */
const char *rl_tls_version(void);

#endif
