/* RedLock::unlock(), RedLock::extend() and RedLock::validity(): calls on a held lock's array; and
 * RedLock::forceUnlock(), on a resource whoever holds it.
 * Arguments in, results out; the client (client/rl_client.h) checks the lease and asks the
 * servers with the lock kind's own scripts. */
#include "php.h"
#include "zend_exceptions.h"

#include "runtime/redlock_calls.h"
#include "runtime/redlock_loss.h"
#include "runtime/redlock_observe.h"
#include "core/rl_token.h"

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
	redlock_observe(intern, "unlock", &resource.names);
	redlock_resource_release(&resource);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(released);
}

PHP_METHOD(RedLock, forceUnlock)
{
	HashTable *names = NULL;
	zend_string *name = NULL;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_target target;
	bool released;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT_OR_STR(names, name)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL
		|| redlock_resource_from_args(&resource, names, name, intern->prefix, 1) != SUCCESS) {
		RETURN_THROWS();
	}
	target = redlock_resource_target(&resource);
	released = rl_client_force_release(&intern->client, &target);
	redlock_observe(intern, "forceUnlock", &resource.names);
	redlock_resource_release(&resource);
	RETURN_BOOL(released);
}

static const char *scripts_off_why(redlock_object *intern)
{
	return rl_client_scripts_off(&intern->client) == 1 ? "\"scripts\" => false" : "the servers answered NOPERM";
}

PHP_METHOD(RedLock, extend)
{
	HashTable *lock;
	zend_long ttl;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_target held;
	double validity;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_ARRAY_HT(lock)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	held = redlock_resource_target(&resource);
	if (!redlock_ttl_argument(ttl, 2)) {
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}
	validity = rl_client_extend(&intern->client, &held, ZSTR_VAL(token), ZSTR_LEN(token), ttl);
	redlock_observe(intern, "extend", &resource.names);
	if (validity > 0) {
		redlock_lock_result(return_value, validity, &resource, ZSTR_VAL(token), ZSTR_LEN(token));
	}
	if (validity == RL_CALL_NEEDS_SCRIPTS) {
		redlock_throw_needs_scripts(&resource, "extend");
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}
	redlock_resource_release(&resource);
	if (validity == RL_EXTEND_OTHER_TTL) {
		zend_argument_value_error(2, "must be the ttl the lock was taken with (" ZEND_LONG_FMT " ms, carried by"
			" [\"token\"]) when scripts are not used (%s): a command with another ttl could cut the lock short for"
			" its other holders", (zend_long) rl_token_ttl(ZSTR_VAL(token), ZSTR_LEN(token)), scripts_off_why(intern));
		RETURN_THROWS();
	}
	if (validity == RL_EXTEND_NO_TTL) {
		zend_argument_value_error(1, "[\"token\"] does not carry the ttl the lock was taken with (a lock of another"
			" client or of an older version), which extending it without scripts (%s) needs", scripts_off_why(intern));
		RETURN_THROWS();
	}
	if (validity < 0) {
		zend_throw_error(NULL, "Out of memory");
		RETURN_THROWS();
	}
	if (validity == 0) {
		RETURN_FALSE;
	}
}

PHP_METHOD(RedLock, validity)
{
	HashTable *lock;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_target held;
	double validity;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(lock)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	held = redlock_resource_target(&resource);
	validity = rl_client_validity(&intern->client, &held, ZSTR_VAL(token), ZSTR_LEN(token));
	redlock_observe(intern, "validity", &resource.names);
	if (validity == RL_CALL_NEEDS_SCRIPTS) {
		redlock_throw_needs_scripts(&resource, "validity");
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}
	redlock_resource_release(&resource);
	if (validity < 0) {
		zend_throw_error(NULL, "Out of memory");
		RETURN_THROWS();
	}
	if (validity == 0) {
		RETURN_FALSE;
	}
	RETURN_DOUBLE(validity);
}
