/* The steps the RedLock methods share: see redlock_calls.h. Every kind goes through redlock_acquire()
 * and so through rl_client_acquire(), which decides everything else (fencing, waiting, tracking,
 * renewal). */
#include "php.h"
#include "zend_exceptions.h"

#include "runtime/redlock_calls.h"
#include "runtime/redlock_loss.h"
#include "runtime/redlock_observe.h"
#include "runtime/redlock_revolt.h"

zend_class_entry *redlock_exception_ce;

redlock_object *redlock_ready(zval *this_zv)
{
	redlock_object *intern = Z_REDLOCK_P(this_zv);

	if (intern->client.cluster == NULL) {
		zend_throw_error(NULL, "%s object is not initialized: its constructor did not run or failed",
			ZSTR_VAL(Z_OBJCE_P(this_zv)->name));
		return NULL;
	}
	redlock_revolt_notice_call(); /* every call that may wait starts here */
	return intern;
}

redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token)
{
	redlock_object *intern = redlock_ready(this_zv);

	if (intern == NULL || redlock_lock_parse(lock, intern->prefix, 1, resource, token) != SUCCESS) {
		return NULL;
	}
	if (redlock_lock_kind_parse(lock, 1, resource, *token) != SUCCESS) {
		redlock_resource_release(resource);
		return NULL;
	}
	return intern;
}

bool redlock_ttl_argument(zend_long ttl, uint32_t arg)
{
	if (ttl < 1) {
		zend_argument_value_error(arg, "must be greater than 0");
		return false;
	}
	if ((int64_t) ttl > RL_TTL_MAX_MS) {
		zend_argument_value_error(arg, "must be at most %lld (ms, about 31.7 years)", (long long) RL_TTL_MAX_MS);
		return false;
	}
	return true;
}

bool redlock_acquire(redlock_object *intern, redlock_resource *resource, zend_string *from, zend_long ttl,
	uint32_t ttl_arg, bool pinned, zval *return_value, int64_t *attempts, const char *call)
{
	rl_lock_target target;
	rl_held_lock held;
	rl_acquire_status status;

	target = redlock_resource_target(resource);
	if (from != NULL) {
		target.from_token = ZSTR_VAL(from);
		target.from_len = ZSTR_LEN(from);
	}
	if (!redlock_ttl_argument(ttl, ttl_arg)) {
		return false;
	}
	status = rl_client_acquire(&intern->client, &target, ttl, pinned, &held);
	if (attempts) {
		*attempts = held.result.attempts;
	}
	if (call && (status != RL_ACQUIRED || !pinned)) {
		redlock_observe(intern, call, &resource->names); /* run() tells of its lock itself, inside its try */
	}
	switch (status) {
	case RL_ACQUIRED:
		redlock_lock_kind_set(&resource->kind, &held, (zend_long) target.limit);
		redlock_lock_result(return_value, held.result.validity, resource, held.result.token, RL_TOKEN_LEN);
		redlock_loss_remember(intern, return_value);
		return true;
	case RL_OUT_OF_MEMORY:
		zend_throw_error(NULL, "Out of memory");
		return false;
	case RL_NOT_TRACKED:
		zend_throw_exception(redlock_exception_ce, "Could not track the lock (autoExtend, maxExtensions or run()):"
			" out of memory or threads; the lock was released", 0);
		return false;
	case RL_NEEDS_SCRIPTS:
		zend_throw_exception_ex(redlock_exception_ce, 0, "%s() of %s needs Lua scripts on the servers, which %s:"
			" without them only lock() and run() work (docs/guide/script-free.md)", call ? call : "lock",
			from != NULL ? "a held lock into another kind" : resource->kind.shared ? "a shared lock" : resource->kind.limit ? "a semaphore" : "a fenced lock",
			rl_client_scripts_off(&intern->client) == 1 ? "\"scripts\" => false forbids"
			: "these servers refuse to this user (NOPERM)");
		return false;
	case RL_FAIR_REFUSED:
		zend_argument_value_error(1, "cannot be queued by option \"fair\": %s() with \"fair\" takes one resource"
			" with lock(), run() or lockSemaphore(), not %s (docs/guide/fair.md)", call ? call : "lock",
			from != NULL ? "promote()" : resource->kind.shared ? "lockShared()" : "a list of resources");
		return false;
	case RL_NO_RANDOM: /* php_random_bytes_throw() threw */
	case RL_NOT_ACQUIRED:
	default:
		return false;
	}
}

/* The lock array, false for contention, or an exception. */

void redlock_throw_needs_scripts(const redlock_resource *resource, const char *call)
{
	zend_throw_exception_ex(redlock_exception_ce, 0, "%s() of %s needs Lua scripts on the servers, which"
		" \"scripts\" => false forbids: nothing was sent (docs/guide/script-free.md)", call,
		resource->kind.shared ? "a shared lock" : resource->kind.limit ? "a semaphore" : "a fenced lock");
}

bool redlock_release(redlock_object *intern, const redlock_resource *resource, zend_string *token)
{
	rl_lock_target held = redlock_resource_target(resource);
	int released;

	redlock_loss_forget(intern, token);
	released = rl_client_release(&intern->client, &held, ZSTR_VAL(token), ZSTR_LEN(token));
	if (released == RL_CALL_NEEDS_SCRIPTS) {
		redlock_throw_needs_scripts(resource, "unlock");
		return false;
	}
	return released > 0;
}
