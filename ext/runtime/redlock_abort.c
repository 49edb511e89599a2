/* 'abortOnLoss': the alarm of a run() whose lock the renewal thread (or a call) finds lost, and
 * the end of a request, which stops every renewal. Where and when the alarm's exception is thrown
 * is the rule of redlock_callable.c; what is lost, and when, is the client's (services/rl_leases.h). */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "runtime/redlock_abort.h"
#include "runtime/redlock_runtime_private.h"

/* The renewal thread may not touch PHP. When it finds the lock of a run() with abortOnLoss lost, it
 * raises the alarm's interrupt (redlock_runtime_private.h: its flag, then the vm_interrupt of the PHP thread
 * that armed it); at the next opcode boundary redlock_callable.c decides whether the exception may
 * land there. */
typedef struct redlock_alarm {
	redlock_interrupt lost;     /* raised by the renewal thread */
	int thrown;
	char *resource;             /* for the message (malloc'd, not PHP memory) */
} redlock_alarm;

static void alarm_raise(void *arg)
{
	redlock_interrupt_raise(&((redlock_alarm *) arg)->lost); /* runs on the renewal thread */
}

bool redlock_alarm_pending(const void *handle)
{
	const redlock_alarm *alarm = handle;

	return redlock_interrupt_flagged(&alarm->lost) && !alarm->thrown;
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
	redlock_interrupt_bind(&alarm->lost);
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
