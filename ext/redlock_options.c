/* The constructor's $options array. See redlock_options.h. */
#include <math.h>

#include "php.h"
#include "zend_exceptions.h"

#include "redlock_options.h"
#include "redlock_callable.h"

void redlock_options_release(redlock_options *options)
{
	if (options->prefix) {
		zend_string_release(options->prefix);
		options->prefix = NULL;
	}
	zval_ptr_dtor(&options->observer);
	ZVAL_UNDEF(&options->observer);
	zval_ptr_dtor(&options->on_loss);
	ZVAL_UNDEF(&options->on_loss);
}

/* A callable or null (none): copied into *into. */
static zend_result parse_callable(zval *value, uint32_t arg_num, const char *name, zval *into)
{
	if (redlock_callable_check(value, arg_num, name) != SUCCESS) {
		return FAILURE;
	}
	zval_ptr_dtor(into);
	ZVAL_UNDEF(into);
	if (Z_TYPE_P(value) != IS_NULL) {
		ZVAL_COPY(into, value);
	}
	return SUCCESS;
}

static zend_result wrong_type(uint32_t arg_num, const char *name, const char *expected, zval *value)
{
	zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given",
		name, expected, zend_zval_type_name(value));
	return FAILURE;
}

static zend_result parse_quorum(zval *value, uint32_t arg_num, unsigned server_count, redlock_options *options)
{
	if (Z_TYPE_P(value) != IS_LONG) {
		return wrong_type(arg_num, "quorum", "int", value);
	}
	if (Z_LVAL_P(value) < 1 || Z_LVAL_P(value) > (zend_long) server_count) {
		zend_argument_value_error(arg_num, "option \"quorum\" must be between 1 and %u (the number of servers)",
			server_count);
		return FAILURE;
	}
	options->client.quorum = (unsigned) Z_LVAL_P(value);
	return SUCCESS;
}

static zend_result parse_drift_factor(zval *value, uint32_t arg_num, redlock_options *options)
{
	double factor;

	if (Z_TYPE_P(value) == IS_DOUBLE) {
		factor = Z_DVAL_P(value);
	} else if (Z_TYPE_P(value) == IS_LONG) {
		factor = (double) Z_LVAL_P(value);
	} else {
		return wrong_type(arg_num, "driftFactor", "float", value);
	}
	if (!(factor >= 0.0 && factor < 1.0)) { /* also rejects NAN */
		zend_argument_value_error(arg_num, "option \"driftFactor\" must be at least 0 and less than 1");
		return FAILURE;
	}
	options->client.drift_factor = factor;
	return SUCCESS;
}

static zend_result parse_prefix(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) != IS_STRING) {
		return wrong_type(arg_num, "prefix", "string", value);
	}
	if (options->prefix) {
		zend_string_release(options->prefix);
		options->prefix = NULL;
	}
	if (Z_STRLEN_P(value) > 0) {
		options->prefix = zend_string_copy(Z_STR_P(value));
	}
	return SUCCESS;
}

static zend_result parse_persistent(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_FALSE) {
		return wrong_type(arg_num, "persistent", "bool", value);
	}
	options->persistent = Z_TYPE_P(value) == IS_TRUE;
	return SUCCESS;
}

static zend_result parse_evicting_servers(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) != IS_STRING) {
		return wrong_type(arg_num, "evictingServers", "string", value);
	}
	if (zend_string_equals_literal(Z_STR_P(value), "warn") || zend_string_equals_literal(Z_STR_P(value), "refuse")) {
		options->client.refuse_evicting = Z_STRVAL_P(value)[0] == 'r';
		return SUCCESS;
	}
	zend_argument_value_error(arg_num, "option \"evictingServers\" must be \"warn\" or \"refuse\"");
	return FAILURE;
}

static zend_result parse_max_extensions(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) == IS_NULL) {
		options->client.max_extensions = -1;
		return SUCCESS;
	}
	if (Z_TYPE_P(value) != IS_LONG) {
		return wrong_type(arg_num, "maxExtensions", "?int", value);
	}
	if (Z_LVAL_P(value) < 0) {
		zend_argument_value_error(arg_num, "option \"maxExtensions\" must be greater than or equal to 0, or null");
		return FAILURE;
	}
	options->client.max_extensions = Z_LVAL_P(value);
	return SUCCESS;
}

