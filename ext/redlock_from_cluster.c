/* RedLock::fromCluster(): a RedLock over one Redis Cluster's masters (docs/guide/cluster.md). The API
 * face: the seeds read as one cluster member (arguments/redlock_cluster.c), its masters counted below the
 * glue (net/rl_shards.h), then the constructor with one member per master. Decides nothing. */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "runtime/redlock_object.h"
#include "arguments/redlock_servers.h"
#include "net/rl_platform.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"

/* Whether a cluster URI names a member (?member=i) as its parser reads it: "member=" in a password
 * ("cluster://u:pmember=1@host", "?password=xmember=2") names none. A URI that does not parse names
 * none here: the constructor's parse refuses it, naming what is wrong. */
static bool names_member(const char *text, size_t len)
{
	char error[RL_URI_ERROR_MAX];
	rl_uri uri;
	bool named;

	if (rl_uri_parse(text, len, &uri, error, sizeof(error)) != 0) {
		return false;
	}
	named = uri.cluster_member != 0;
	rl_uri_free(&uri);
	return named;
}

/* The seeds (a string or an array) as one cluster member's entry in *entry: "cluster://" put before a
 * bare string, {"cluster": seeds} around a bare list. 0, or -1 with the TypeError or ValueError thrown
 * (a member named: fromCluster() numbers them itself). */
static int seeds_as_member(zval *seeds, zval *entry)
{
	ZVAL_DEREF(seeds);
	if (Z_TYPE_P(seeds) == IS_STRING) {
		if (strncasecmp(Z_STRVAL_P(seeds), "cluster://", 10) == 0 || strncasecmp(Z_STRVAL_P(seeds), "clusters://", 11) == 0) {
			ZVAL_COPY(entry, seeds);
		} else {
			ZVAL_STR(entry, zend_strpprintf(0, "cluster://%s", Z_STRVAL_P(seeds)));
		}
	} else if (Z_TYPE_P(seeds) == IS_ARRAY) {
		if (zend_hash_str_exists(Z_ARRVAL_P(seeds), "cluster", sizeof("cluster") - 1)) {
			ZVAL_COPY(entry, seeds);
		} else {
			array_init(entry);
			Z_TRY_ADDREF_P(seeds);
			add_assoc_zval(entry, "cluster", seeds);
		}
	} else {
		zend_argument_type_error(1, "must be of type array|string, %s given", zend_zval_type_name(seeds));
		return -1;
	}
	if (Z_TYPE_P(entry) == IS_STRING ? names_member(Z_STRVAL_P(entry), Z_STRLEN_P(entry))
		: zend_hash_str_exists(Z_ARRVAL_P(entry), "member", sizeof("member") - 1)) {
		zval_ptr_dtor(entry);
		zend_argument_value_error(1, "must not name a member: fromCluster() gives each master its own");
		return -1;
	}
	return 0;
}

/* The masters of the cluster entry names (below the glue: rl_shards_masters), within its timeout or
 * the default call bound: their number, or -1 with the exception thrown. */
static int count_masters(zval *entry)
{
	HashTable probe_list;
	rl_cluster *probe;
	rl_outcome out;
	int masters;

	zend_hash_init(&probe_list, 1, NULL, NULL, 0);
	zend_hash_next_index_insert(&probe_list, entry);
	probe = redlock_servers_parse(&probe_list, 1);
	zend_hash_destroy(&probe_list);
	if (probe == NULL) {
		return -1;
	}
	{
		const rl_endpoint *endpoint = &probe->endpoints[0];
		double bound = endpoint->timeout_ms > 0 ? endpoint->timeout_ms : RL_DEFAULT_CALL_BOUND_MS;

		memset(&out, 0, sizeof(out));
		masters = rl_shards_masters(endpoint->shards, rl_now_ms() + bound, &out);
	}
	rl_cluster_destroy(probe);
	if (masters < 0) {
		zend_throw_exception_ex(redlock_exception_ce, 0, "RedLock::fromCluster(): %s", out.message);
		return -1;
	}
	if (masters < 3) {
		zend_argument_value_error(1, "names a cluster of %d master%s: fromCluster() needs at least 3 (a quorum of masters)",
			masters, masters == 1 ? "" : "s");
		return -1;
	}
	return masters;
}

/* The server list: entry once per master, with "member" => i. */
static void one_member_per_master(const zval *entry, int masters, zval *servers)
{
	int i;

	array_init_size(servers, (uint32_t) masters);
	for (i = 0; i < masters; i++) {
		zval one;

		if (Z_TYPE_P(entry) == IS_STRING) {
			ZVAL_STR(&one, zend_strpprintf(0, "%s%smember=%d", Z_STRVAL_P(entry), strchr(Z_STRVAL_P(entry), '?') ? "&" : "?", i));
		} else {
			ZVAL_ARR(&one, zend_array_dup(Z_ARRVAL_P(entry)));
			add_assoc_long(&one, "member", i);
		}
		add_next_index_zval(servers, &one);
	}
}

/* RedLock::fromCluster($seeds, ...): the seeds as one cluster member, its masters counted (at least 3),
 * then a RedLock whose member i is that cluster with "member" => i (net/rl_shards.h: the i-th master
 * by median slot, keys with a hash tag on it). The placement is decided below the glue. */
PHP_METHOD(RedLock, fromCluster)
{
	zval *seeds, *options = NULL, entry, servers, args[4];
	zend_long retry_delay = REDLOCK_DEFAULT_RETRY_DELAY, retry_count = REDLOCK_DEFAULT_RETRY_COUNT;
	int masters;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ZVAL(seeds)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(retry_delay)
		Z_PARAM_LONG(retry_count)
		Z_PARAM_ARRAY(options)
	ZEND_PARSE_PARAMETERS_END();

	if (seeds_as_member(seeds, &entry) != 0) {
		RETURN_THROWS();
	}
	if ((masters = count_masters(&entry)) < 0) {
		zval_ptr_dtor(&entry);
		RETURN_THROWS();
	}
	one_member_per_master(&entry, masters, &servers);
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
