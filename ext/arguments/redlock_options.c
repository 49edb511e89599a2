/* The constructor's $options array. See redlock_options.h. */
#include <math.h>

#include "php.h"
#include "zend_exceptions.h"

#include "arguments/redlock_options.h"
#include "arguments/redlock_keys.h"

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

/* A callable or null (none): copied into *into; a TypeError naming argument arg_num and the option
 * otherwise. */
static zend_result parse_callable(zval *value, uint32_t arg_num, const char *name, zval *into)
{
	if (Z_TYPE_P(value) != IS_NULL && !zend_is_callable(value, 0, NULL)) {
		zend_argument_type_error(arg_num, "option \"%s\" must be a valid callback or null, %s given", name,
			zend_zval_type_name(value));
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

/* What an option's parser writes into, and the count of servers the quorum is checked against. */
typedef struct {
	redlock_options *options;
	unsigned server_count;
} option_ctx;

#define OPTIONS (((option_ctx *) ctx)->options)

static zend_result parse_quorum(zval *value, uint32_t arg_num, void *ctx)
{
	unsigned server_count = ((option_ctx *) ctx)->server_count;
	redlock_options *options = OPTIONS;

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

static zend_result parse_drift_factor(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_prefix(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_persistent(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
	if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_FALSE) {
		return wrong_type(arg_num, "persistent", "bool", value);
	}
	options->persistent = Z_TYPE_P(value) == IS_TRUE;
	return SUCCESS;
}

static zend_result parse_evicting_servers(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_max_extensions(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_max_sets(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_bool(zval *value, uint32_t arg_num, const char *name, int *into)
{
	if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_FALSE) {
		return wrong_type(arg_num, name, "bool", value);
	}
	*into = Z_TYPE_P(value) == IS_TRUE;
	return SUCCESS;
}

static zend_result parse_wait_timeout(zval *value, uint32_t arg_num, void *ctx)
{
	redlock_options *options = OPTIONS;
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

static zend_result parse_fair(zval *value, uint32_t arg_num, void *ctx)
{
	return parse_bool(value, arg_num, "fair", &OPTIONS->client.fair);
}

static zend_result parse_fencing(zval *value, uint32_t arg_num, void *ctx)
{
	return parse_bool(value, arg_num, "fencing", &OPTIONS->client.fencing);
}

static zend_result parse_auto_extend(zval *value, uint32_t arg_num, void *ctx)
{
	return parse_bool(value, arg_num, "autoExtend", &OPTIONS->client.auto_extend);
}

static zend_result parse_abort_on_loss(zval *value, uint32_t arg_num, void *ctx)
{
	return parse_bool(value, arg_num, "abortOnLoss", &OPTIONS->client.abort_on_loss);
}

static zend_result parse_scripts(zval *value, uint32_t arg_num, void *ctx)
{
	int scripts = 1;
	zend_result result = parse_bool(value, arg_num, "scripts", &scripts);

	OPTIONS->client.no_scripts = !scripts;
	return result;
}

static zend_result parse_observer(zval *value, uint32_t arg_num, void *ctx)
{
	return parse_callable(value, arg_num, "observer", &OPTIONS->observer);
}

static zend_result parse_on_loss(zval *value, uint32_t arg_num, void *ctx)
{
	zend_result result = parse_callable(value, arg_num, "onLoss", &OPTIONS->on_loss);

	OPTIONS->client.track_losses = !Z_ISUNDEF(OPTIONS->on_loss);
	return result;
}

/* The options, in the order the unknown-option message lists them: a new option is a row here and
 * its parser above. */
static const redlock_key option_keys[] = {
	{"quorum", parse_quorum},
	{"driftFactor", parse_drift_factor},
	{"prefix", parse_prefix},
	{"persistent", parse_persistent},
	{"maxExtensions", parse_max_extensions},
	{"fencing", parse_fencing},
	{"autoExtend", parse_auto_extend},
	{"abortOnLoss", parse_abort_on_loss},
	{"waitTimeout", parse_wait_timeout},
	{"fair", parse_fair},
	{"observer", parse_observer},
	{"onLoss", parse_on_loss},
	{"scripts", parse_scripts},
	{"evictingServers", parse_evicting_servers},
	{"maxConnectionSets", parse_max_sets},
	{NULL, NULL}
};

zend_result redlock_options_parse(HashTable *options_array, uint32_t arg_num, unsigned server_count,
	redlock_options *options)
{
	option_ctx ctx = {options, server_count};
	const char *conflict;

	if (redlock_keys_read(option_keys, options_array, arg_num, REDLOCK_KEYS_OPTIONS, NULL, &ctx) != SUCCESS) {
		return FAILURE;
	}
	conflict = rl_client_config_conflict(&options->client, server_count);
	if (conflict != NULL) {
		zend_argument_value_error(arg_num, "%s", conflict);
		return FAILURE;
	}
	return SUCCESS;
}
