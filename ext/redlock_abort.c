/* 'abortOnLoss': the alarm of a run() whose lock the renewal thread (or a call) finds lost, and
 * the end of a request, which stops every renewal. Where and when the alarm's exception is thrown
 * is the rule of redlock_callable.c; what is lost, and when, is the client's (services/rl_leases.h). */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_abort.h"

/* The renewal thread may not touch PHP. When it finds the lock of a run() with abortOnLoss lost,
 * it stores two flags: the alarm's own (malloc'd, not PHP memory) and the engine's vm_interrupt of
 * the PHP thread that armed it, exactly what max_execution_time's timer and pcntl's signal handler
 * store. The VM then calls zend_interrupt_function on the PHP thread at its next opcode boundary,
 * where redlock_callable.c decides whether the exception may land there. */
typedef struct redlock_alarm {
	int lost;                   /* set by the renewal thread (atomic store) */
	int thrown;
	char *resource;             /* for the message */
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool *vm_interrupt;
#else
	zend_bool volatile *vm_interrupt;
#endif
} redlock_alarm;

static void alarm_raise(void *arg)
{
	redlock_alarm *alarm = arg; /* runs on the renewal thread: two stores, nothing else */

#ifndef _WIN32
	__atomic_store_n(&alarm->lost, 1, __ATOMIC_SEQ_CST);
#else
	alarm->lost = 1;
#endif
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool_store(alarm->vm_interrupt, true);
#else
	*alarm->vm_interrupt = 1;
#endif
}

bool redlock_alarm_pending(const void *handle)
{
	const redlock_alarm *alarm = handle;
#ifndef _WIN32
	int lost = __atomic_load_n(&alarm->lost, __ATOMIC_SEQ_CST);
#else
	int lost = alarm->lost;
#endif
	return lost && !alarm->thrown;
}

void redlock_alarm_throw(void *handle)
{
	redlock_alarm *alarm = handle;

	alarm->thrown = 1;
	zend_throw_exception_ex(redlock_exception_ce, 0,
		"The lock on %s was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)",
		alarm->resource);
}

void *redlock_abort_arm(redlock_object *intern, zend_string *token, const char *resource)
{
	redlock_alarm *alarm;

	if (!intern->client.config.abort_on_loss) {
		return NULL;
	}
	alarm = calloc(1, sizeof(*alarm));
	if (alarm == NULL || (alarm->resource = strdup(resource)) == NULL) {
		free(alarm);
		return NULL; /* out of memory: run() still throws after $fn */
	}
	alarm->vm_interrupt = &EG(vm_interrupt);
	if (rl_client_set_alarm(&intern->client, ZSTR_VAL(token), ZSTR_LEN(token), alarm_raise, alarm) != 0) {
		free(alarm->resource);
		free(alarm);
		return NULL;
	}
	return alarm;
}

void redlock_abort_disarm(redlock_object *intern, zend_string *token, void *handle)
{
	redlock_alarm *alarm = handle;

	if (alarm == NULL) {
		return;
	}
	/* Under the registry's mutex: once this returns its thread can no longer raise this alarm. */
	rl_client_set_alarm(&intern->client, ZSTR_VAL(token), ZSTR_LEN(token), NULL, NULL);
	free(alarm->resource);
	free(alarm);
}

void redlock_abort_request_end(void)
{
	rl_leases_stop_owned(&REDLOCK_G(pool));
}
