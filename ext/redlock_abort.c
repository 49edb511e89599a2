/* 'abortOnLoss': the exception thrown into run()'s $fn when the renewal thread finds its lock
 * lost, after the 'onLoss' callables (redlock_loss.c) this interrupt also runs; and the end of a
 * request, which stops every renewal. Zend glue: what is lost, and when, is
 * the client's (services/rl_leases.h). */
#include "php.h"
#include "zend_exceptions.h"
#include "zend_observer.h"

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_abort.h"
#include "redlock_loss.h"
#include "net/rl_wait.h"

/* --- abortOnLoss ------------------------------------------------------------------------------ *
 * The renewal thread may not touch PHP. When it finds the lock of a run() with abortOnLoss lost,
 * it stores two flags: the alarm's own (malloc'd, not PHP memory) and the engine's vm_interrupt of
 * the PHP thread that armed it, exactly what max_execution_time's timer and pcntl's signal handler
 * store. The VM then calls zend_interrupt_function on the PHP thread at its next opcode boundary,
 * where redlock_interrupt() throws. Everything else (the list of armed alarms, the exception) is
 * the PHP thread's alone. It throws only into the fiber that runs that run(): when run() sits in a
 * suspended Fiber, the exception waits until the fiber is resumed (a fiber-switch observer raises
 * the interrupt again then), and run() throws after $fn at the latest. */
typedef struct redlock_alarm {
	struct redlock_alarm *next; /* armed on this PHP thread (innermost run() first) */
	int lost;                   /* set by the renewal thread (atomic store) */
	int thrown;
	char *resource;             /* for the message */
	zend_fiber_context *fiber;  /* where run() runs: NULL outside any Fiber */
	long coroutine;             /* and in which Swoole coroutine: 0 outside one */
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool *vm_interrupt;
#else
	zend_bool volatile *vm_interrupt;
#endif
} redlock_alarm;

ZEND_TLS redlock_alarm *armed_alarms; /* ZEND_TLS: static, thread-local under ZTS */
static void (*previous_interrupt)(zend_execute_data *execute_data);

/* What max_execution_time's timer stores: the VM calls zend_interrupt_function at its next opcode. */
static void interrupt_vm(redlock_alarm *alarm)
{
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool_store(alarm->vm_interrupt, true);
#else
	*alarm->vm_interrupt = 1;
#endif
}

static void alarm_raise(void *arg)
{
	redlock_alarm *alarm = arg; /* runs on the renewal thread: two stores, nothing else */

#ifndef _WIN32
	__atomic_store_n(&alarm->lost, 1, __ATOMIC_SEQ_CST);
#else
	alarm->lost = 1;
#endif
	interrupt_vm(alarm);
}

/* Lost, and not thrown yet: on the PHP thread. */
static bool alarm_pending(const redlock_alarm *alarm)
{
#ifndef _WIN32
	int lost = __atomic_load_n(&alarm->lost, __ATOMIC_SEQ_CST);
#else
	int lost = alarm->lost;
#endif
	return lost && !alarm->thrown;
}

static void redlock_interrupt(zend_execute_data *execute_data)
{
	redlock_alarm *alarm;

	if (!EG(exception)) {
		redlock_loss_deliver(); /* 'onLoss' first, in whatever fiber runs: it throws nothing out */
	}
	for (alarm = armed_alarms; alarm; alarm = alarm->next) {
		/* Only into run()'s own coroutine. Swoole tells nobody when it resumes one (and takes every
		 * VM interrupt as "yield now"), so when another runs, run() throws after $fn at the latest. */
		if (alarm_pending(alarm) && !EG(exception) && alarm->fiber == EG(current_fiber_context)
			&& alarm->coroutine == rl_wait_swoole_coroutine()) {
			alarm->thrown = 1;
			zend_throw_exception_ex(redlock_exception_ce, 0,
				"The lock on %s was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)",
				alarm->resource);
			break;
		}
	}
	if (previous_interrupt) {
		previous_interrupt(execute_data);
	}
}

/* Back into the fiber of a run() whose lock was lost meanwhile: interrupt there. */
static void redlock_fiber_switched(zend_fiber_context *from, zend_fiber_context *to)
{
	redlock_alarm *alarm;

	(void) from;
	for (alarm = armed_alarms; alarm; alarm = alarm->next) {
		if (alarm_pending(alarm) && alarm->fiber == to) {
			interrupt_vm(alarm);
		}
	}
}

void redlock_abort_startup(void)
{
	previous_interrupt = zend_interrupt_function;
	zend_interrupt_function = redlock_interrupt;
	zend_observer_fiber_switch_register(redlock_fiber_switched);
}

void redlock_abort_shutdown(void)
{
	if (zend_interrupt_function == redlock_interrupt) {
		zend_interrupt_function = previous_interrupt;
	}
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
	alarm->fiber = EG(current_fiber_context);
	alarm->coroutine = rl_wait_swoole_coroutine();
	alarm->next = armed_alarms;
	armed_alarms = alarm;
	if (rl_client_set_alarm(&intern->client, ZSTR_VAL(token), ZSTR_LEN(token), alarm_raise, alarm) != 0) {
		armed_alarms = alarm->next;
		free(alarm->resource);
		free(alarm);
		return NULL;
	}
	return alarm;
}

void redlock_abort_disarm(redlock_object *intern, zend_string *token, void *handle)
{
	redlock_alarm *alarm = handle, **at;

	if (alarm == NULL) {
		return;
	}
	/* Under the registry's mutex: once this returns its thread can no longer raise this alarm. */
	rl_client_set_alarm(&intern->client, ZSTR_VAL(token), ZSTR_LEN(token), NULL, NULL);
	for (at = &armed_alarms; *at; at = &(*at)->next) {
		if (*at == alarm) {
			*at = alarm->next;
			break;
		}
	}
	free(alarm->resource);
	free(alarm);
}

void redlock_abort_request_end(void)
{
	rl_leases_stop_owned(&REDLOCK_G(pool));
}
