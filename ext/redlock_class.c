/* The RedLock PHP class: arguments in, arrays out, exceptions. The algorithm lives in
 * rl_algorithm.c and the I/O in rl_fanout.c; this file only connects them to PHP. */
#include "php.h"
#include "zend_exceptions.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include "php_redlock.h"
#include "redlock_servers.h"
#include "rl_algorithm.h"
#include "rl_fanout.h"
#include "rl_scripts.h"
#include "redlock_arginfo.h"

zend_class_entry *redlock_ce;
static zend_object_handlers redlock_object_handlers;

typedef struct {
	rl_cluster *cluster; /* NULL until the constructor succeeded */
	rl_outcome *outcomes;
	zend_long retry_delay;
	zend_long retry_count;
	unsigned quorum;
	double drift_factor;
	zend_object std;
} redlock_object;

static inline redlock_object *redlock_from_obj(zend_object *obj)
{
	return (redlock_object *) ((char *) obj - XtOffsetOf(redlock_object, std));
}

#define Z_REDLOCK_P(zv) redlock_from_obj(Z_OBJ_P(zv))

static const char *unlock_script = RL_SCRIPT_UNLOCK;
static const char *script_load_argv[] = {"SCRIPT", "LOAD", RL_SCRIPT_UNLOCK};
static size_t script_load_argvlen[] = {6, 4, sizeof(RL_SCRIPT_UNLOCK) - 1};
/* Loaded on every new connection so that an EVALSHA whose reply we stop waiting for still runs. */
static const rl_command connect_greeting[] = {{3, script_load_argv, script_load_argvlen}};

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
}

static void redlock_free(zend_object *object)
{
	redlock_release_cluster(redlock_from_obj(object));
	zend_object_std_dtor(object);
}

/* Fetches the object, throwing when a subclass constructor never called parent::__construct(). */
static redlock_object *redlock_ready(zval *this_zv)
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
	zend_long retry_delay = REDLOCK_DEFAULT_RETRY_DELAY;
	zend_long retry_count = REDLOCK_DEFAULT_RETRY_COUNT;
	redlock_object *intern = Z_REDLOCK_P(ZEND_THIS);
	rl_cluster *cluster;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ARRAY_HT(servers)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(retry_delay)
		Z_PARAM_LONG(retry_count)
	ZEND_PARSE_PARAMETERS_END();

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
	cluster->greeting = connect_greeting;
	cluster->greeting_count = sizeof(connect_greeting) / sizeof(connect_greeting[0]);
	redlock_servers_set_persistent(cluster, REDLOCK_G(persistent));

	redlock_release_cluster(intern); /* a second constructor call starts afresh */
	intern->cluster = cluster;
	intern->outcomes = ecalloc(cluster->count, sizeof(rl_outcome));
	redlock_outcomes_reset(intern->outcomes, cluster->count);
	intern->retry_delay = retry_delay;
	intern->retry_count = retry_count;
	intern->quorum = rl_quorum_for((unsigned) cluster->count);
	intern->drift_factor = RL_DEFAULT_DRIFT_FACTOR;
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

static void redlock_lock_result(zval *return_value, double validity, zend_string *resource, const char *token)
{
	array_init_size(return_value, 3);
	add_assoc_double_ex(return_value, "validity", sizeof("validity") - 1, validity);
	add_assoc_str_ex(return_value, "resource", sizeof("resource") - 1, zend_string_copy(resource));
	add_assoc_stringl_ex(return_value, "token", sizeof("token") - 1, token, RL_TOKEN_LEN);
}

