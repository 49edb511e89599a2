/* The fields of one $servers entry, shared by redlock_servers.c and redlock_sentinel.c: each reads
 * one zval and throws a ValueError/TypeError naming the server and the field. Zend glue. */
#ifndef REDLOCK_SERVER_FIELDS_H
#define REDLOCK_SERVER_FIELDS_H

#include "php.h"
#include "net/rl_cluster.h"
#include "net/rl_seeds.h"
#include "net/rl_uri.h"

zend_result redlock_server_check_host(zval *host, uint32_t arg_num, size_t index);
zend_result redlock_server_parse_whole_number(zval *value, const char *field, zend_long min, zend_long max,
	uint32_t arg_num, size_t index, zend_long *out);
zend_result redlock_server_parse_port(zval *port, bool unix_socket, uint32_t arg_num, size_t index, int *out);
/* "database" (0 and up) into *database; absent (NULL): *database as it was. */
zend_result redlock_server_parse_database(zval *value, uint32_t arg_num, size_t index, int *database);
zend_result redlock_server_parse_timeout(zval *timeout, uint32_t arg_num, size_t index, double *timeout_ms);
zend_result redlock_server_parse_credential(zval *value, const char *field, uint32_t arg_num, size_t index,
	const char **out, size_t *out_len);
zend_result redlock_server_parse_tls(zval *value, uint32_t arg_num, size_t index, rl_tls_config **out);

/* What every URI form gives its endpoint alike: the timeout (or the default), the credentials, the database
 * and TLS (pointing into uri, which must outlive spec's use). */
void redlock_server_spec_from_uri(rl_endpoint_spec *spec, const rl_uri *uri);

/* What a keyed entry's list of hosts is ("sentinels", "cluster"), for its messages and its defaults. */
typedef struct {
	const char *field; /* its key: "sentinels", "cluster" */
	const char *item;  /* one of it in messages: "sentinel" ("sentinel #2", "1 to 5 sentinels"), "seed" */
	int default_port;  /* where an entry gives none */
	bool hosts_only;   /* a unix socket refused */
} redlock_host_list;

/* A non-empty list of 1 to RL_URI_SENTINELS_MAX "host[:port]" strings or [host, port] lists: hosts[] are
 * malloc'd (*count of them, for the caller to free, also on FAILURE), ports[] beside them. */
zend_result redlock_server_parse_host_list(zval *list, const redlock_host_list *kind, uint32_t arg_num, size_t index,
	char **hosts, int *ports, size_t *count);

/* What a learnt member's servers to ask (a Sentinel member's sentinels, a Cluster member's seeds) take
 * from its URI alike: the URI's hosts and ports, the endpoint's timeout and TLS (spec, as
 * redlock_server_spec_from_uri filled it). Their credentials are the caller's to set. */
void redlock_server_seeds_from_uri(rl_seeds_spec *seeds, const rl_uri *uri, const rl_endpoint_spec *spec);

/* What a keyed learnt member's fields own once read: the hosts of its list and its TLS settings. */
typedef struct {
	char *hosts[RL_URI_SENTINELS_MAX]; /* malloc'd */
	int ports[RL_URI_SENTINELS_MAX];
	size_t count;
	rl_tls_config *tls;
} redlock_seeds_owned;

/* The seeds' own credentials when they are not the endpoint's (a Sentinel member's sentinel_username
 * and sentinel_password): the keys' values (NULL: absent) and their names, for the messages. */
typedef struct {
	zval *username, *password;
	const char *username_key, *password_key;
} redlock_seeds_credentials;

/* The fields a keyed Sentinel or Cluster member shares: its list of hosts (kind) and the endpoint's
 * "timeout", "username", "password", then the seeds' own credentials (credentials: NULL when they have
 * none) into seeds' username and password, then "tls" (NULL: absent), and last 'a username needs a
 * password' (the order every message comes in, as before the fields were read here), into spec and seeds
 * (hosts, ports, timeout, TLS; with credentials NULL, the credentials seeds use are the caller's to set).
 * own: zeroed by the caller, freed with redlock_server_seeds_free(), also on FAILURE. */
zend_result redlock_server_parse_seeds(const redlock_host_list *kind, zval *list, zval *timeout, zval *username,
	zval *password, const redlock_seeds_credentials *credentials, zval *tls, uint32_t arg_num, size_t index,
	redlock_seeds_owned *own, rl_endpoint_spec *spec, rl_seeds_spec *seeds);
void redlock_server_seeds_free(redlock_seeds_owned *own);

/* spec, a learnt member's, as endpoint index; made: whether its rl_sentinel or rl_shards was made (the
 * caller frees it after). FAILURE with "out of memory" thrown when it was not, or the copy ran out. */
zend_result redlock_server_store(rl_cluster *cluster, size_t index, const rl_endpoint_spec *spec, bool made);

/* redlock_sentinel.c: whether a keyed entry is a Sentinel member (it has "sentinels" or "master"); a
 * sentinel:// URI already parsed, and such a keyed entry, into endpoint index. FAILURE with an
 * exception thrown. */
bool redlock_sentinel_keyed(HashTable *entry);
zend_result redlock_sentinel_from_uri(rl_cluster *cluster, size_t index, const rl_uri *uri);
zend_result redlock_sentinel_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index);

/* redlock_cluster.c: the same for a Redis Cluster member (cluster://, clusters://, a keyed entry with
 * "cluster"). */
bool redlock_cluster_keyed(HashTable *entry);
zend_result redlock_cluster_from_uri(rl_cluster *cluster, size_t index, const rl_uri *uri);
zend_result redlock_cluster_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index);

#endif
