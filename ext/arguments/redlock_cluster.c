/* Redis Cluster members in $servers: a cluster:// (clusters://) URI or a keyed array with "cluster",
 * into an endpoint whose node is the master of each call's slot (net/rl_shards.h). Zend glue:
 * reads and checks the fields, decides nothing. Credentials are never quoted. */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "arguments/redlock_keys.h"
#include "arguments/redlock_server_fields.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"

/* A cluster member's keys, in the order messages list them; each value is read once all are known.
 * "member": what RedLock::fromCluster() builds (net/rl_shards.h, rl_shards.pin). No "database": a cluster
 * has database 0 only. */
enum {
	CKEY_CLUSTER, CKEY_TIMEOUT, CKEY_USERNAME, CKEY_PASSWORD, CKEY_TLS, CKEY_MEMBER, CKEY_COUNT
};
static const redlock_key cluster_keys[] = {
	[CKEY_CLUSTER] = {"cluster", NULL},
	[CKEY_TIMEOUT] = {"timeout", NULL},
	[CKEY_USERNAME] = {"username", NULL},
	[CKEY_PASSWORD] = {"password", NULL},
	[CKEY_TLS] = {"tls", NULL},
	[CKEY_MEMBER] = {"member", NULL},
	[CKEY_COUNT] = {NULL, NULL}
};

/* The seeds in the endpoint's rl_shards; the endpoint starts at the first seed. */
static zend_result store(rl_cluster *cluster, size_t index, rl_endpoint_spec *spec, const rl_shards_spec *seeds)
{
	rl_shards *shards = rl_shards_create(seeds);
	int status;

	if (shards == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	spec->host = seeds->seeds.hosts[0];
	spec->host_len = strlen(seeds->seeds.hosts[0]);
	spec->port = seeds->seeds.ports[0];
	spec->database = 0;
	spec->shards = shards;
	status = rl_cluster_set_endpoint_spec(cluster, index, spec);
	rl_shards_free(shards);
	if (status != 0) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	return SUCCESS;
}

zend_result redlock_cluster_from_uri(rl_cluster *cluster, size_t index, const rl_uri *uri)
{
	rl_endpoint_spec spec;
	rl_shards_spec seeds;

	memset(&spec, 0, sizeof(spec));
	memset(&seeds, 0, sizeof(seeds));
	redlock_server_spec_from_uri(&spec, uri);
	seeds.seeds.count = uri->sentinel_count;
	seeds.seeds.hosts = (const char *const *) uri->sentinel_hosts;
	seeds.seeds.ports = uri->sentinel_ports;
	seeds.seeds.username = uri->username;
	seeds.seeds.password = uri->password;
	seeds.seeds.timeout_ms = spec.timeout_ms;
	seeds.seeds.tls = spec.tls;
	seeds.pin = uri->cluster_member;
	return store(cluster, index, &spec, &seeds);
}

bool redlock_cluster_keyed(HashTable *entry)
{
	return zend_hash_str_exists(entry, "cluster", sizeof("cluster") - 1);
}

/* "cluster": a non-empty list of "host[:port]" strings or [host, port] lists (port 6379 when
 * absent), hosts only. hosts[] are malloc'd, for the caller to free. */
static zend_result parse_seeds(zval *list, uint32_t arg_num, size_t index, char **hosts, int *ports, size_t *count)
{
	static const redlock_host_list seeds = {"cluster", "seed", RL_URI_DEFAULT_PORT, true};

	if (list == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must have \"cluster\": its seeds", index);
		return FAILURE;
	}
	return redlock_server_parse_host_list(list, &seeds, arg_num, index, hosts, ports, count);
}

zend_result redlock_cluster_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index)
{
	zval *slots[CKEY_COUNT] = {NULL};
	char *hosts[RL_URI_SENTINELS_MAX] = {NULL};
	int ports[RL_URI_SENTINELS_MAX] = {0};
	rl_endpoint_spec spec;
	rl_shards_spec seeds;
	rl_tls_config *tls = NULL;
	zend_result result = FAILURE;
	size_t count = 0, i;

	memset(&spec, 0, sizeof(spec));
	memset(&seeds, 0, sizeof(seeds));
	if (redlock_keys_read(cluster_keys, entry, arg_num, index, slots, NULL) != SUCCESS) {
		return FAILURE;
	}
	if (parse_seeds(slots[CKEY_CLUSTER], arg_num, index, hosts, ports, &count) != SUCCESS
		|| redlock_server_parse_timeout(slots[CKEY_TIMEOUT], arg_num, index, &spec.timeout_ms) != SUCCESS
		|| redlock_server_parse_credential(slots[CKEY_USERNAME], "username", arg_num, index, &spec.username, &spec.username_len) != SUCCESS
		|| redlock_server_parse_credential(slots[CKEY_PASSWORD], "password", arg_num, index, &spec.password, &spec.password_len) != SUCCESS
		|| (slots[CKEY_TLS] != NULL && redlock_server_parse_tls(slots[CKEY_TLS], arg_num, index, &tls) != SUCCESS)) {
		goto done;
	}
	if (spec.username != NULL && spec.password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu username needs a password", index);
		goto done;
	}
	if (slots[CKEY_MEMBER] != NULL) {
		zend_long number;

		if (redlock_server_parse_whole_number(slots[CKEY_MEMBER], "member", 0, 255, arg_num, index, &number) != SUCCESS) {
			goto done;
		}
		seeds.pin = (unsigned) number + 1;
	}
	spec.tls = tls;
	seeds.seeds.count = count;
	seeds.seeds.hosts = (const char *const *) hosts;
	seeds.seeds.ports = ports;
	seeds.seeds.username = spec.username;
	seeds.seeds.password = spec.password;
	seeds.seeds.timeout_ms = spec.timeout_ms;
	seeds.seeds.tls = tls;
	result = store(cluster, index, &spec, &seeds);
done:
	for (i = 0; i < count; i++) {
		free(hosts[i]);
	}
	rl_tls_config_free(tls);
	return result;
}
