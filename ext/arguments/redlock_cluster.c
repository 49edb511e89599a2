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
	zend_result result;

	spec->host = seeds->seeds.hosts[0];
	spec->host_len = strlen(seeds->seeds.hosts[0]);
	spec->port = seeds->seeds.ports[0];
	spec->database = 0;
	spec->shards = shards;
	result = redlock_server_store(cluster, index, spec, shards != NULL);
	rl_shards_free(shards);
	return result;
}

zend_result redlock_cluster_from_uri(rl_cluster *cluster, size_t index, const rl_uri *uri)
{
	rl_endpoint_spec spec;
	rl_shards_spec seeds;

	memset(&spec, 0, sizeof(spec));
	memset(&seeds, 0, sizeof(seeds));
	redlock_server_spec_from_uri(&spec, uri);
	redlock_server_seeds_from_uri(&seeds.seeds, uri, &spec);
	seeds.seeds.username = uri->username;
	seeds.seeds.password = uri->password;
	seeds.pin = uri->cluster_member;
	return store(cluster, index, &spec, &seeds);
}

bool redlock_cluster_keyed(HashTable *entry)
{
	return zend_hash_str_exists(entry, "cluster", sizeof("cluster") - 1);
}

zend_result redlock_cluster_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index)
{
	/* "cluster": a non-empty list of "host[:port]" strings or [host, port] lists (port 6379 when
	 * absent), hosts only */
	static const redlock_host_list seed_list = {"cluster", "seed", RL_URI_DEFAULT_PORT, true};
	zval *slots[CKEY_COUNT] = {NULL};
	redlock_seeds_owned own;
	rl_endpoint_spec spec;
	rl_shards_spec seeds;
	zend_result result = FAILURE;

	memset(&own, 0, sizeof(own));
	memset(&spec, 0, sizeof(spec));
	memset(&seeds, 0, sizeof(seeds));
	if (redlock_keys_read(cluster_keys, entry, arg_num, index, slots, NULL) != SUCCESS) {
		return FAILURE;
	}
	if (slots[CKEY_CLUSTER] == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must have \"cluster\": its seeds", index);
		return FAILURE;
	}
	if (redlock_server_parse_seeds(&seed_list, slots[CKEY_CLUSTER], slots[CKEY_TIMEOUT], slots[CKEY_USERNAME],
			slots[CKEY_PASSWORD], NULL, slots[CKEY_TLS], arg_num, index, &own, &spec, &seeds.seeds) != SUCCESS) {
		goto done;
	}
	if (slots[CKEY_MEMBER] != NULL) {
		zend_long number;

		if (redlock_server_parse_whole_number(slots[CKEY_MEMBER], "member", 0, 255, arg_num, index, &number) != SUCCESS) {
			goto done;
		}
		seeds.pin = (unsigned) number + 1;
	}
	seeds.seeds.username = spec.username;
	seeds.seeds.password = spec.password;
	result = store(cluster, index, &spec, &seeds);
done:
	redlock_server_seeds_free(&own);
	return result;
}
