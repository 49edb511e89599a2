/* Redis Cluster members in $servers: a cluster:// (clusters://) URI or a keyed array with "cluster",
 * into an endpoint whose node is the master of each call's slot (net/rl_shards.h). Zend glue:
 * reads and checks the fields, decides nothing. Credentials are never quoted. */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_server_fields.h"
#include "redlock_servers.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"
#include "net/rl_platform.h"

#define KNOWN_CLUSTER_KEYS "cluster, timeout, username, password, tls, member"

/* The seeds in the endpoint's rl_shards; the endpoint starts at the first seed. */
static zend_result store(rl_cluster *cluster, size_t index, rl_endpoint_spec *spec, const rl_shards_spec *seeds)
{
	rl_shards *shards = rl_shards_create(seeds);
	int status;

	if (shards == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	spec->host = seeds->hosts[0];
	spec->host_len = strlen(seeds->hosts[0]);
	spec->port = seeds->ports[0];
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
	spec.timeout_ms = uri->has_timeout ? uri->timeout_ms : REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
	spec.username = uri->username;
	spec.username_len = uri->username ? strlen(uri->username) : 0;
	spec.password = uri->password;
	spec.password_len = uri->password ? strlen(uri->password) : 0;
	spec.tls = uri->tls ? &uri->tls_config : NULL;
	seeds.count = uri->sentinel_count;
	seeds.hosts = (const char *const *) uri->sentinel_hosts;
	seeds.ports = uri->sentinel_ports;
	seeds.username = uri->username;
	seeds.password = uri->password;
	seeds.timeout_ms = spec.timeout_ms;
	seeds.tls = spec.tls;
	seeds.pin = uri->cluster_member;
	return store(cluster, index, &spec, &seeds);
}

bool redlock_cluster_keyed(HashTable *entry)
{
	return zend_hash_str_exists(entry, "cluster", sizeof("cluster") - 1);
}

/* "cluster": a non-empty list of "host[:port]" strings or [host, port] lists (port 6379 when
 * absent). hosts[] are malloc'd, for the caller to free. */
static zend_result parse_seeds(zval *list, uint32_t arg_num, size_t index, char **hosts, int *ports, size_t *count)
{
	zval *one;

	if (Z_TYPE_P(list) != IS_ARRAY) {
		zend_argument_type_error(arg_num, "server #%zu cluster must be of type array, %s given", index,
			zend_zval_type_name(list));
		return FAILURE;
	}
	if (zend_hash_num_elements(Z_ARRVAL_P(list)) == 0 || zend_hash_num_elements(Z_ARRVAL_P(list)) > RL_URI_SENTINELS_MAX) {
		zend_argument_value_error(arg_num, "server #%zu cluster must list 1 to %d seeds", index, RL_URI_SENTINELS_MAX);
		return FAILURE;
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(list), one) {
		ZVAL_DEREF(one);
		if (Z_TYPE_P(one) == IS_STRING) {
			char error[RL_URI_ERROR_MAX];

			if (rl_uri_parse_host_port(Z_STRVAL_P(one), Z_STRLEN_P(one), RL_URI_DEFAULT_PORT, &hosts[*count],
					&ports[*count], error, sizeof(error)) != 0) {
				zend_argument_value_error(arg_num, "server #%zu seed #%zu must be \"host:port\" (%s)", index, *count, error);
				return FAILURE;
			}
		} else if (Z_TYPE_P(one) == IS_ARRAY) {
			zval *host = zend_hash_index_find_deref(Z_ARRVAL_P(one), 0);
			zval *port = zend_hash_index_find_deref(Z_ARRVAL_P(one), 1);

			ports[*count] = RL_URI_DEFAULT_PORT;
			if (host == NULL) {
				zend_argument_value_error(arg_num, "server #%zu seed #%zu must be a list [host, port]", index, *count);
				return FAILURE;
			}
			if (redlock_server_check_host(host, arg_num, index) != SUCCESS
				|| (port != NULL && redlock_server_parse_port(port, false, arg_num, index, &ports[*count]) != SUCCESS)) {
				return FAILURE;
			}
			if (Z_STRVAL_P(host)[0] == '/') {
				zend_argument_value_error(arg_num, "server #%zu seed #%zu must be a host, not a unix socket", index, *count);
				return FAILURE;
			}
			if ((hosts[*count] = strdup(Z_STRVAL_P(host))) == NULL) {
				zend_throw_error(NULL, "RedLock: out of memory");
				return FAILURE;
			}
		} else {
			zend_argument_type_error(arg_num, "server #%zu seed #%zu must be of type string|array, %s given", index,
				*count, zend_zval_type_name(one));
			return FAILURE;
		}
		(*count)++;
	} ZEND_HASH_FOREACH_END();
	return SUCCESS;
}

zend_result redlock_cluster_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index)
{
	zval *list = NULL, *timeout = NULL, *username = NULL, *password = NULL, *tls_value = NULL, *member = NULL;
	char *hosts[RL_URI_SENTINELS_MAX] = {NULL};
	int ports[RL_URI_SENTINELS_MAX] = {0};
	rl_endpoint_spec spec;
	rl_shards_spec seeds;
	rl_tls_config *tls = NULL;
	zend_result result = FAILURE;
	zend_string *key;
	zval *value;
	size_t count = 0, i;

	memset(&spec, 0, sizeof(spec));
	memset(&seeds, 0, sizeof(seeds));
	ZEND_HASH_FOREACH_STR_KEY_VAL(entry, key, value) {
		ZVAL_DEREF(value);
		if (key == NULL) {
			zend_argument_value_error(arg_num, "server #%zu must not mix list items with the keys " KNOWN_CLUSTER_KEYS, index);
			return FAILURE;
		}
		if (zend_string_equals_literal(key, "cluster")) {
			list = value;
		} else if (zend_string_equals_literal(key, "timeout")) {
			timeout = value;
		} else if (zend_string_equals_literal(key, "username")) {
			username = value;
		} else if (zend_string_equals_literal(key, "password")) {
			password = value;
		} else if (zend_string_equals_literal(key, "tls")) {
			tls_value = value;
		} else if (zend_string_equals_literal(key, "member")) {
			member = value;
		} else if (zend_string_equals_literal(key, "database")) {
			zend_argument_value_error(arg_num, "server #%zu: a cluster has database 0 only (no \"database\" key)", index);
			return FAILURE;
		} else {
			zend_argument_value_error(arg_num, "server #%zu has an unknown key \"%s\" (known: " KNOWN_CLUSTER_KEYS ")",
				index, ZSTR_VAL(key));
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();

	if (parse_seeds(list, arg_num, index, hosts, ports, &count) != SUCCESS
		|| redlock_server_parse_timeout(timeout, arg_num, index, &spec.timeout_ms) != SUCCESS
		|| redlock_server_parse_credential(username, "username", arg_num, index, &spec.username, &spec.username_len) != SUCCESS
		|| redlock_server_parse_credential(password, "password", arg_num, index, &spec.password, &spec.password_len) != SUCCESS
		|| (tls_value != NULL && redlock_server_parse_tls(tls_value, arg_num, index, &tls) != SUCCESS)) {
		goto done;
	}
	if (spec.username != NULL && spec.password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu username needs a password", index);
		goto done;
	}
	if (member != NULL) {
		zend_long number;

		if (redlock_server_parse_whole_number(member, "member", 0, 255, arg_num, index, &number) != SUCCESS) {
			goto done;
		}
		seeds.pin = (unsigned) number + 1;
	}
	spec.tls = tls;
	seeds.count = count;
	seeds.hosts = (const char *const *) hosts;
	seeds.ports = ports;
	seeds.username = spec.username;
	seeds.password = spec.password;
	seeds.timeout_ms = spec.timeout_ms;
	seeds.tls = tls;
	result = store(cluster, index, &spec, &seeds);
done:
	for (i = 0; i < count; i++) {
		free(hosts[i]);
	}
	rl_tls_config_free(tls);
	return result;
}

/* RedLock::fromCluster($seeds, ...): the seeds as one cluster member, its masters counted (at least 3),
 * then a RedLock whose member i is that cluster with "member" => i (net/rl_shards.h: the i-th master
 * by lowest slot, keys with a hash tag on it). The placement is decided below the glue. */
PHP_METHOD(RedLock, fromCluster)
{
	zval *seeds, *options = NULL, entry, servers, args[4];
	zend_long retry_delay = REDLOCK_DEFAULT_RETRY_DELAY, retry_count = REDLOCK_DEFAULT_RETRY_COUNT;
	HashTable probe_list;
	rl_cluster *probe;
	rl_outcome out;
	int masters, i;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ZVAL(seeds)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(retry_delay)
		Z_PARAM_LONG(retry_count)
		Z_PARAM_ARRAY(options)
	ZEND_PARSE_PARAMETERS_END();

	ZVAL_DEREF(seeds);
	if (Z_TYPE_P(seeds) == IS_STRING) {
		if (strncasecmp(Z_STRVAL_P(seeds), "cluster://", 10) == 0 || strncasecmp(Z_STRVAL_P(seeds), "clusters://", 11) == 0) {
			ZVAL_COPY(&entry, seeds);
		} else {
			ZVAL_STR(&entry, zend_strpprintf(0, "cluster://%s", Z_STRVAL_P(seeds)));
		}
	} else if (Z_TYPE_P(seeds) == IS_ARRAY) {
		if (zend_hash_str_exists(Z_ARRVAL_P(seeds), "cluster", sizeof("cluster") - 1)) {
			ZVAL_COPY(&entry, seeds);
		} else {
			array_init(&entry);
			Z_TRY_ADDREF_P(seeds);
			add_assoc_zval(&entry, "cluster", seeds);
		}
	} else {
		zend_argument_type_error(1, "must be of type array|string, %s given", zend_zval_type_name(seeds));
		RETURN_THROWS();
	}
	if (Z_TYPE(entry) == IS_STRING ? strstr(Z_STRVAL(entry), "member=") != NULL
		: zend_hash_str_exists(Z_ARRVAL(entry), "member", sizeof("member") - 1)) {
		zval_ptr_dtor(&entry);
		zend_argument_value_error(1, "must not name a member: fromCluster() gives each master its own");
		RETURN_THROWS();
	}
	zend_hash_init(&probe_list, 1, NULL, NULL, 0);
	zend_hash_next_index_insert(&probe_list, &entry);
	probe = redlock_servers_parse(&probe_list, 1);
	zend_hash_destroy(&probe_list);
	if (probe == NULL) {
		zval_ptr_dtor(&entry);
		RETURN_THROWS();
	}
	{
		const rl_endpoint *endpoint = &probe->endpoints[0];
		double bound = endpoint->timeout_ms > 0 ? endpoint->timeout_ms : RL_DEFAULT_CALL_BOUND_MS;

		memset(&out, 0, sizeof(out));
		masters = rl_shards_masters(endpoint->shards, rl_now_ms() + bound, &out);
	}
	rl_cluster_destroy(probe);
	if (masters < 0) {
		zval_ptr_dtor(&entry);
		zend_throw_exception_ex(redlock_exception_ce, 0, "RedLock::fromCluster(): %s", out.message);
		RETURN_THROWS();
	}
	if (masters < 3) {
		zval_ptr_dtor(&entry);
		zend_argument_value_error(1, "names a cluster of %d master%s: fromCluster() needs at least 3 (a quorum of masters)",
			masters, masters == 1 ? "" : "s");
		RETURN_THROWS();
	}
	array_init_size(&servers, (uint32_t) masters);
	for (i = 0; i < masters; i++) {
		zval one;

		if (Z_TYPE(entry) == IS_STRING) {
			ZVAL_STR(&one, zend_strpprintf(0, "%s%smember=%d", Z_STRVAL(entry), strchr(Z_STRVAL(entry), '?') ? "&" : "?", i));
		} else {
			ZVAL_ARR(&one, zend_array_dup(Z_ARRVAL(entry)));
			add_assoc_long(&one, "member", i);
		}
		add_next_index_zval(&servers, &one);
	}
	zval_ptr_dtor(&entry);
	object_init_ex(return_value, redlock_ce);
	ZVAL_COPY_VALUE(&args[0], &servers);
	ZVAL_LONG(&args[1], retry_delay);
	ZVAL_LONG(&args[2], retry_count);
	if (options != NULL) {
		ZVAL_COPY_VALUE(&args[3], options);
	} else {
		array_init(&args[3]);
	}
	zend_call_known_instance_method(redlock_ce->constructor, Z_OBJ_P(return_value), NULL, 4, args);
	zval_ptr_dtor(&servers);
	if (options == NULL) {
		zval_ptr_dtor(&args[3]);
	}
	if (EG(exception) != NULL) {
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
		RETURN_THROWS();
	}
}
