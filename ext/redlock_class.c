/* The RedLock PHP class: the object, its constructor, getLastErrors(), var_dump(). Zend glue:
 * the client (client/rl_client.h) decides. lock(), lockShared() and lockSemaphore() are in
 * redlock_acquire.c; unlock(), extend() and validity() in redlock_held.c; run() in redlock_run.c. */
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
#include "runtime/redlock_calls.h"
#include "runtime/redlock_running.h"
#include "arguments/redlock_options.h"
#include "runtime/redlock_loss.h"
#include "arguments/redlock_servers.h"
#include "core/rl_scripts.h"
#include "redlock_arginfo.h"

zend_class_entry *redlock_ce;
static zend_object_handlers redlock_object_handlers;

static zend_object *redlock_create(zend_class_entry *ce)
{
	redlock_object *intern = zend_object_alloc(sizeof(redlock_object), ce);

	zend_object_std_init(&intern->std, ce);
	object_properties_init(&intern->std, ce);
	intern->std.handlers = &redlock_object_handlers;
	return &intern->std;
}

static void redlock_free(zend_object *object)
{
	redlock_object *intern = redlock_from_obj(object);

	redlock_run_object_free(intern); /* run() calls whose stacks were abandoned: their locks released */
	rl_client_destroy(&intern->client);
	redlock_loss_unwatch(intern); /* after: the renewal thread is joined */
	if (intern->prefix) {
		zend_string_release(intern->prefix);
	}
	zval_ptr_dtor(&intern->observer);
	zval_ptr_dtor(&intern->on_loss);
	zend_object_std_dtor(object);
}

/* The driver's randomness: tokens and retry pauses from the CSPRNG. Throws when there is none. */
static int driver_random(void *arg, void *into, size_t len)
{
	(void) arg;
	return php_random_bytes_throw(into, len) == SUCCESS ? 0 : -1;
}

/* Once constructed, for good: the servers, the leases and their renewal thread are what calls in
 * flight (a coroutine or Fiber suspended in a call, a run()) and held locks rely on. An Error, as
 * Fiber's and mysqli's. A constructor that threw left nothing: it may be called again. */
static bool constructed_already(redlock_object *intern)
{
	if (intern->client.cluster == NULL) {
		return false;
	}
	zend_throw_error(NULL, "Cannot call constructor twice");
	return true;
}

/* The constructor's retryDelay (argument 2) and retryCount (3), or false with a ValueError. */
static bool retries_ok(zend_long retry_delay, zend_long retry_count)
{
	if (retry_delay < 0 || retry_delay > RL_RETRY_DELAY_MAX_MS) {
		zend_argument_value_error(2, "must be between 0 and %lld (ms, one hour)", (long long) RL_RETRY_DELAY_MAX_MS);
		return false;
	}
	if (retry_count < 0 || retry_count > RL_RETRY_COUNT_MAX) {
		zend_argument_value_error(3, "must be between 0 and %lld (attempts; waitTimeout waits longer)",
			(long long) RL_RETRY_COUNT_MAX);
		return false;
	}
	return true;
}

/* The object takes the options' prefix and callables (the options keep none of them). */
static void adopt_options(redlock_object *intern, redlock_options *options)
{
	/* A constructor that failed before left nothing to keep (out of memory: its prefix). */
	if (intern->prefix) {
		zend_string_release(intern->prefix);
	}
	intern->prefix = options->prefix;
	zval_ptr_dtor(&intern->observer);
	ZVAL_COPY_VALUE(&intern->observer, &options->observer); /* UNDEF without the option */
	ZVAL_UNDEF(&options->observer);
	zval_ptr_dtor(&intern->on_loss);
	ZVAL_COPY_VALUE(&intern->on_loss, &options->on_loss);
	ZVAL_UNDEF(&options->on_loss);
}

/* The constructor's options: the defaults for cluster's size, the retries, $options (argument 4)
 * over them, then what every client takes from this thread. On FAILURE (thrown) the caller
 * releases options. */
