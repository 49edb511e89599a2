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
void rl_tls_config_free(rl_tls_config *config);

/* One SSL_read into the connection's reader: 0 (also when nothing was there, or at the end of
 * the stream: peer_closed), or -1 with the reason in *out (when not NULL). */
int rl_tls_read(struct rl_conn *conn, struct rl_outcome *out);

/* The OpenSSL version this runs with, for phpinfo(). */
const char *rl_tls_version(void);

#endif
