/* The fields of one $servers entry, each read from one zval with a ValueError/TypeError naming the server
 * and the field: shared by redlock_servers.c and redlock_sentinel.c. See redlock_server_fields.h. */
#include <limits.h>
#include <math.h>
#include <strings.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "arguments/redlock_server_fields.h"
#include "net/rl_uri.h"

#define KNOWN_TLS_KEYS "cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name"

zend_result redlock_server_check_host(zval *host, uint32_t arg_num, size_t index)
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

/* A number as PHP's coercive mode reads it for an int or float parameter: an int, a float, a bool
 * (0 or 1), or a numeric string: leading and trailing whitespace allowed, "1e3" and ".5" too, but not
 * "6379abc", "0x18EB" or "". IS_LONG with *lval, IS_DOUBLE with *dval, or 0 for anything else
 * (null included: the caller decides what null means). */
static zend_uchar coerce_number(zval *value, zend_long *lval, double *dval)
{
	switch (Z_TYPE_P(value)) {
		case IS_LONG:
			*lval = Z_LVAL_P(value);
			return IS_LONG;
		case IS_DOUBLE:
			*dval = Z_DVAL_P(value);
			return IS_DOUBLE;
		case IS_FALSE:
		case IS_TRUE:
			*lval = Z_TYPE_P(value) == IS_TRUE;
			return IS_LONG;
		case IS_STRING:
			return is_numeric_string(Z_STRVAL_P(value), Z_STRLEN_P(value), lval, dval, false);
		default:
			return 0;
	}
}

/* port and database: a whole number in [min, max]. Unlike coercive mode, a fraction (6379.5 or
 * "6379.5") is refused rather than truncated: no server is meant by it. */
zend_result redlock_server_parse_whole_number(zval *value, const char *field, zend_long min, zend_long max,
	uint32_t arg_num, size_t index, zend_long *out)
{
	zend_long lval = 0;
	double dval = 0;

	switch (coerce_number(value, &lval, &dval)) {
		case IS_LONG:
			break;
		case IS_DOUBLE:
			if (!zend_finite(dval) || dval != floor(dval)) {
				zend_argument_value_error(arg_num, "server #%zu %s must be a whole number", index, field);
				return FAILURE;
			}
			if (dval < (double) min || dval > (double) max) {
				lval = min - 1; /* out of range: reported below */
			} else {
				lval = (zend_long) dval;
			}
			break;
		default:
			zend_argument_type_error(arg_num, "server #%zu %s must be of type int, %s given",
				index, field, zend_zval_type_name(value));
			return FAILURE;
	}
	if (lval < min || lval > max) {
		zend_argument_value_error(arg_num, "server #%zu %s must be between " ZEND_LONG_FMT " and " ZEND_LONG_FMT,
			index, field, min, max);
		return FAILURE;
	}
	*out = lval;
	return SUCCESS;
}

zend_result redlock_server_parse_port(zval *port, bool unix_socket, uint32_t arg_num, size_t index, int *out)
{
	zend_long value;
	double ignored;

	if (unix_socket) {
		/* A unix socket path needs no port; whatever number is given there is ignored. */
		if (coerce_number(port, &value, &ignored) == 0) {
			zend_argument_type_error(arg_num, "server #%zu port must be of type int, %s given",
				index, zend_zval_type_name(port));
			return FAILURE;
		}
		*out = 0;
		return SUCCESS;
	}
	if (redlock_server_parse_whole_number(port, "port", 1, 65535, arg_num, index, &value) != SUCCESS) {
		return FAILURE;
	}
	*out = (int) value;
	return SUCCESS;
}

