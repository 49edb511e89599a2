/* The PHP $servers argument to endpoints. See redlock_servers.h. */
#include <math.h>
#include <strings.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "redlock_servers.h"

typedef struct {
	zend_string *host;
	zend_long port;
	double timeout_ms;
} server_spec;

/* One [host, port, timeout] entry. Returns SUCCESS, or FAILURE with an exception thrown. */
static zend_result parse_list_entry(HashTable *entry, uint32_t arg_num, zend_ulong index, server_spec *spec)
{
	zval *host = zend_hash_index_find_deref(entry, 0);
	zval *port = zend_hash_index_find_deref(entry, 1);
	zval *timeout = zend_hash_index_find_deref(entry, 2);
	uint32_t expected = timeout ? 3 : 2;

	if (host == NULL || port == NULL || zend_hash_num_elements(entry) != expected) {
		zend_argument_value_error(arg_num, "server #" ZEND_ULONG_FMT " must be a list [host, port, timeout]", index);
		return FAILURE;
	}
	if (Z_TYPE_P(host) != IS_STRING) {
		zend_argument_type_error(arg_num, "server #" ZEND_ULONG_FMT " host must be of type string, %s given",
			index, zend_zval_type_name(host));
		return FAILURE;
	}
	if (Z_STRLEN_P(host) == 0 || memchr(Z_STRVAL_P(host), '\0', Z_STRLEN_P(host)) != NULL) {
		zend_argument_value_error(arg_num, "server #" ZEND_ULONG_FMT " host must be a non-empty string without NUL bytes", index);
		return FAILURE;
	}
	if (Z_TYPE_P(port) != IS_LONG) {
		zend_argument_type_error(arg_num, "server #" ZEND_ULONG_FMT " port must be of type int, %s given",
			index, zend_zval_type_name(port));
		return FAILURE;
	}
	/* A unix socket path needs no port; whatever is given there is ignored. */
	if (Z_STRVAL_P(host)[0] != '/' && (Z_LVAL_P(port) < 1 || Z_LVAL_P(port) > 65535)) {
		zend_argument_value_error(arg_num, "server #" ZEND_ULONG_FMT " port must be between 1 and 65535", index);
		return FAILURE;
	}
	spec->host = Z_STR_P(host);
	spec->port = Z_LVAL_P(port);
	spec->timeout_ms = REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
	if (timeout != NULL && Z_TYPE_P(timeout) != IS_NULL) {
		double seconds;
		if (Z_TYPE_P(timeout) == IS_LONG) {
			seconds = (double) Z_LVAL_P(timeout);
		} else if (Z_TYPE_P(timeout) == IS_DOUBLE) {
			seconds = Z_DVAL_P(timeout);
		} else {
			zend_argument_type_error(arg_num, "server #" ZEND_ULONG_FMT " timeout must be of type float, %s given",
				index, zend_zval_type_name(timeout));
			return FAILURE;
		}
		if (!(seconds >= 0) || !isfinite(seconds)) {
			zend_argument_value_error(arg_num, "server #" ZEND_ULONG_FMT " timeout must be a finite number of seconds >= 0", index);
			return FAILURE;
		}
		spec->timeout_ms = seconds * 1000.0;
	}
	return SUCCESS;
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
		server_spec spec;

		ZVAL_DEREF(entry);
		if (Z_TYPE_P(entry) != IS_ARRAY) {
			zend_argument_type_error(arg_num, "server #%zu must be of type array, %s given", i, zend_zval_type_name(entry));
			rl_cluster_destroy(cluster);
			return NULL;
		}
		if (parse_list_entry(Z_ARRVAL_P(entry), arg_num, i, &spec) != SUCCESS) {
			rl_cluster_destroy(cluster);
			return NULL;
		}
		rl_cluster_set_endpoint(cluster, i, ZSTR_VAL(spec.host), ZSTR_LEN(spec.host), (int) spec.port, spec.timeout_ms);
		i++;
	} ZEND_HASH_FOREACH_END();
	if (reject_duplicates(cluster, arg_num) != SUCCESS) {
		rl_cluster_destroy(cluster);
		return NULL;
	}
	return cluster;
}
