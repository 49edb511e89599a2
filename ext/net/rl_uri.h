/* Server URIs: redis://[user[:password]@]host[:port][/db][?timeout=S], rediss:// (TLS, with
 * cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name in the
 * query) and
 * unix:///path/to.sock[?db=N&timeout=S&password=P], and memory://NAME (the test double's
 * in-process server: letters, digits, '.', '_', '-', at most 64), and
 * sentinel://[user:password@]host[:port][,host[:port]...]/MASTERNAME[?query] (sentinels:// with TLS): a
 * member whose master the sentinels name (net/rl_sentinel.h); the user info and username/password are the
 * master's, sentinel_username/sentinel_password the sentinels', and
 * cluster://[user:password@]host[:port][,host[:port]...][?query] (clusters:// with TLS): a Redis Cluster
 * as one member, whose seeds are host:port (net/rl_shards.h). Plain C, no zvals, no I/O, so a fuzzer can
 * drive it with arbitrary bytes. Error messages never quote the input: a URI may hold a password. */
#ifndef RL_URI_H
#define RL_URI_H

#include <stddef.h>
#include "net/rl_tls.h"

#define RL_URI_DEFAULT_PORT 6379
#define RL_URI_ERROR_MAX 224
#define RL_URI_DEFAULT_SENTINEL_PORT 26379
#define RL_URI_SENTINELS_MAX 16

/* The longest timeout of a server (seconds), however given: a [host, port, timeout] list, a keyed
 * array, a URI's ?timeout=, a sentinel member's (docs/guide/options.md#upper-bounds). It bounds each
 * call on the server, connect included, and so how long a silent server holds a call up: PHP's own
 * default_socket_timeout. 0 keeps meaning "none", which a call bounds by its own deadline. */
#define RL_TIMEOUT_MAX_SECONDS 60

/* Whether seconds is a server timeout we take: 0 <= seconds <= RL_TIMEOUT_MAX_SECONDS (NAN is not). */
static inline int rl_timeout_seconds_ok(double seconds)
{
	return seconds >= 0 && seconds <= RL_TIMEOUT_MAX_SECONDS;
}

typedef struct rl_uri {
	char *host;        /* malloc'd; for unix:// the socket path, which starts with '/' */
	int port;          /* 0 for unix sockets */
	long database;     /* 0 unless given */
	double timeout_ms; /* meaningful only when has_timeout */
	int has_timeout;
	char *username;    /* malloc'd, NULL when none (then the password alone authenticates) */
	char *password;    /* malloc'd, NULL when none */
	int tls;           /* rediss://: tls_config holds the settings (its ctx stays NULL) */
	int memory;        /* memory://: host is the NAME (memory/rl_memory_server.h gives its socket) */
	rl_tls_config tls_config;
	/* sentinel:// and sentinels://: host is NULL; the sentinels' addresses, the master's name and
	 * the sentinels' own credentials (NULL when none) */
	int sentinel;
	size_t sentinel_count;
	char *sentinel_hosts[RL_URI_SENTINELS_MAX]; /* malloc'd */
	int sentinel_ports[RL_URI_SENTINELS_MAX];
	char *master_name;       /* malloc'd */
	char *sentinel_username; /* malloc'd */
	char *sentinel_password; /* malloc'd */
	/* cluster:// and clusters://: host is NULL; the seeds are in sentinel_hosts/sentinel_ports
	 * (sentinel_count of them), the credentials and TLS are every node's */
	int cluster;
	unsigned cluster_member; /* ?member=I (what RedLock::fromCluster builds): I + 1; 0 when absent */
} rl_uri;

/* Parses len bytes of text (need not be NUL-terminated). Returns 0 with *out filled (release
 * with rl_uri_free), or -1 with *out empty and a reason in error, e.g. "URI port must be ...". */
int rl_uri_parse(const char *text, size_t len, rl_uri *out, char *error, size_t error_size);

/* One "host[:port]" (IPv6 in brackets) of len bytes: *host malloc'd, *port default_port when
 * absent. 0, or -1 with a reason in error. For the keyed form's list of sentinels. */
int rl_uri_parse_host_port(const char *text, size_t len, int default_port, char **host, int *port, char *error,
	size_t error_size);

/* A list of seeds (a cluster's, a Sentinel member's sentinels) where seeds are written with a scheme, as
 * "rediss://host:port": a seed is host:port, its TLS the member's (clusters:// or sentinels://, or the keyed
 * form's "tls"), the same for every seed. texts: count seeds (lens bytes each); a seed without a scheme
 * counts as TLS when bare_tls (the URI's own scheme). 0 when no seed has a scheme; else -1 with error: that
 * the seeds mix TLS and plain (a TLS scheme beside a plain one or a bare seed that is not TLS), or that a
 * seed takes no scheme. */
int rl_uri_seed_schemes(const char *const *texts, const size_t *lens, size_t count, int bare_tls, char *error,
	size_t error_size);

/* Whether name may name a Sentinel master: 1 to 128 letters, digits, '.', '_', '-'. */
int rl_uri_master_name_ok(const char *name, size_t len);

/* Frees the strings, wiping the password first. Safe on a zeroed or already freed rl_uri. */
void rl_uri_free(rl_uri *uri);

#endif
