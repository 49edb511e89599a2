/* The RedLock PHP class: arguments in, arrays out, exceptions. The algorithm lives in
 * rl_algorithm.c and the I/O in rl_fanout.c; this file only connects them to PHP.
 * extend()/validity() are in redlock_extend.c, run() in redlock_run.c. */
#include "php.h"
#include "zend_attributes.h" /* #[\SensitiveParameter] in redlock_arginfo.h */
#include "zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_options.h"
#include "redlock_resource.h"
#include "redlock_scripts.h"
#include "redlock_servers.h"
#include "core/rl_algorithm.h"
#include "net/rl_fanout.h"
#include "core/rl_lock.h"
#include "core/rl_kinds.h"
#include "redlock_arginfo.h"

zend_class_entry *redlock_ce;
zend_class_entry *redlock_exception_ce;
static zend_object_handlers redlock_object_handlers;

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
	redlock_watch_destroy(intern); /* joins its thread first: it copies nothing back */
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

/* The driver's randomness: tokens and retry pauses from the CSPRNG. Throws when there is none. */
static int driver_random(void *arg, void *into, size_t len)
{
	(void) arg;
	return php_random_bytes_throw(into, len) == SUCCESS ? 0 : -1;
}

void redlock_bind_driver(redlock_object *intern)
{
	intern->policy.quorum = intern->quorum;
	intern->policy.drift_factor = intern->drift_factor;
	intern->policy.retry_delay = intern->retry_delay;
	intern->policy.retry_count = intern->retry_count;
	intern->policy.call_bound_ms = rl_cluster_call_bound(intern->cluster);
	intern->policy.scripts = redlock_scripts();
	/* waiters ('waitTimeout') are woken by the unlock script's PUBLISH, which DELEX cannot send */
	intern->policy.announce_releases = intern->options.wait_timeout >= 0;
	rl_fanout_bind(intern->cluster, &intern->io);
	intern->io.random = driver_random;
	rl_shared_policy(&intern->policy, &intern->shared_scripts, &intern->shared_policy);
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
	redlock_bind_driver(intern);
	if (redlock_watch_setup(intern) != SUCCESS) {
		redlock_release_cluster(intern);
		RETURN_THROWS();
	}
}

bool redlock_acquire(redlock_object *intern, const redlock_resource *resource, zend_long ttl,
	zval *return_value, int64_t *attempts_made)
{
	rl_lock_keys keys = redlock_resource_keys(resource);
	rl_lock_result result;
	int won;

	if (intern->options.fencing) {
		return redlock_acquire_fenced(intern, resource, ttl, return_value, attempts_made);
	}
	won = intern->options.wait_timeout < 0
		? rl_lock_acquire(&intern->io, &intern->policy, &keys, ttl, intern->outcomes, &result)
		: redlock_wait_acquire(intern, &intern->policy, &keys, ttl, &result);

	if (attempts_made) {
		*attempts_made = result.attempts;
	}
	if (won < 0) {
		zend_throw_error(NULL, "Out of memory");
		return false;
	}
	if (won == 0) {
		return false; /* with an exception pending when no random bytes could be had */
	}
	if (intern->watchdog && redlock_watch_add(intern, &keys, &result, ttl) != SUCCESS) {
		return false;
	}
	redlock_lock_result(return_value, result.validity, resource, result.token, RL_TOKEN_LEN);
	return true;
}

redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token)
{
	redlock_object *intern = redlock_ready(this_zv);

	if (intern == NULL || redlock_lock_parse(lock, intern->options.prefix, 1, resource, token) != SUCCESS) {
		return NULL;
	}
	if (redlock_lock_kind_parse(lock, 1, resource, *token) != SUCCESS) {
		redlock_resource_release(resource);
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
	rl_lock_keys keys = redlock_resource_keys(resource);
	int votes;

	redlock_extensions_forget(intern, token);
	votes = rl_lock_release(&intern->io, redlock_policy_for(intern, resource), &keys, ZSTR_VAL(token), ZSTR_LEN(token),
		intern->outcomes);
	if (intern->watchdog) {
		redlock_watch_forget(intern, token); /* after the release: others need not wait for the join */
	}
	return votes >= 0 && (unsigned) votes >= intern->quorum;
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
	redlock_object_handlers.offset = offsetof(redlock_object, std);
	redlock_object_handlers.free_obj = redlock_free;
	redlock_object_handlers.get_debug_info = redlock_debug_info;
	redlock_object_handlers.clone_obj = NULL; /* connections and lock state are not copyable */
}
