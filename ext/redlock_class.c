/* The RedLock PHP class: arguments in, arrays out, exceptions. The algorithm lives in
 * rl_algorithm.c and the I/O in rl_fanout.c; this file only connects them to PHP.
 * extend()/validity() are in redlock_methods_renew.c, run() in redlock_methods_run.c. */
#include "php.h"
#include "zend_attributes.h" /* #[\SensitiveParameter] in redlock_arginfo.h */
#include "zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
# include "ext/standard/php_mt_rand.h" /* php_mt_rand() lives here before 8.2 */
#endif

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_options.h"
#include "redlock_resource.h"
#include "redlock_scripts.h"
#include "redlock_servers.h"
#include "rl_algorithm.h"
#include "rl_fanout.h"
#include "rl_resp.h"
#include "rl_scripts.h"
#include "redlock_arginfo.h"

zend_class_entry *redlock_ce;
zend_class_entry *redlock_exception_ce;
static zend_object_handlers redlock_object_handlers;

static const char unlock_script[] = RL_SCRIPT_UNLOCK;

static zend_object *redlock_create(zend_class_entry *ce)
{
	redlock_object *intern = zend_object_alloc(sizeof(redlock_object), ce);

	zend_object_std_init(&intern->std, ce);
	object_properties_init(&intern->std, ce);
	intern->std.handlers = &redlock_object_handlers;
	return &intern->std;
}

static void redlock_release_cluster(redlock_object *intern)
{
	rl_cluster_destroy(intern->cluster);
	intern->cluster = NULL;
	if (intern->outcomes) {
		efree(intern->outcomes);
		intern->outcomes = NULL;
	}
	redlock_options_release(&intern->options);
	redlock_extensions_destroy(intern);
}

static void redlock_free(zend_object *object)
{
	redlock_release_cluster(redlock_from_obj(object));
	zend_object_std_dtor(object);
}

redlock_object *redlock_ready(zval *this_zv)
{
	redlock_object *intern = Z_REDLOCK_P(this_zv);

	if (intern->cluster == NULL) {
		zend_throw_error(NULL, "%s object is not initialized: its constructor did not run or failed",
			ZSTR_VAL(Z_OBJCE_P(this_zv)->name));
		return NULL;
	}
	return intern;
}

