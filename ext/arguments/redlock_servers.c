/* The PHP $servers argument to endpoints, and per-server reports back to PHP. See redlock_servers.h.
 * A password is copied into the endpoint and never into any message, warning or array. */
#include <limits.h>
#include <math.h>
#include <strings.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "memory/rl_memory_server.h"
#include "arguments/redlock_servers.h"
#include "arguments/redlock_keys.h"
#include "arguments/redlock_server_fields.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"

/* A keyed entry's keys, in the order messages list them; each value is read once all are known. */
enum { KEY_HOST, KEY_PORT, KEY_TIMEOUT, KEY_USERNAME, KEY_PASSWORD, KEY_DATABASE, KEY_TLS, KEY_COUNT };
static const redlock_key server_keys[] = {
	[KEY_HOST] = {"host", NULL},
	[KEY_PORT] = {"port", NULL},
	[KEY_TIMEOUT] = {"timeout", NULL},
	[KEY_USERNAME] = {"username", NULL},
	[KEY_PASSWORD] = {"password", NULL},
	[KEY_DATABASE] = {"database", NULL},
	[KEY_TLS] = {"tls", NULL},
	[KEY_COUNT] = {NULL, NULL}
};

/* One [host, port, timeout] entry, read as the PHP library reads it: elements 0, 1 and (optional) 2;
 * further elements are ignored, as its list($host, $port, $timeout) = $server does. */
static zend_result parse_list_entry(HashTable *entry, uint32_t arg_num, size_t index, rl_endpoint_spec *spec)
{
	zval *host = zend_hash_index_find_deref(entry, 0);
	zval *port = zend_hash_index_find_deref(entry, 1);
	zval *timeout = zend_hash_index_find_deref(entry, 2);

	if (host == NULL || port == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must be a list [host, port, timeout]", index);
		return FAILURE;
	}
	if (redlock_server_check_host(host, arg_num, index) != SUCCESS
		|| redlock_server_parse_port(port, Z_STRVAL_P(host)[0] == '/', arg_num, index, &spec->port) != SUCCESS
		|| redlock_server_parse_timeout(timeout, arg_num, index, &spec->timeout_ms) != SUCCESS) {
		return FAILURE;
	}
	spec->host = Z_STRVAL_P(host);
	spec->host_len = Z_STRLEN_P(host);
	return SUCCESS;
}

/* A member whose address is learnt (a Cluster member's seeds, a Sentinel member's sentinels and
 * master): its identity, and in *named (may be NULL) what a message names it by; NULL for a fixed
 * address. */
static const char *learnt_identity(const rl_endpoint *endpoint, const char **named)
{
	const char *identity = endpoint->shards != NULL ? endpoint->shards->identity
		: endpoint->sentinel != NULL ? endpoint->sentinel->identity : NULL;

	if (named != NULL) {
		*named = endpoint->shards != NULL || endpoint->sentinel == NULL ? identity : endpoint->sentinel->master_name;
	}
	return identity;
}

/* The same server twice would count twice in the quorum's denominator yet can grant the key only
 * once, so the list would tolerate fewer failures than it claims: reject it. Spelling aliases
 * (localhost vs 127.0.0.1) are not detected. */
static zend_result reject_duplicates(const rl_cluster *cluster, uint32_t arg_num)
{
	size_t i, j;

	for (i = 1; i < cluster->count; i++) {
		const rl_endpoint *later = &cluster->endpoints[i];
		for (j = 0; j < i; j++) {
			const rl_endpoint *earlier = &cluster->endpoints[j];
			const char *named, *later_id = learnt_identity(later, &named), *earlier_id = learnt_identity(earlier, NULL);

			if (later_id != NULL || earlier_id != NULL) {
				if (later_id != NULL && earlier_id != NULL && (later->shards != NULL) == (earlier->shards != NULL)
					&& strcasecmp(later_id, earlier_id) == 0) {
					zend_argument_value_error(arg_num, "server #%zu repeats server #%zu (%s %s): a server may "
						"vote only once", i, j, later->shards != NULL ? "cluster" : "sentinel master", named);
					return FAILURE;
				}
				continue;
			}
			if (later->host == NULL || earlier->host == NULL || strcasecmp(later->host, earlier->host) != 0) {
				continue;
			}
			if (later->host[0] == '/') {
				zend_argument_value_error(arg_num, "server #%zu repeats server #%zu (%s): a server may vote only once",
					i, j, later->host);
				return FAILURE;
			}
			if (later->port == earlier->port) {
				zend_argument_value_error(arg_num, "server #%zu repeats server #%zu (%s port %d): a server may vote only once",
					i, j, later->host, later->port);
				return FAILURE;
			}
		}
	}
	return SUCCESS;
}

/* One ['host' => ..., 'port' => ..., ...] entry. *tls: the entry's TLS settings, for the caller
 * to free. */