PHP_METHOD(RedLock, lock)
{
	zend_string *resource;
	zend_long ttl;
	redlock_object *intern;
	unsigned char random_bytes[RL_TOKEN_BYTES];
	char token[RL_TOKEN_LEN + 1];
	char ttl_text[MAX_LENGTH_OF_LONG + 1];
	int64_t attempts, attempt;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(resource)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (ZSTR_LEN(resource) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	if (ttl < 1) {
		zend_argument_value_error(2, "must be greater than 0");
		RETURN_THROWS();
	}
	if (php_random_bytes_throw(random_bytes, sizeof(random_bytes)) != SUCCESS) {
		RETURN_THROWS();
	}
	rl_token_format(random_bytes, token);
	snprintf(ttl_text, sizeof(ttl_text), ZEND_LONG_FMT, ttl);

	const char *set_argv[] = {"SET", ZSTR_VAL(resource), token, "NX", "PX", ttl_text};
	size_t set_argvlen[] = {3, ZSTR_LEN(resource), RL_TOKEN_LEN, 2, 2, strlen(ttl_text)};
	const char *release_argv[] = {"EVAL", unlock_script, "1", ZSTR_VAL(resource), token};
	size_t release_argvlen[] = {4, strlen(unlock_script), 1, ZSTR_LEN(resource), RL_TOKEN_LEN};
	const rl_request set_request = {{6, set_argv, set_argvlen}, {0, NULL, NULL}, RL_EXPECT_OK};
	const rl_command release = {5, release_argv, release_argvlen};

	attempts = rl_attempts_for(intern->retry_count);
	for (attempt = 1; attempt <= attempts; attempt++) {
		double start = rl_now_ms();
		unsigned votes = rl_fanout_run(intern->cluster, &set_request, intern->quorum,
			start + (double) ttl, intern->outcomes);
		double validity = rl_validity_ms(ttl, rl_now_ms() - start, intern->drift_factor);

		if (votes >= intern->quorum && validity > 0) {
			redlock_lock_result(return_value, validity, resource, token);
			return;
		}
		/* Pipelined behind any SET still in flight, so it also undoes those once they land. */
		rl_fanout_send(intern->cluster, &release);
		if (attempt < attempts) {
			redlock_pause_before_retry(intern);
		}
	}
	RETURN_FALSE;
}

/* Reads $lock[key] as a string, throwing an error that names the key otherwise. */
static zend_string *lock_field(HashTable *lock, const char *key, size_t key_len)
{
	zval *value = zend_hash_str_find_deref(lock, key, key_len);

	if (value == NULL) {
		zend_argument_value_error(1, "must contain the key \"%s\"", key);
		return NULL;
	}
	if (Z_TYPE_P(value) != IS_STRING) {
		zend_argument_type_error(1, "[\"%s\"] must be of type string, %s given", key, zend_zval_type_name(value));
		return NULL;
	}
	if (Z_STRLEN_P(value) == 0) {
		zend_argument_value_error(1, "[\"%s\"] must not be empty", key);
		return NULL;
	}
	return Z_STR_P(value);
}

PHP_METHOD(RedLock, unlock)
{
	HashTable *lock;
	zend_string *resource, *token;
	redlock_object *intern;
	unsigned votes;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(lock)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if ((resource = lock_field(lock, "resource", sizeof("resource") - 1)) == NULL
		|| (token = lock_field(lock, "token", sizeof("token") - 1)) == NULL) {
		RETURN_THROWS();
	}

	const char *evalsha_argv[] = {"EVALSHA", redlock_unlock_sha, "1", ZSTR_VAL(resource), ZSTR_VAL(token)};
	size_t evalsha_argvlen[] = {7, 40, 1, ZSTR_LEN(resource), ZSTR_LEN(token)};
	const char *eval_argv[] = {"EVAL", unlock_script, "1", ZSTR_VAL(resource), ZSTR_VAL(token)};
	size_t eval_argvlen[] = {4, strlen(unlock_script), 1, ZSTR_LEN(resource), ZSTR_LEN(token)};
	const rl_request request = {
		{5, evalsha_argv, evalsha_argvlen}, {5, eval_argv, eval_argvlen}, RL_EXPECT_POSITIVE_INT
	};

	votes = rl_fanout_run(intern->cluster, &request, intern->quorum, 0, intern->outcomes);
	RETURN_BOOL(votes >= intern->quorum);
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
	register_redlock_symbols(module_number);
	redlock_ce = register_class_RedLock();
	redlock_ce->create_object = redlock_create;

	memcpy(&redlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	redlock_object_handlers.offset = XtOffsetOf(redlock_object, std);
	redlock_object_handlers.free_obj = redlock_free;
	redlock_object_handlers.get_debug_info = redlock_debug_info;
	redlock_object_handlers.clone_obj = NULL; /* connections and lock state are not copyable */
}
