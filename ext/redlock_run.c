/* RedLock::run(): lock, call, always release. */
#include "php.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include "runtime/redlock_calls.h"
#include "runtime/redlock_abort.h"
#include "runtime/redlock_callable.h"
#include "runtime/redlock_loss.h"
#include "runtime/redlock_observe.h"
#include "runtime/redlock_running.h"

/* "a" for one resource, "a", "b" for several, for the exception message. */
static zend_string *describe_resource(const redlock_resource *resource)
{
	smart_str out = {0};
	zval *name;

	if (!resource->multi) {
		smart_str_appendc(&out, '"');
		smart_str_append(&out, Z_STR(resource->names));
		smart_str_appendc(&out, '"');
	} else {
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL(resource->names), name) {
			if (smart_str_get_len(&out) > 0) {
				smart_str_appends(&out, ", ");
			}
			smart_str_appendc(&out, '"');
			smart_str_append(&out, Z_STR_P(name));
			smart_str_appendc(&out, '"');
		} ZEND_HASH_FOREACH_END();
	}
	return smart_str_extract(&out);
}

/* After $fn, however it ended: release the lock and what run() holds. The observer is told of the
 * release unless the request is being torn down (a fatal error, exit(): bailing). */
static void run_finish(redlock_object *intern, redlock_resource *resource, zval *lock, zend_string *token,
	zval args[2], void *alarm, bool bailing)
{
	rl_lock_target held = redlock_resource_target(resource);

	redlock_abort_disarm(intern, token, alarm);
	redlock_loss_forget(intern, token);
	/* Only the process that took it: a child forked inside $fn leaves it to its parent. */
	rl_client_release_own(&intern->client, &held, ZSTR_VAL(token), ZSTR_LEN(token));
	if (!bailing) {
		redlock_observe(intern, "run", &resource->names);
	}
	redlock_run_leave(intern);
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
	zval_ptr_dtor(lock);
	redlock_resource_release(resource);
}

/* run() could not take its lock (contention or no quorum, no exception already). */
static void throw_not_locked(const redlock_resource *resource, int64_t attempts)
{
	zend_string *described = describe_resource(resource);

	zend_throw_exception_ex(redlock_exception_ce, 0,
		"Could not lock %s %s within %" PRId64 " attempt%s", resource->multi ? "the resources" : "the resource",
		ZSTR_VAL(described), attempts, attempts == 1 ? "" : "s");
	zend_string_release(described);
}

/* abortOnLoss: the alarm of run()'s lock, or NULL without the option. */
static void *arm_alarm(redlock_object *intern, const redlock_resource *resource, zend_string *token)
{
	zend_string *described;
	void *alarm;

	if (!intern->client.config.abort_on_loss) {
		return NULL;
	}
	described = describe_resource(resource);
	alarm = redlock_abort_arm(intern, token, ZSTR_VAL(described));
	zend_string_release(described);
	return alarm;
}

/* The lock was not ours all through $fn. */
static void throw_lost(const redlock_object *intern, const redlock_resource *resource)
{
	zend_string *described = describe_resource(resource);

	zend_throw_exception_ex(redlock_exception_ce, 0,
		"The lock on %s was lost during the work: %s", ZSTR_VAL(described), intern->client.config.auto_extend
			? "a renewal did not reach a quorum, or maxExtensions was reached"
			: "its validity ran out (no autoExtend)");
	zend_string_release(described);
}

/* $fn($lock, $this) in its frame, where the alarm may land (redlock_callable.c), the observer's call
 * included, which holds it until the observer returns. A fatal error or max_execution_time inside (a
 * longjmp to zend_catch) releases the lock here, then goes on unwinding: the release is plain C over
 * the object's own cluster and strings allocated before the call, each server bounded by its
 * timeout, so it is safe there. */
static void call_fn(redlock_object *intern, redlock_resource *resource, zval *lock, zend_string *token,
	zval args[2], void *alarm, zend_fcall_info *fci, zend_fcall_info_cache *fcc)
{
	redlock_callable_frame frame;

	redlock_callable_enter(&frame, REDLOCK_CALLABLE_FN, intern, alarm);
	zend_try {
		/* Inside the try: an observer that exits still has the lock released (and $fn not run). */
		redlock_observe(intern, "run", &resource->names);
		if (!EG(exception)) {
			zend_call_function(fci, fcc);
		}
	} zend_catch {
		/* Fatal error, max_execution_time: the renewal thread is stopped and joined by the release
		 * (the last lock of the object) or, at the latest, at the end of the request. */
		redlock_callable_unwind(&frame);
		run_finish(intern, resource, lock, token, args, alarm, true);
		zend_bailout();
	} zend_end_try();
	redlock_callable_leave(&frame);
}

/* Was the lock ours all through $fn? Its lease says, before the release, with no round trip: lost
 * when a renewal failed or its validity ran out (renewals capped, or none asked for). An unlock()
 * inside $fn dropped the lease: a release, not a loss. A loss replaces $fn's result by the exception. */
static void throw_if_lost(redlock_object *intern, const redlock_resource *resource, zend_string *token,
	zval *return_value)
{
	bool lost = rl_client_lease(&intern->client, ZSTR_VAL(token), ZSTR_LEN(token)) == RL_LEASE_LOST;

	redlock_callable_tell_losses(); /* 'onLoss' at run()'s end at the latest, before its exception */
	if (lost && !EG(exception)) {
		throw_lost(intern, resource);
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

PHP_METHOD(RedLock, run)
{
	HashTable *names = NULL;
	zend_string *name = NULL;
	zend_long ttl;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	redlock_object *intern;
	redlock_resource resource;
	int64_t attempts = 0;
	zval lock, args[2], *token;
	void *alarm = NULL;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_ARRAY_HT_OR_STR(names, name)
		Z_PARAM_LONG(ttl)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (redlock_resource_from_args(&resource, names, name, intern->prefix, 1) != SUCCESS) {
		RETURN_THROWS();
	}
	if (!redlock_acquire(intern, &resource, NULL, ttl, 2, true, &lock, &attempts, "run")) {
		if (!EG(exception)) {
			throw_not_locked(&resource, attempts);
		}
		redlock_resource_release(&resource);
		RETURN_THROWS();
	}

	ZVAL_COPY(&args[0], &lock);
	ZVAL_OBJ_COPY(&args[1], Z_OBJ_P(ZEND_THIS));
	fci.retval = return_value;
	fci.params = args;
	fci.param_count = 2;
	token = zend_hash_str_find(Z_ARRVAL(lock), "token", sizeof("token") - 1);

	/* The finally part runs whether $fn returned, threw (exit() too: an unwind_exit exception, after
	 * which no observer or onLoss callable runs) or ended the request (call_fn). The release never
	 * throws, so an exception from $fn is what propagates; a failed release (the lock already expired)
	 * is not reported. A run() whose stack is abandoned instead (another coroutine's fatal error ended
	 * the worker, a Fiber never resumed) is released at the end of the request: redlock_run_enter()
	 * lists the object for redlock_run_request_end(). */
	redlock_run_enter(intern);
	alarm = arm_alarm(intern, &resource, Z_STR_P(token));
	call_fn(intern, &resource, &lock, Z_STR_P(token), args, alarm, &fci, &fcc);
	throw_if_lost(intern, &resource, Z_STR_P(token), return_value);
	run_finish(intern, &resource, &lock, Z_STR_P(token), args, alarm, false);
}