static zend_result parse_keyed_entry(HashTable *entry, uint32_t arg_num, size_t index, rl_endpoint_spec *spec,
	rl_tls_config **tls)
{
	zval *slots[KEY_COUNT] = {NULL};

	if (redlock_keys_read(server_keys, entry, arg_num, index, slots, NULL) != SUCCESS) {
		return FAILURE;
	}

	if (slots[KEY_HOST] == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must have a \"host\"", index);
		return FAILURE;
	}
	spec->port = RL_URI_DEFAULT_PORT;
	if (redlock_server_check_host(slots[KEY_HOST], arg_num, index) != SUCCESS
		|| (slots[KEY_PORT] != NULL && redlock_server_parse_port(slots[KEY_PORT], Z_STRVAL_P(slots[KEY_HOST])[0] == '/', arg_num, index, &spec->port) != SUCCESS)
		|| redlock_server_parse_timeout(slots[KEY_TIMEOUT], arg_num, index, &spec->timeout_ms) != SUCCESS
		|| redlock_server_parse_credential(slots[KEY_USERNAME], "username", arg_num, index, &spec->username, &spec->username_len) != SUCCESS
		|| redlock_server_parse_credential(slots[KEY_PASSWORD], "password", arg_num, index, &spec->password, &spec->password_len) != SUCCESS) {
		return FAILURE;
	}
	if (spec->username != NULL && spec->password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu username needs a password", index);
		return FAILURE;
	}
	if (slots[KEY_TLS] != NULL) {
		if (redlock_server_parse_tls(slots[KEY_TLS], arg_num, index, tls) != SUCCESS) {
			return FAILURE;
		}
		if (*tls != NULL && Z_STRVAL_P(slots[KEY_HOST])[0] == '/') {
			zend_argument_value_error(arg_num, "server #%zu tls is not available over a unix socket", index);
			return FAILURE;
		}
		spec->tls = *tls;
	}
	if (redlock_server_parse_database(slots[KEY_DATABASE], arg_num, index, &spec->database) != SUCCESS) {
		return FAILURE;
	}
	spec->host = Z_STRVAL_P(slots[KEY_HOST]);
	spec->host_len = Z_STRLEN_P(slots[KEY_HOST]);
	return SUCCESS;
}