static zend_result parse_max_sets(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) != IS_LONG) {
		return wrong_type(arg_num, "maxConnectionSets", "int", value);
	}
	if (Z_LVAL_P(value) < 1 || Z_LVAL_P(value) > RL_MAX_SETS_LIMIT) {
		zend_argument_value_error(arg_num, "option \"maxConnectionSets\" must be between 1 and %d", RL_MAX_SETS_LIMIT);
		return FAILURE;
	}
	options->client.max_sets = Z_LVAL_P(value);
	return SUCCESS;
}

#define KNOWN_OPTIONS "quorum, driftFactor, prefix, persistent, maxExtensions, fencing, autoExtend, abortOnLoss, waitTimeout, fair, observer, onLoss, scripts, evictingServers, maxConnectionSets"

static zend_result parse_bool(zval *value, uint32_t arg_num, const char *name, int *into)
{
	if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_FALSE) {
		return wrong_type(arg_num, name, "bool", value);
	}
	*into = Z_TYPE_P(value) == IS_TRUE;
	return SUCCESS;
}

static zend_result parse_wait_timeout(zval *value, uint32_t arg_num, redlock_options *options)
{
	if (Z_TYPE_P(value) == IS_NULL) {
		options->client.wait_timeout = -1;
		return SUCCESS;
	}
	if (Z_TYPE_P(value) != IS_LONG) {
		return wrong_type(arg_num, "waitTimeout", "?int", value);
	}
	if (Z_LVAL_P(value) < 0 || Z_LVAL_P(value) > RL_WAIT_TIMEOUT_MAX_MS) {
		zend_argument_value_error(arg_num, "option \"waitTimeout\" must be between 0 and %lld (ms, one day), or null",
			(long long) RL_WAIT_TIMEOUT_MAX_MS);
		return FAILURE;
	}
	options->client.wait_timeout = Z_LVAL_P(value);
	return SUCCESS;
}

zend_result redlock_options_parse(HashTable *options_array, uint32_t arg_num, unsigned server_count,
	redlock_options *options)
{
	zend_string *name;
	zend_ulong index;
	zval *value;
	const char *conflict;

	ZEND_HASH_FOREACH_KEY_VAL(options_array, index, name, value) {
		zend_result result;

		ZVAL_DEREF(value);
		if (name == NULL) {
			zend_argument_value_error(arg_num, "contains an unknown option " ZEND_ULONG_FMT
				" (options are named: " KNOWN_OPTIONS ")", index);
			return FAILURE;
		}
		if (zend_string_equals_literal(name, "quorum")) {
			result = parse_quorum(value, arg_num, server_count, options);
		} else if (zend_string_equals_literal(name, "driftFactor")) {
			result = parse_drift_factor(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "prefix")) {
			result = parse_prefix(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "persistent")) {
			result = parse_persistent(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "maxExtensions")) {
			result = parse_max_extensions(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "fencing")) {
			result = parse_bool(value, arg_num, "fencing", &options->client.fencing);
		} else if (zend_string_equals_literal(name, "autoExtend")) {
			result = parse_bool(value, arg_num, "autoExtend", &options->client.auto_extend);
		} else if (zend_string_equals_literal(name, "abortOnLoss")) {
			result = parse_bool(value, arg_num, "abortOnLoss", &options->client.abort_on_loss);
		} else if (zend_string_equals_literal(name, "waitTimeout")) {
			result = parse_wait_timeout(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "fair")) {
			result = parse_bool(value, arg_num, "fair", &options->client.fair);
		} else if (zend_string_equals_literal(name, "observer")) {
			result = parse_callable(value, arg_num, "observer", &options->observer);
		} else if (zend_string_equals_literal(name, "scripts")) {
			int scripts;
			result = parse_bool(value, arg_num, "scripts", &scripts);
			options->client.no_scripts = !scripts;
		} else if (zend_string_equals_literal(name, "evictingServers")) {
			result = parse_evicting_servers(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "maxConnectionSets")) {
			result = parse_max_sets(value, arg_num, options);
		} else if (zend_string_equals_literal(name, "onLoss")) {
			result = parse_callable(value, arg_num, "onLoss", &options->on_loss);
			options->client.track_losses = !Z_ISUNDEF(options->on_loss);
		} else {
			zend_argument_value_error(arg_num, "contains an unknown option \"%s\""
				" (known: " KNOWN_OPTIONS ")", ZSTR_VAL(name));
			return FAILURE;
		}
		if (result != SUCCESS) {
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();
	conflict = rl_client_config_conflict(&options->client, server_count);
	if (conflict != NULL) {
		zend_argument_value_error(arg_num, "%s", conflict);
		return FAILURE;
	}
	return SUCCESS;
}
