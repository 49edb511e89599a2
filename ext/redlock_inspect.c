/* RedLock::inspect() and RedLock::isLocked(): arguments in, the array out; the read and the
 * decision are core/rl_inspect.c's. */
#include "php.h"
#include "zend_exceptions.h"

#include "runtime/redlock_calls.h"

static const char *kind_name(rl_inspect_kind kind)
{
	return kind == RL_INSPECT_EXCLUSIVE ? "exclusive" : kind == RL_INSPECT_SHARED ? "shared"
		: kind == RL_INSPECT_SEMAPHORE ? "semaphore" : NULL;
}

/* 1 read (*out filled), 0 no quorum of answers, -1 thrown. */
static int inspect_args(zval *this_zv, zend_long limit, HashTable *names, zend_string *name,
	rl_inspection *out)
{
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_keys keys;
	int read;

	if (limit < 0 || limit > RL_SEMAPHORE_MAX_LIMIT) {
		zend_argument_value_error(2, "must be between 0 and %d", RL_SEMAPHORE_MAX_LIMIT);
		return -1;
	}
	if ((intern = redlock_ready(this_zv)) == NULL
		|| redlock_resource_from_args(&resource, names, name, intern->prefix, 1) != SUCCESS) {
		return -1;
	}
	if (limit > 0 && redlock_resource_slots_fit(&resource, limit) != SUCCESS) {
		redlock_resource_release(&resource);
		return -1;
	}
	keys.count = resource.count, keys.keys = resource.key_ptrs, keys.lens = resource.key_lens;
	keys.multi = resource.multi;
	read = rl_client_inspect(&intern->client, &keys, (int64_t) limit, out);
	redlock_resource_release(&resource);
	if (read < 0) {
		zend_throw_error(NULL, "RedLock::inspect(): out of memory");
		return -1;
	}
	return read;
}

PHP_METHOD(RedLock, inspect)
{
	HashTable *names = NULL;
	zend_string *name = NULL;
	zend_long limit = 0;
	rl_inspection seen;
	const char *kind;
	int read;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT_OR_STR(names, name)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();

	if ((read = inspect_args(ZEND_THIS, limit, names, name, &seen)) <= 0) {
		if (read < 0) {
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
	array_init_size(return_value, 6);
	add_assoc_bool(return_value, "held", seen.held);
	if ((kind = kind_name(seen.kind)) != NULL) {
		add_assoc_string(return_value, "kind", kind);
	} else {
		add_assoc_null(return_value, "kind");
	}
	add_assoc_long(return_value, "holders", (zend_long) seen.holders);
	if (seen.held && seen.ttl_ms >= 0) {
		add_assoc_double(return_value, "ttl", seen.ttl_ms);
	} else {
		add_assoc_null(return_value, "ttl");
	}
	if (seen.fence >= 0) {
		add_assoc_long(return_value, "fence", (zend_long) seen.fence);
	} else {
		add_assoc_null(return_value, "fence");
	}
	add_assoc_long(return_value, "waiters", (zend_long) seen.waiters);
	add_assoc_long(return_value, "servers", (zend_long) seen.answered);
}

PHP_METHOD(RedLock, isLocked)
{
	HashTable *names = NULL;
	zend_string *name = NULL;
	rl_inspection seen;
	int read;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT_OR_STR(names, name)
	ZEND_PARSE_PARAMETERS_END();

	if ((read = inspect_args(ZEND_THIS, 0, names, name, &seen)) <= 0) {
		if (read < 0) {
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
	RETURN_BOOL(seen.held);
}