static bool has_string_key(HashTable *entry)
{
	zend_string *key;

	ZEND_HASH_FOREACH_STR_KEY(entry, key) {
		if (key != NULL) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

/* A URI entry (redis://, rediss://, unix://, memory://, sentinel://, cluster://) as endpoint index. */
static zend_result add_from_uri(rl_cluster *cluster, zval *entry, uint32_t arg_num, size_t index)
{
	char error[RL_URI_ERROR_MAX], memory_path[RL_MEMORY_PATH_MAX];
	rl_endpoint_spec spec;
	zend_result result;
	rl_uri uri;

	memset(&spec, 0, sizeof(spec));
	if (rl_uri_parse(Z_STRVAL_P(entry), Z_STRLEN_P(entry), &uri, error, sizeof(error)) != 0) {
		zend_argument_value_error(arg_num, "server #%zu %s", index, error);
		return FAILURE;
	}
	if (uri.sentinel || uri.cluster) {
		result = uri.cluster ? redlock_cluster_from_uri(cluster, index, &uri) : redlock_sentinel_from_uri(cluster, index, &uri);
		rl_uri_free(&uri);
		return result;
	}
	spec.host = uri.host;
	spec.host_len = strlen(uri.host);
	spec.port = uri.port;
	if (uri.memory) {
		/* the test double: its in-process server's unix socket */
		if (rl_memory_server_path(uri.host, strlen(uri.host), memory_path, error, sizeof(error)) != 0) {
			rl_uri_free(&uri);
			zend_argument_value_error(arg_num, "server #%zu %s", index, error);
			return FAILURE;
		}
		spec.host = memory_path;
		spec.host_len = strlen(memory_path);
		spec.test_double = 1;
	}
	redlock_server_spec_from_uri(&spec, &uri);
	result = rl_cluster_set_endpoint_spec(cluster, index, &spec) == 0 ? SUCCESS : FAILURE;
	rl_uri_free(&uri);
	if (result != SUCCESS) {
		zend_throw_error(NULL, "RedLock: out of memory");
	}
	return result;
}

/* An array entry (keyed: a server, a Sentinel or a Cluster member; a list: [host, port, ...]) as
 * endpoint index. */
static zend_result add_from_array(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index)
{
	rl_endpoint_spec spec;
	rl_tls_config *tls = NULL;
	zend_result result;

	if (has_string_key(entry) && redlock_cluster_keyed(entry)) {
		return redlock_cluster_from_keyed(cluster, entry, arg_num, index);
	}
	if (has_string_key(entry) && redlock_sentinel_keyed(entry)) {
		return redlock_sentinel_from_keyed(cluster, entry, arg_num, index);
	}
	memset(&spec, 0, sizeof(spec));
	result = has_string_key(entry)
		? parse_keyed_entry(entry, arg_num, index, &spec, &tls)
		: parse_list_entry(entry, arg_num, index, &spec);
	if (result == SUCCESS) {
		result = rl_cluster_set_endpoint_spec(cluster, index, &spec) == 0 ? SUCCESS : FAILURE;
	}
	rl_tls_config_free(tls);
	if (EG(exception) != NULL) {
		return FAILURE;
	}
	if (result != SUCCESS) {
		zend_throw_error(NULL, "RedLock: out of memory");
	}
	return result;
}

/* Parses one entry and stores it as endpoint index. */
static zend_result add_server(rl_cluster *cluster, zval *entry, uint32_t arg_num, size_t index)
{
	ZVAL_DEREF(entry);
	if (Z_TYPE_P(entry) == IS_STRING) {
		return add_from_uri(cluster, entry, arg_num, index);
	}
	if (Z_TYPE_P(entry) == IS_ARRAY) {
		return add_from_array(cluster, Z_ARRVAL_P(entry), arg_num, index);
	}
	zend_argument_type_error(arg_num, "server #%zu must be of type array|string, %s given",
		index, zend_zval_type_name(entry));
	return FAILURE;
}

rl_cluster *redlock_servers_parse(HashTable *servers, uint32_t arg_num)
{
	uint32_t count = zend_hash_num_elements(servers);
	rl_cluster *cluster;
	zval *entry;
	size_t i = 0;

	if (count == 0) {
		zend_argument_value_error(arg_num, "must contain at least one server");
		return NULL;
	}
	cluster = rl_cluster_create(count);
	if (cluster == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return NULL;
	}
	ZEND_HASH_FOREACH_VAL(servers, entry) {
		if (add_server(cluster, entry, arg_num, i) != SUCCESS) {
			rl_cluster_destroy(cluster);
			return NULL;
		}
		i++;
	} ZEND_HASH_FOREACH_END();
	if (reject_duplicates(cluster, arg_num) != SUCCESS) {
		rl_cluster_destroy(cluster);
		return NULL;
	}
	if (rl_cluster_claim_clock(cluster) != 0) {
		zend_throw_error(NULL, "RedLock::__construct(): the test clock is moved (RedLockMemory::advance()), and an object "
			"on servers other than memory:// would see its leases run out early: call RedLockMemory::reset() first, or "
			"use memory:// servers only");
		rl_cluster_destroy(cluster);
		return NULL;
	}
	return cluster;
}

void redlock_servers_set_persistent(rl_cluster *cluster, bool persistent)
{
	/* Without memory for the pool keys the cluster simply keeps private connections. */
	if (persistent) {
		rl_cluster_use_pool(cluster, &REDLOCK_G(pool));
	}
}

void redlock_outcomes_reset(rl_outcome *outcomes, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		memset(&outcomes[i], 0, sizeof(outcomes[i]));
		outcomes[i].kind = RL_OUTCOME_YES;
	}
}

void redlock_outcomes_to_array(zval *return_value, const rl_outcome *outcomes, size_t count)
{
	size_t i;

	array_init_size(return_value, (uint32_t) count);
	for (i = 0; i < count; i++) {
		switch (outcomes[i].kind) {
			case RL_OUTCOME_YES:
				add_next_index_null(return_value);
				break;
			case RL_OUTCOME_PENDING:
				add_next_index_string(return_value, REDLOCK_NO_REPLY_NEEDED);
				break;
			default:
				add_next_index_string(return_value, outcomes[i].message[0] ? outcomes[i].message : "error");
				break;
		}
	}
}

void redlock_servers_describe(zval *return_value, const rl_cluster *cluster)
{
	size_t i;

	array_init_size(return_value, (uint32_t) cluster->count);
	for (i = 0; i < cluster->count; i++) {
		const rl_endpoint *endpoint = &cluster->endpoints[i];
		zend_string *text;

		if (endpoint->host == NULL) {
			add_next_index_null(return_value);
			continue;
		}
		/* Address and database only: never the user name or the password. */
		if (endpoint->shards != NULL) {
			text = strpprintf(0, "%s://%s", endpoint->tls ? "clusters" : "cluster", endpoint->shards->identity);
		} else if (endpoint->sentinel != NULL) {
			text = strpprintf(0, "%s://%s?db=%d", endpoint->tls ? "sentinels" : "sentinel", endpoint->sentinel->identity,
				endpoint->database);
		} else if (endpoint->host[0] == '/') {
			text = strpprintf(0, "unix://%s?db=%d", endpoint->host, endpoint->database);
		} else if (strchr(endpoint->host, ':') != NULL) {
			text = strpprintf(0, "%s://[%s]:%d/%d", endpoint->tls ? "rediss" : "redis", endpoint->host,
				endpoint->port, endpoint->database);
		} else {
			text = strpprintf(0, "%s://%s:%d/%d", endpoint->tls ? "rediss" : "redis", endpoint->host,
				endpoint->port, endpoint->database);
		}
		add_next_index_str(return_value, text);
	}
}
