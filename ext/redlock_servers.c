/* The PHP $servers argument to endpoints, and per-server reports back to PHP. See redlock_servers.h.
 * A password is copied into the endpoint and never into any message, warning or array. */
#include <limits.h>
#include <math.h>
#include <strings.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "redlock_servers.h"
#include "rl_uri.h"

#define KNOWN_KEYS "host, port, timeout, username, password, database"

static zend_result check_host(zval *host, uint32_t arg_num, size_t index)
{
	if (Z_TYPE_P(host) != IS_STRING) {
		zend_argument_type_error(arg_num, "server #%zu host must be of type string, %s given",
			index, zend_zval_type_name(host));
		return FAILURE;
	}
	if (Z_STRLEN_P(host) == 0 || memchr(Z_STRVAL_P(host), '\0', Z_STRLEN_P(host)) != NULL) {
		zend_argument_value_error(arg_num, "server #%zu host must be a non-empty string without NUL bytes", index);
		return FAILURE;
	}
	return SUCCESS;
}

static zend_result check_port(zval *port, bool unix_socket, uint32_t arg_num, size_t index)
{
	if (Z_TYPE_P(port) != IS_LONG) {
		zend_argument_type_error(arg_num, "server #%zu port must be of type int, %s given",
			index, zend_zval_type_name(port));
		return FAILURE;
	}
	/* A unix socket path needs no port; whatever is given there is ignored. */
	if (!unix_socket && (Z_LVAL_P(port) < 1 || Z_LVAL_P(port) > 65535)) {
		zend_argument_value_error(arg_num, "server #%zu port must be between 1 and 65535", index);
		return FAILURE;
	}
	return SUCCESS;
}

/* timeout may be NULL (absent); null keeps the default. */
static zend_result parse_timeout(zval *timeout, uint32_t arg_num, size_t index, double *timeout_ms)
{
	double seconds;

	*timeout_ms = REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
	if (timeout == NULL || Z_TYPE_P(timeout) == IS_NULL) {
		return SUCCESS;
	}
	if (Z_TYPE_P(timeout) == IS_LONG) {
		seconds = (double) Z_LVAL_P(timeout);
	} else if (Z_TYPE_P(timeout) == IS_DOUBLE) {
		seconds = Z_DVAL_P(timeout);
	} else {
		zend_argument_type_error(arg_num, "server #%zu timeout must be of type float, %s given",
			index, zend_zval_type_name(timeout));
		return FAILURE;
	}
	if (!(seconds >= 0) || !isfinite(seconds)) {
		zend_argument_value_error(arg_num, "server #%zu timeout must be a finite number of seconds >= 0", index);
		return FAILURE;
	}
	*timeout_ms = seconds * 1000.0;
	return SUCCESS;
}

/* One [host, port, timeout] entry: exactly what the PHP library accepted. */
static zend_result parse_list_entry(HashTable *entry, uint32_t arg_num, size_t index, rl_endpoint_spec *spec)
{
	zval *host = zend_hash_index_find_deref(entry, 0);
	zval *port = zend_hash_index_find_deref(entry, 1);
	zval *timeout = zend_hash_index_find_deref(entry, 2);
	uint32_t expected = timeout ? 3 : 2;

	if (host == NULL || port == NULL || zend_hash_num_elements(entry) != expected) {
		zend_argument_value_error(arg_num, "server #%zu must be a list [host, port, timeout]", index);
		return FAILURE;
	}
	if (check_host(host, arg_num, index) != SUCCESS
		|| check_port(port, Z_STRVAL_P(host)[0] == '/', arg_num, index) != SUCCESS
		|| parse_timeout(timeout, arg_num, index, &spec->timeout_ms) != SUCCESS) {
		return FAILURE;
	}
	spec->host = Z_STRVAL_P(host);
	spec->host_len = Z_STRLEN_P(host);
	spec->port = (int) Z_LVAL_P(port);
	return SUCCESS;
}

