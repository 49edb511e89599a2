/* Sentinel-managed members in $servers: a sentinel:// URI or a keyed array with "sentinels" and
 * "master", into an endpoint whose master the sentinels name (net/rl_sentinel.h). Zend glue: reads
 * and checks the fields, decides nothing. Credentials are never quoted. */
#include <limits.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "arguments/redlock_server_fields.h"
#include "arguments/redlock_keys.h"
#include "net/rl_sentinel.h"

/* A Sentinel member's keys, in the order messages list them; each value is read once all are known. */
enum {
	SKEY_SENTINELS, SKEY_MASTER, SKEY_TIMEOUT, SKEY_USERNAME, SKEY_PASSWORD, SKEY_DATABASE, SKEY_TLS,
	SKEY_SENTINEL_USERNAME, SKEY_SENTINEL_PASSWORD, SKEY_COUNT
};
static const redlock_key sentinel_keys[] = {
	[SKEY_SENTINELS] = {"sentinels", NULL},
	[SKEY_MASTER] = {"master", NULL},
	[SKEY_TIMEOUT] = {"timeout", NULL},
	[SKEY_USERNAME] = {"username", NULL},
	[SKEY_PASSWORD] = {"password", NULL},
	[SKEY_DATABASE] = {"database", NULL},
	[SKEY_TLS] = {"tls", NULL},
	[SKEY_SENTINEL_USERNAME] = {"sentinel_username", NULL},
	[SKEY_SENTINEL_PASSWORD] = {"sentinel_password", NULL},
	[SKEY_COUNT] = {NULL, NULL}
};

/* Copies the member into endpoint index: the master's credentials, database and TLS in the endpoint,
 * the sentinels' in its rl_sentinel. */
static zend_result store(rl_cluster *cluster, size_t index, rl_endpoint_spec *spec, const rl_sentinel_spec *sentinels)
{
	rl_sentinel *sentinel = rl_sentinel_create(sentinels);
	zend_result result;

	spec->host = ""; /* the master's, once a sentinel named it */
	spec->host_len = 0;
	spec->port = 0;
	spec->sentinel = sentinel;
	result = redlock_server_store(cluster, index, spec, sentinel != NULL);
	rl_sentinel_free(sentinel);
	return result;
}

zend_result redlock_sentinel_from_uri(rl_cluster *cluster, size_t index, const rl_uri *uri)
{
	rl_endpoint_spec spec;
	rl_sentinel_spec sentinels;

	memset(&spec, 0, sizeof(spec));
	memset(&sentinels, 0, sizeof(sentinels));
	redlock_server_spec_from_uri(&spec, uri);
	redlock_server_seeds_from_uri(&sentinels.sentinels, uri, &spec);
	sentinels.sentinels.username = uri->sentinel_username;
	sentinels.sentinels.password = uri->sentinel_password;
	sentinels.master_name = uri->master_name;
	return store(cluster, index, &spec, &sentinels);
}

bool redlock_sentinel_keyed(HashTable *entry)
{
	return zend_hash_str_exists(entry, "sentinels", sizeof("sentinels") - 1)
		|| zend_hash_str_exists(entry, "master", sizeof("master") - 1);
}

/* Both "sentinels" and "master" are there, and the master's name is one Sentinel could know. */
static zend_result check_names(zval *sentinels, zval *master, uint32_t arg_num, size_t index)
{
	if (sentinels == NULL || master == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must have both \"sentinels\" and \"master\"", index);
		return FAILURE;
	}
	if (Z_TYPE_P(master) != IS_STRING) {
		zend_argument_type_error(arg_num, "server #%zu master must be of type string, %s given", index,
			zend_zval_type_name(master));
		return FAILURE;
	}
	if (!rl_uri_master_name_ok(Z_STRVAL_P(master), Z_STRLEN_P(master))) {
		zend_argument_value_error(arg_num, "server #%zu master must be 1 to 128 letters, digits, '.', '_' or '-'", index);
		return FAILURE;
	}
	return SUCCESS;
}

zend_result redlock_sentinel_from_keyed(rl_cluster *cluster, HashTable *entry, uint32_t arg_num, size_t index)
{
	/* "sentinels": a non-empty list of "host[:port]" strings or [host, port] lists (port 26379 when
	 * absent) */
	static const redlock_host_list sentinel_list = {"sentinels", "sentinel", RL_URI_DEFAULT_SENTINEL_PORT, false};
	zval *slots[SKEY_COUNT] = {NULL};
	redlock_seeds_owned own;
	rl_endpoint_spec spec;
	rl_sentinel_spec sentinels;
	redlock_seeds_credentials credentials;
	zend_result result = FAILURE;

	memset(&own, 0, sizeof(own));
	memset(&spec, 0, sizeof(spec));
	memset(&sentinels, 0, sizeof(sentinels));
	if (redlock_keys_read(sentinel_keys, entry, arg_num, index, slots, NULL) != SUCCESS) {
		return FAILURE;
	}

	if (check_names(slots[SKEY_SENTINELS], slots[SKEY_MASTER], arg_num, index) != SUCCESS) {
		return FAILURE;
	}
	/* the sentinels' own credentials, read after the master's and before "tls" */
	credentials.username = slots[SKEY_SENTINEL_USERNAME];
	credentials.password = slots[SKEY_SENTINEL_PASSWORD];
	credentials.username_key = "sentinel_username";
	credentials.password_key = "sentinel_password";
	if (redlock_server_parse_seeds(&sentinel_list, slots[SKEY_SENTINELS], slots[SKEY_TIMEOUT], slots[SKEY_USERNAME],
			slots[SKEY_PASSWORD], &credentials, slots[SKEY_TLS], arg_num, index, &own, &spec, &sentinels.sentinels)
		!= SUCCESS) {
		goto done;
	}
	if (sentinels.sentinels.username != NULL && sentinels.sentinels.password == NULL) {
		zend_argument_value_error(arg_num, "server #%zu sentinel_username needs a sentinel_password", index);
		goto done;
	}
	if (redlock_server_parse_database(slots[SKEY_DATABASE], arg_num, index, &spec.database) != SUCCESS) {
		goto done;
	}
	sentinels.master_name = Z_STRVAL_P(slots[SKEY_MASTER]);
	result = store(cluster, index, &spec, &sentinels);
done:
	redlock_server_seeds_free(&own);
	return result;
}