PHP_METHOD(RedLock, __construct)
{
	HashTable *servers;
	HashTable *options_array = NULL;
	zend_long retry_delay = REDLOCK_DEFAULT_RETRY_DELAY;
	zend_long retry_count = REDLOCK_DEFAULT_RETRY_COUNT;
	redlock_object *intern = Z_REDLOCK_P(ZEND_THIS);
	redlock_options options;
	rl_cluster *cluster;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ARRAY_HT(servers)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(retry_delay)
		Z_PARAM_LONG(retry_count)
		Z_PARAM_ARRAY_HT(options_array)
	ZEND_PARSE_PARAMETERS_END();

	if (intern->running > 0) {
		/* run() releases through this object's servers: they must stay until it has. */
		zend_throw_error(NULL, "Cannot re-initialize %s inside its run()", ZSTR_VAL(Z_OBJCE_P(ZEND_THIS)->name));
		RETURN_THROWS();
	}
	if (retry_delay < 0) {
		zend_argument_value_error(2, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (retry_count < 0) {
		zend_argument_value_error(3, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	cluster = redlock_servers_parse(servers, 1);
	if (cluster == NULL) {
		RETURN_THROWS();
	}
	redlock_options_init(&options, (unsigned) cluster->count);
	options.persistent = REDLOCK_G(persistent); /* the INI default; $options may override it */
	if (options_array && redlock_options_parse(options_array, 4, (unsigned) cluster->count, &options) != SUCCESS) {
		redlock_options_release(&options);
		rl_cluster_destroy(cluster);
		RETURN_THROWS();
	}
	cluster->greeting = redlock_scripts_greeting(&cluster->greeting_count);
	redlock_servers_set_persistent(cluster, options.persistent);

	redlock_release_cluster(intern); /* a second constructor call starts afresh */
	intern->cluster = cluster;
	intern->outcomes = ecalloc(cluster->count, sizeof(rl_outcome));
	redlock_outcomes_reset(intern->outcomes, cluster->count);
	intern->retry_delay = retry_delay;
	intern->retry_count = retry_count;
	intern->options = options;
	intern->quorum = options.quorum;
	intern->drift_factor = options.drift_factor;
}

static uint32_t random_u32(void)
{
	uint32_t value = 0;

	if (php_random_bytes_silent(&value, sizeof(value)) != SUCCESS) {
		value = (uint32_t) php_mt_rand();
	}
	return value;
}

/* Waits between attempts, reading the replies of the release meanwhile. */
static void redlock_pause_before_retry(redlock_object *intern)
{
	int64_t delay = rl_retry_delay_ms(intern->retry_delay, random_u32());
	rl_fanout_drain_until(intern->cluster, rl_now_ms() + (double) delay);
}

/* The attempts of one acquisition, for either form of request. */
static bool acquire_attempts(redlock_object *intern, const rl_request *request, const rl_command *release,
	const redlock_resource *resource, zend_long ttl, const char *token, zval *return_value, int64_t *attempts_made)
{
	int64_t attempts = rl_attempts_for(intern->retry_count), attempt;

	for (attempt = 1; attempt <= attempts; attempt++) {
		double start = rl_now_ms();
		unsigned votes = rl_fanout_run(intern->cluster, request, intern->quorum,
			start + (double) ttl, intern->outcomes);
		double validity = rl_validity_ms(ttl, rl_now_ms() - start, intern->drift_factor);

		if (attempts_made) {
			*attempts_made = attempt;
		}
		if (votes >= intern->quorum && validity > 0) {
			redlock_lock_result(return_value, validity, resource, token, RL_TOKEN_LEN);
			return true;
		}
		/* Pipelined behind any SET still in flight, so it also undoes those once they land. */
		rl_fanout_send(intern->cluster, release);
		if (attempt < attempts) {
			redlock_pause_before_retry(intern);
		}
	}
	return false;
}

bool redlock_acquire(redlock_object *intern, const redlock_resource *resource, zend_long ttl,
	zval *return_value, int64_t *attempts_made)
{
	unsigned char random_bytes[RL_TOKEN_BYTES];
	char token[RL_TOKEN_LEN + 1];
	char ttl_text[21];
	size_t ttl_len;
	bool acquired;

	if (php_random_bytes_throw(random_bytes, sizeof(random_bytes)) != SUCCESS) {
		return false;
	}
	rl_token_format(random_bytes, token);
	ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl); /* ttl >= 1: checked by the caller */

	if (!resource->multi) {
		zend_string *key = resource->keys[0];
		const char *set_argv[] = {"SET", ZSTR_VAL(key), token, "NX", "PX", ttl_text};
		size_t set_argvlen[] = {3, ZSTR_LEN(key), RL_TOKEN_LEN, 2, 2, ttl_len};
		const char *release_argv[] = {"EVAL", unlock_script, "1", ZSTR_VAL(key), token};
		size_t release_argvlen[] = {4, sizeof(unlock_script) - 1, 1, ZSTR_LEN(key), RL_TOKEN_LEN};
		rl_request set_request = {{6, set_argv, set_argvlen}, {0, NULL, NULL}, RL_EXPECT_OK, 0};
		const rl_command release = {5, release_argv, release_argvlen};

		return acquire_attempts(intern, &set_request, &release, resource, ttl, token, return_value, attempts_made);
	}

	/* Several resources: one script per server sets all of them or none. */
	const char *lock_args[] = {token, ttl_text};
	const size_t lock_arglens[] = {RL_TOKEN_LEN, ttl_len};
	redlock_script_call lock_call, unlock_call;

	redlock_script_call_init(&lock_call, &redlock_script_lock_multi, resource, 2, lock_args, lock_arglens,
		RL_EXPECT_POSITIVE_INT);
	redlock_script_call_init(&unlock_call, &redlock_script_unlock_multi, resource, 1, lock_args, lock_arglens,
		RL_EXPECT_POSITIVE_INT);
	acquired = acquire_attempts(intern, &lock_call.request, &unlock_call.request.fallback, resource, ttl, token,
		return_value, attempts_made);
	redlock_script_call_free(&lock_call);
	redlock_script_call_free(&unlock_call);
	return acquired;
}

redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token)
{
	redlock_object *intern = redlock_ready(this_zv);

	if (intern == NULL || redlock_lock_parse(lock, intern->options.prefix, 1, resource, token) != SUCCESS) {
		return NULL;
	}
	return intern;
}

zend_result redlock_acquire_args(redlock_object *intern, HashTable *names, zend_string *name, zend_long ttl,
	redlock_resource *resource)
{
	if (redlock_resource_from_args(resource, names, name, intern->options.prefix, 1) != SUCCESS) {
		return FAILURE;
	}
	if (ttl < 1) {
		redlock_resource_release(resource);
		zend_argument_value_error(2, "must be greater than 0");
		return FAILURE;
	}
	return SUCCESS;
}

PHP_METHOD(RedLock, lock)
{
	HashTable *names = NULL;
	zend_string *name = NULL;
	zend_long ttl;
	redlock_object *intern;
	redlock_resource resource;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_ARRAY_HT_OR_STR(names, name)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (redlock_acquire_args(intern, names, name, ttl, &resource) != SUCCESS) {
		RETURN_THROWS();
	}
	if (!redlock_acquire(intern, &resource, ttl, return_value, NULL)) {
		redlock_resource_release(&resource);
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	redlock_resource_release(&resource);
}

bool redlock_release(redlock_object *intern, const redlock_resource *resource, zend_string *token)
{
	unsigned votes;

	redlock_extensions_forget(intern, token);
	if (!resource->multi) {
		zend_string *key = resource->keys[0];
		const char *evalsha_argv[] = {"EVALSHA", redlock_unlock_sha, "1", ZSTR_VAL(key), ZSTR_VAL(token)};
		size_t evalsha_argvlen[] = {7, 40, 1, ZSTR_LEN(key), ZSTR_LEN(token)};
		const char *eval_argv[] = {"EVAL", unlock_script, "1", ZSTR_VAL(key), ZSTR_VAL(token)};
		size_t eval_argvlen[] = {4, sizeof(unlock_script) - 1, 1, ZSTR_LEN(key), ZSTR_LEN(token)};
		const rl_request request = {
			{5, evalsha_argv, evalsha_argvlen}, {5, eval_argv, eval_argvlen}, RL_EXPECT_POSITIVE_INT, 0
		};

		votes = rl_fanout_run(intern->cluster, &request, intern->quorum, 0, intern->outcomes);
	} else {
		const char *args[] = {ZSTR_VAL(token)};
		const size_t arglens[] = {ZSTR_LEN(token)};
		redlock_script_call call;

		redlock_script_call_init(&call, &redlock_script_unlock_multi, resource, 1, args, arglens,
			RL_EXPECT_POSITIVE_INT);
		votes = rl_fanout_run(intern->cluster, &call.request, intern->quorum, 0, intern->outcomes);
		redlock_script_call_free(&call);
	}
	return votes >= intern->quorum;
}

PHP_METHOD(RedLock, unlock)
{
	HashTable *lock;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	bool released;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(lock)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	released = redlock_release(intern, &resource, token);
	redlock_resource_release(&resource);
	RETURN_BOOL(released);
}

/* Per server of the last call, in the constructor's order: null, or why it did not vote yes. */
PHP_METHOD(RedLock, getLastErrors)
{
	redlock_object *intern;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	redlock_outcomes_to_array(return_value, intern->outcomes, intern->cluster->count);
}

/* var_dump()/print_r(): the servers' addresses and databases, never their credentials. */
static HashTable *redlock_debug_info(zend_object *object, int *is_temp)
{
	redlock_object *intern = redlock_from_obj(object);
	HashTable *info = zend_array_dup(zend_std_get_properties(object)); /* a subclass' own properties */
	zval servers;

	*is_temp = 1;
	if (intern->cluster != NULL) {
		redlock_servers_describe(&servers, intern->cluster);
		zend_hash_str_update(info, "servers", sizeof("servers") - 1, &servers);
	}
	return info;
}

void redlock_class_register(int module_number)
{
	redlock_scripts_init();
	redlock_resource_startup();
	register_redlock_symbols(module_number);
	redlock_ce = register_class_RedLock();
	redlock_ce->create_object = redlock_create;
	redlock_exception_ce = register_class_RedLockException(spl_ce_RuntimeException);

	memcpy(&redlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	redlock_object_handlers.offset = XtOffsetOf(redlock_object, std);
	redlock_object_handlers.free_obj = redlock_free;
	redlock_object_handlers.get_debug_info = redlock_debug_info;
	redlock_object_handlers.clone_obj = NULL; /* connections and lock state are not copyable */
}