/* timeout may be NULL (absent); null keeps the default. */
zend_result redlock_server_parse_timeout(zval *timeout, uint32_t arg_num, size_t index, double *timeout_ms)
{
	zend_long lval = 0;
	double seconds = 0;

	*timeout_ms = REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
	if (timeout == NULL || Z_TYPE_P(timeout) == IS_NULL) {
		return SUCCESS;
	}
	switch (coerce_number(timeout, &lval, &seconds)) {
		case IS_LONG:
			seconds = (double) lval;
			break;
		case IS_DOUBLE:
			break;
		default:
			zend_argument_type_error(arg_num, "server #%zu timeout must be of type float, %s given",
				index, zend_zval_type_name(timeout));
			return FAILURE;
	}
	if (!rl_timeout_seconds_ok(seconds)) { /* also NAN and INF */
		zend_argument_value_error(arg_num, "server #%zu timeout must be between 0 and %d seconds", index,
			RL_TIMEOUT_MAX_SECONDS);
		return FAILURE;
	}
	*timeout_ms = seconds * 1000.0;
	return SUCCESS;
}

/* username/password: string or null; an empty string means none, as in most configuration files. */
zend_result redlock_server_parse_credential(zval *value, const char *field, uint32_t arg_num, size_t index,
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

/* A string TLS setting: a non-empty string without NUL bytes, or null. */
static zend_result tls_string(zval *value, const char *field, uint32_t arg_num, size_t index, char **slot)
{
	if (Z_TYPE_P(value) == IS_NULL) {
		return SUCCESS;
	}
	if (Z_TYPE_P(value) != IS_STRING) {
		zend_argument_type_error(arg_num, "server #%zu tls %s must be of type ?string, %s given",
			index, field, zend_zval_type_name(value));
		return FAILURE;
	}
	if (Z_STRLEN_P(value) == 0 || memchr(Z_STRVAL_P(value), '\0', Z_STRLEN_P(value)) != NULL) {
		zend_argument_value_error(arg_num, "server #%zu tls %s must be a non-empty string without NUL bytes",
			index, field);
		return FAILURE;
	}
	*slot = strdup(Z_STRVAL_P(value));
	if (*slot == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	return SUCCESS;
}

/* One entry of a 'tls' array into tls: a bool verify_peer/verify_peer_name or one of the file and
 * name strings; an unknown or missing key is an error naming the known ones. */
static zend_result tls_setting(zend_string *key, zval *item, uint32_t arg_num, size_t index, rl_tls_config *tls)
{
	static const char *const names[] = {"cafile", "capath", "local_cert", "local_pk", "peer_name", "passphrase"};
	char **slots[] = {&tls->ca_file, &tls->ca_path, &tls->cert_file, &tls->key_file, &tls->peer_name,
		&tls->passphrase};
	size_t i;

	if (key == NULL) {
		zend_argument_value_error(arg_num, "server #%zu tls must be an array with the keys " KNOWN_TLS_KEYS, index);
		return FAILURE;
	}
	if (zend_string_equals_literal(key, "verify_peer") || zend_string_equals_literal(key, "verify_peer_name")) {
		if (Z_TYPE_P(item) != IS_TRUE && Z_TYPE_P(item) != IS_FALSE) {
			zend_argument_type_error(arg_num, "server #%zu tls %s must be of type bool, %s given",
				index, ZSTR_VAL(key), zend_zval_type_name(item));
			return FAILURE;
		}
		*(zend_string_equals_literal(key, "verify_peer") ? &tls->verify_peer : &tls->verify_peer_name)
			= Z_TYPE_P(item) == IS_TRUE;
		return SUCCESS;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (zend_string_equals_cstr(key, names[i], strlen(names[i]))) {
			break;
		}
	}
	if (i == sizeof(names) / sizeof(names[0])) {
		zend_argument_value_error(arg_num, "server #%zu tls has an unknown key \"%s\" (known: " KNOWN_TLS_KEYS ")",
			index, ZSTR_VAL(key));
		return FAILURE;
	}
	return tls_string(item, names[i], arg_num, index, slots[i]);
}

/* 'tls' => true, false/null (none), or an array of settings named as PHP's ssl stream context
 * options. *out is NULL for none; else a config the caller frees. */
zend_result redlock_server_parse_tls(zval *value, uint32_t arg_num, size_t index, rl_tls_config **out)
{
	rl_tls_config *tls;
	zend_string *key;
	zval *item;

	*out = NULL;
	if (Z_TYPE_P(value) == IS_NULL || Z_TYPE_P(value) == IS_FALSE) {
		return SUCCESS;
	}
	if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_ARRAY) {
		zend_argument_type_error(arg_num, "server #%zu tls must be of type array|bool, %s given",
			index, zend_zval_type_name(value));
		return FAILURE;
	}
	tls = rl_tls_config_new();
	if (tls == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	*out = tls;
	if (Z_TYPE_P(value) == IS_TRUE) {
		return SUCCESS;
	}
	ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(value), key, item) {
		ZVAL_DEREF(item);
		if (tls_setting(key, item, arg_num, index, tls) != SUCCESS) {
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();
	if (tls->key_file != NULL && tls->cert_file == NULL) {
		zend_argument_value_error(arg_num, "server #%zu tls local_pk needs local_cert", index);
		return FAILURE;
	}
	return SUCCESS;
}

/* A host list's [host, port] entry (#n; the port optional: the kind's default). */
static zend_result host_pair(zval *one, const redlock_host_list *kind, uint32_t arg_num, size_t index, size_t n,
	char **host_out, int *port_out)
{
	zval *host = zend_hash_index_find_deref(Z_ARRVAL_P(one), 0);
	zval *port = zend_hash_index_find_deref(Z_ARRVAL_P(one), 1);

	*port_out = kind->default_port;
	if (host == NULL) {
		zend_argument_value_error(arg_num, "server #%zu %s #%zu must be a list [host, port]", index, kind->item, n);
		return FAILURE;
	}
	if (redlock_server_check_host(host, arg_num, index) != SUCCESS
		|| (port != NULL && redlock_server_parse_port(port, false, arg_num, index, port_out) != SUCCESS)) {
		return FAILURE;
	}
	if (kind->hosts_only && Z_STRVAL_P(host)[0] == '/') {
		zend_argument_value_error(arg_num, "server #%zu %s #%zu must be a host, not a unix socket", index, kind->item, n);
		return FAILURE;
	}
	if ((*host_out = strdup(Z_STRVAL_P(host))) == NULL) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	return SUCCESS;
}

zend_result redlock_server_parse_host_list(zval *list, const redlock_host_list *kind, uint32_t arg_num, size_t index,
	char **hosts, int *ports, size_t *count)
{
	zval *one;

	if (Z_TYPE_P(list) != IS_ARRAY) {
		zend_argument_type_error(arg_num, "server #%zu %s must be of type array, %s given", index, kind->field,
			zend_zval_type_name(list));
		return FAILURE;
	}
	if (zend_hash_num_elements(Z_ARRVAL_P(list)) == 0 || zend_hash_num_elements(Z_ARRVAL_P(list)) > RL_URI_SENTINELS_MAX) {
		zend_argument_value_error(arg_num, "server #%zu %s must list 1 to %d %ss", index, kind->field,
			RL_URI_SENTINELS_MAX, kind->item);
		return FAILURE;
	}
	{
		const char *texts[RL_URI_SENTINELS_MAX];
		size_t lens[RL_URI_SENTINELS_MAX], n = 0;
		char error[RL_URI_ERROR_MAX];

		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(list), one) {
			ZVAL_DEREF(one);
			if (Z_TYPE_P(one) == IS_STRING) {
				texts[n] = Z_STRVAL_P(one);
				lens[n++] = Z_STRLEN_P(one);
			}
		} ZEND_HASH_FOREACH_END();
		if (rl_uri_seed_schemes(texts, lens, n, 0, error, sizeof(error)) != 0) {
			zend_argument_value_error(arg_num, "server #%zu %s: %s", index, kind->field, error);
			return FAILURE;
		}
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(list), one) {
		ZVAL_DEREF(one);
		if (Z_TYPE_P(one) == IS_STRING) {
			char error[RL_URI_ERROR_MAX];

			if (rl_uri_parse_host_port(Z_STRVAL_P(one), Z_STRLEN_P(one), kind->default_port, &hosts[*count],
					&ports[*count], error, sizeof(error)) != 0) {
				zend_argument_value_error(arg_num, "server #%zu %s #%zu must be \"host:port\" (%s)", index, kind->item,
					*count, error);
				return FAILURE;
			}
		} else if (Z_TYPE_P(one) == IS_ARRAY) {
			if (host_pair(one, kind, arg_num, index, *count, &hosts[*count], &ports[*count]) != SUCCESS) {
				return FAILURE;
			}
		} else {
			zend_argument_type_error(arg_num, "server #%zu %s #%zu must be of type string|array, %s given", index,
				kind->item, *count, zend_zval_type_name(one));
			return FAILURE;
		}
		(*count)++;
	} ZEND_HASH_FOREACH_END();
	return SUCCESS;
}

void redlock_server_spec_from_uri(rl_endpoint_spec *spec, const rl_uri *uri)
{
	spec->timeout_ms = uri->has_timeout ? uri->timeout_ms : REDLOCK_DEFAULT_TIMEOUT_SECONDS * 1000.0;
	spec->username = uri->username;
	spec->username_len = uri->username ? strlen(uri->username) : 0;
	spec->password = uri->password;
	spec->password_len = uri->password ? strlen(uri->password) : 0;
	spec->database = (int) uri->database;
	spec->tls = uri->tls ? &uri->tls_config : NULL;
}

zend_result redlock_server_parse_database(zval *value, uint32_t arg_num, size_t index, int *database)
{
	zend_long number;

	if (value == NULL) {
		return SUCCESS;
	}
	if (redlock_server_parse_whole_number(value, "database", 0, INT_MAX, arg_num, index, &number) != SUCCESS) {
		return FAILURE;
	}
	*database = (int) number;
	return SUCCESS;
}

void redlock_server_seeds_from_uri(rl_seeds_spec *seeds, const rl_uri *uri, const rl_endpoint_spec *spec)
{
	seeds->count = uri->sentinel_count;
	seeds->hosts = (const char *const *) uri->sentinel_hosts;
	seeds->ports = uri->sentinel_ports;
	seeds->timeout_ms = spec->timeout_ms;
	seeds->tls = spec->tls;
}

zend_result redlock_server_parse_seeds(const redlock_host_list *kind, zval *list, zval *timeout, zval *username,
	zval *password, const redlock_seeds_credentials *credentials, zval *tls, uint32_t arg_num, size_t index,
	redlock_seeds_owned *own, rl_endpoint_spec *spec, rl_seeds_spec *seeds)
{
	size_t len;

	if (redlock_server_parse_host_list(list, kind, arg_num, index, own->hosts, own->ports, &own->count) != SUCCESS
		|| redlock_server_parse_timeout(timeout, arg_num, index, &spec->timeout_ms) != SUCCESS
		|| redlock_server_parse_credential(username, "username", arg_num, index, &spec->username, &spec->username_len) != SUCCESS
		|| redlock_server_parse_credential(password, "password", arg_num, index, &spec->password, &spec->password_len) != SUCCESS
		|| (credentials != NULL
			&& (redlock_server_parse_credential(credentials->username, credentials->username_key, arg_num, index,
					&seeds->username, &len) != SUCCESS
				|| redlock_server_parse_credential(credentials->password, credentials->password_key, arg_num, index,
					&seeds->password, &len) != SUCCESS))
		|| (tls != NULL && redlock_server_parse_tls(tls, arg_num, index, &own->tls) != SUCCESS)) {
		return FAILURE;
	}
	if (spec->username != NULL && spec->password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu username needs a password", index);
		return FAILURE;
	}
	spec->tls = own->tls;
	seeds->count = own->count;
	seeds->hosts = (const char *const *) own->hosts;
	seeds->ports = own->ports;
	seeds->timeout_ms = spec->timeout_ms;
	seeds->tls = own->tls;
	return SUCCESS;
}

void redlock_server_seeds_free(redlock_seeds_owned *own)
{
	size_t i;

	for (i = 0; i < own->count; i++) {
		free(own->hosts[i]);
	}
	rl_tls_config_free(own->tls);
}

zend_result redlock_server_store(rl_cluster *cluster, size_t index, const rl_endpoint_spec *spec, bool made)
{
	if (!made || rl_cluster_set_endpoint_spec(cluster, index, spec) != 0) {
		zend_throw_error(NULL, "RedLock: out of memory");
		return FAILURE;
	}
	return SUCCESS;
}
