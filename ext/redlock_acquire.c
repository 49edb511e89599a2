/* RedLock::lock(), RedLock::lockShared() and RedLock::lockSemaphore(), and RedLock::promote() and
 * RedLock::demote() that convert a held lock: arguments in, the lock array out. Every kind goes through redlock_acquire() and so through rl_client_acquire(), which
 * decides everything else (fencing, waiting, tracking, renewal). */
#include "php.h"
#include "zend_exceptions.h"

#include "runtime/redlock_calls.h"

/* The lock array, false for contention, or an exception. */
static void acquire_and_return(redlock_object *intern, redlock_resource *resource, zend_long ttl, uint32_t ttl_arg,
	zval *return_value, const char *call)
{
	bool won = redlock_acquire(intern, resource, NULL, ttl, ttl_arg, false, return_value, NULL, call);

	redlock_resource_release(resource);
	if (!won) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
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

	if ((intern = redlock_ready(ZEND_THIS)) == NULL
		|| redlock_resource_from_args(&resource, names, name, intern->prefix, 1) != SUCCESS) {
		RETURN_THROWS();
	}
	acquire_and_return(intern, &resource, ttl, 2, return_value, "lock");
}

PHP_METHOD(RedLock, lockShared)
{
	zend_string *name;
	zend_long ttl;
	redlock_object *intern;
	redlock_resource resource;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL
		|| redlock_resource_from_args(&resource, NULL, name, intern->prefix, 1) != SUCCESS) {
		RETURN_THROWS();
	}
	resource.kind.shared = true;
	acquire_and_return(intern, &resource, ttl, 2, return_value, "lockShared");
}

PHP_METHOD(RedLock, lockSemaphore)
{
	zend_string *name;
	zend_long limit, ttl;
	redlock_object *intern;
	redlock_resource resource;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(limit)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (limit < 1 || limit > RL_SEMAPHORE_MAX_LIMIT) {
		zend_argument_value_error(2, "must be between 1 and %d", RL_SEMAPHORE_MAX_LIMIT);
		RETURN_THROWS();
	}
	if (redlock_resource_from_args(&resource, NULL, name, intern->prefix, 1) != SUCCESS) {
		RETURN_THROWS();
	}
	if (redlock_resource_slots_fit(&resource, limit) != SUCCESS) {
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}
	resource.kind.limit = limit;
	acquire_and_return(intern, &resource, ttl, 3, return_value, "lockSemaphore");
}

/* promote() and demote(): the held lock's array, and the kind it becomes. */
static void convert_and_return(INTERNAL_FUNCTION_PARAMETERS, bool promote)
{
	HashTable *lock;
	zend_long ttl;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	bool won;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_ARRAY_HT(lock)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	if (promote && !resource.kind.shared) {
		zend_argument_value_error(1, "must be a lock from lockShared()");
	} else if (!promote && (resource.kind.shared || resource.kind.limit || resource.multi)) {
		zend_argument_value_error(1, "must be a lock() of one resource (%s)",
			resource.kind.shared ? "a shared lock is one already"
			: resource.kind.limit ? "a semaphore's slot cannot be shared" : "lockShared() takes one resource");
	}
	if (EG(exception)) {
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}
	memset(&resource.kind, 0, sizeof(resource.kind));
	resource.kind.shared = !promote;
	won = redlock_acquire(intern, &resource, token, ttl, 2, false, return_value, NULL, promote ? "promote" : "demote");
	redlock_resource_release(&resource);
	if (!won) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
}

PHP_METHOD(RedLock, promote)
{
	convert_and_return(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

PHP_METHOD(RedLock, demote)
{
	convert_and_return(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}