static zend_result construct_options(HashTable *options_array, zend_long retry_delay, zend_long retry_count,
	rl_cluster *cluster, redlock_options *options)
{
	memset(options, 0, sizeof(*options));
	rl_client_config_init(&options->client, (unsigned) cluster->count);
	options->client.retry_delay = retry_delay;
	options->client.retry_count = retry_count;
	options->persistent = REDLOCK_G(persistent); /* the INI default; $options may override it */
	if (options_array && redlock_options_parse(options_array, 4, (unsigned) cluster->count, options) != SUCCESS) {
		return FAILURE;
	}
#ifdef _WIN32
	if (options->client.auto_extend) {
		zend_argument_value_error(4, "option \"autoExtend\" is not supported on Windows");
		return FAILURE;
	}
#endif
	options->client.owner = &REDLOCK_G(pool); /* one per PHP thread: which renewals a request end stops */
	options->client.random = driver_random;
	options->client.scripts = rl_scripts();
	redlock_servers_set_persistent(cluster, options->persistent);
	return SUCCESS;
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

	if (constructed_already(intern)) {
		RETURN_THROWS();
	}
	if (!retries_ok(retry_delay, retry_count) || (cluster = redlock_servers_parse(servers, 1)) == NULL) {
		RETURN_THROWS();
	}
	if (construct_options(options_array, retry_delay, retry_count, cluster, &options) != SUCCESS) {
		redlock_options_release(&options);
		rl_cluster_destroy(cluster);
		RETURN_THROWS();
	}

	if (constructed_already(intern)) { /* meanwhile: by code the arguments ran (an autoloader...) */
		redlock_options_release(&options);
		rl_cluster_destroy(cluster);
		RETURN_THROWS();
	}
	adopt_options(intern, &options);
	if (rl_client_init(&intern->client, cluster, &options.client) != 0) {
		zend_throw_error(NULL, "Out of memory");
		RETURN_THROWS();
	}
	redlock_loss_watch(intern);
	redlock_outcomes_reset(intern->client.outcomes, cluster->count);
}

/* Per server of the last call, in the constructor's order: null, or why it did not vote yes. */
PHP_METHOD(RedLock, getLastErrors)
{
	redlock_object *intern;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	redlock_outcomes_to_array(return_value, rl_client_last_outcomes(&intern->client), intern->client.cluster->count);
}

/* The observer and onLoss are the object's own: a closure holding the object makes a cycle the GC
 * must see. */
static HashTable *redlock_get_gc(zend_object *object, zval **table, int *n)
{
	redlock_object *intern = redlock_from_obj(object);
	zend_get_gc_buffer *buffer = zend_get_gc_buffer_create();

	zend_get_gc_buffer_add_zval(buffer, &intern->observer);
	zend_get_gc_buffer_add_zval(buffer, &intern->on_loss);
	if (intern->loss_locks) {
		zval *lock;

		ZEND_HASH_FOREACH_VAL(intern->loss_locks, lock) {
			zend_get_gc_buffer_add_zval(buffer, lock);
		} ZEND_HASH_FOREACH_END();
	}
	if (object->properties == NULL) {
		int i;

		for (i = 0; i < object->ce->default_properties_count; i++) {
			zend_get_gc_buffer_add_zval(buffer, &object->properties_table[i]);
		}
	}
	zend_get_gc_buffer_use(buffer, table, n);
	return object->properties;
}

/* var_dump()/print_r(): the servers' addresses and databases, never their credentials. */
static HashTable *redlock_debug_info(zend_object *object, int *is_temp)
{
	redlock_object *intern = redlock_from_obj(object);
	HashTable *info = zend_array_dup(zend_std_get_properties(object)); /* a subclass' own properties */
	zval servers;

	*is_temp = 1;
	if (intern->client.cluster != NULL) {
		redlock_servers_describe(&servers, intern->client.cluster);
		zend_hash_str_update(info, "servers", sizeof("servers") - 1, &servers);
	}
	return info;
}

void redlock_class_register(int module_number)
{
	redlock_resource_startup();
	register_redlock_symbols(module_number);
	redlock_ce = register_class_RedLock();
	redlock_ce->create_object = redlock_create;
	redlock_exception_ce = register_class_RedLockException(spl_ce_RuntimeException);
	register_class_RedLockMemory();

	memcpy(&redlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	redlock_object_handlers.offset = offsetof(redlock_object, std);
	redlock_object_handlers.free_obj = redlock_free;
	redlock_object_handlers.get_debug_info = redlock_debug_info;
	redlock_object_handlers.get_gc = redlock_get_gc;
	redlock_object_handlers.clone_obj = NULL; /* connections and lock state are not copyable */
}