/* username/password: string or null; an empty string means none, as in most configuration files. */
static zend_result parse_credential(zval *value, const char *field, uint32_t arg_num, size_t index,
	const char **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	if (value == NULL || Z_TYPE_P(value) == IS_NULL) {
		return SUCCESS;
	}
	if (Z_TYPE_P(value) != IS_STRING) {
		zend_argument_type_error(arg_num, "server #%zu %s must be of type ?string, %s given",
			index, field, zend_zval_type_name(value));
		return FAILURE;
	}
	if (memchr(Z_STRVAL_P(value), '\0', Z_STRLEN_P(value)) != NULL) {
		zend_argument_value_error(arg_num, "server #%zu %s must not contain NUL bytes", index, field);
		return FAILURE;
	}
	if (Z_STRLEN_P(value) > 0) {
		*out = Z_STRVAL_P(value);
		*out_len = Z_STRLEN_P(value);
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

/* One ['host' => ..., 'port' => ..., ...] entry. */
static zend_result parse_keyed_entry(HashTable *entry, uint32_t arg_num, size_t index, rl_endpoint_spec *spec)
{
	zval *host = NULL, *port = NULL, *timeout = NULL, *username = NULL, *password = NULL, *database = NULL;
	zend_string *key;
	zval *value;

	ZEND_HASH_FOREACH_STR_KEY_VAL(entry, key, value) {
		ZVAL_DEREF(value);
		if (key == NULL) {
			zend_argument_value_error(arg_num, "server #%zu must not mix list items with the keys " KNOWN_KEYS, index);
			return FAILURE;
		}
		if (zend_string_equals_literal(key, "host")) {
			host = value;
		} else if (zend_string_equals_literal(key, "port")) {
			port = value;
		} else if (zend_string_equals_literal(key, "timeout")) {
			timeout = value;
		} else if (zend_string_equals_literal(key, "username")) {
			username = value;
		} else if (zend_string_equals_literal(key, "password")) {
			password = value;
		} else if (zend_string_equals_literal(key, "database")) {
			database = value;
		} else {
			zend_argument_value_error(arg_num, "server #%zu has an unknown key \"%s\" (known: " KNOWN_KEYS ")",
				index, ZSTR_VAL(key));
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();

	if (host == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must have a \"host\"", index);
		return FAILURE;
	}
	if (check_host(host, arg_num, index) != SUCCESS
		|| (port != NULL && check_port(port, Z_STRVAL_P(host)[0] == '/', arg_num, index) != SUCCESS)
		|| parse_timeout(timeout, arg_num, index, &spec->timeout_ms) != SUCCESS
		|| parse_credential(username, "username", arg_num, index, &spec->username, &spec->username_len) != SUCCESS
		|| parse_credential(password, "password", arg_num, index, &spec->password, &spec->password_len) != SUCCESS) {
		return FAILURE;
	}
	if (spec->username != NULL && spec->password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu username needs a password", index);
		return FAILURE;
	}
	if (database != NULL) {
		if (Z_TYPE_P(database) != IS_LONG) {
			zend_argument_type_error(arg_num, "server #%zu database must be of type int, %s given",
				index, zend_zval_type_name(database));
			return FAILURE;
		}
		if (Z_LVAL_P(database) < 0 || Z_LVAL_P(database) > INT_MAX) {
			zend_argument_value_error(arg_num, "server #%zu database must be between 0 and %d", index, INT_MAX);
			return FAILURE;
		}
		spec->database = (int) Z_LVAL_P(database);
	}
	spec->host = Z_STRVAL_P(host);
	spec->host_len = Z_STRLEN_P(host);
	spec->port = port ? (int) Z_LVAL_P(port) : RL_URI_DEFAULT_PORT;
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

/* Parses one entry and stores it as endpoint index. */
static zend_result add_server(rl_cluster *cluster, zval *entry, uint32_t arg_num, size_t index)
{
	rl_endpoint_spec spec;
	zend_result result;

	memset(&spec, 0, sizeof(spec));
	ZVAL_DEREF(entry);
	if (Z_TYPE_P(entry) == IS_STRING) {
		char error[RL_URI_ERROR_MAX];
		rl_uri uri;

		if (rl_uri_parse(Z_STRVAL_P(entry), Z_STRLEN_P(entry), &uri, error, sizeof(error)) != 0) {
			zend_argument_value_error(arg_num, "server #%zu %s", index, error);
			return FAILURE;
		}
		spec.host = uri.host;
		spec.host_len = strlen(uri.host);
		spec.port = uri.port;
		spec.timeout_ms = uri.has_timeout ? uri.timeout_ms : REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
		spec.username = uri.username;
		spec.username_len = uri.username ? strlen(uri.username) : 0;
		spec.password = uri.password;
		spec.password_len = uri.password ? strlen(uri.password) : 0;
		spec.database = (int) uri.database;
		result = rl_cluster_set_endpoint_spec(cluster, index, &spec) == 0 ? SUCCESS : FAILURE;
		rl_uri_free(&uri);
	} else if (Z_TYPE_P(entry) == IS_ARRAY) {
		result = has_string_key(Z_ARRVAL_P(entry))
			? parse_keyed_entry(Z_ARRVAL_P(entry), arg_num, index, &spec)
			: parse_list_entry(Z_ARRVAL_P(entry), arg_num, index, &spec);
		if (result != SUCCESS) {
			return FAILURE;
		}
		result = rl_cluster_set_endpoint_spec(cluster, index, &spec) == 0 ? SUCCESS : FAILURE;
	} else {
		zend_argument_type_error(arg_num, "server #%zu must be of type array|string, %s given",
			index, zend_zval_type_name(entry));
		return FAILURE;
	}
	if (result != SUCCESS) {
		zend_throw_error(NULL, "RedLock: out of memory");
	}
	return result;
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
		if (endpoint->host[0] == '/') {
			text = strpprintf(0, "unix://%s?db=%d", endpoint->host, endpoint->database);
		} else if (strchr(endpoint->host, ':') != NULL) {
			text = strpprintf(0, "redis://[%s]:%d/%d", endpoint->host, endpoint->port, endpoint->database);
		} else {
			text = strpprintf(0, "redis://%s:%d/%d", endpoint->host, endpoint->port, endpoint->database);
		}
		add_next_index_str(return_value, text);
	}
}
