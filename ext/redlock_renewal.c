/* The Zend side of 'autoExtend' (rl_watchdog.c), 'abortOnLoss' and 'waitTimeout' (rl_notify.c).
 * Objects without these options never reach this file beyond a NULL or -1 check. */
#include "php.h"
#include "zend_exceptions.h"

#include "php_redlock.h"
#include "redlock_object.h"
#include "redlock_renewal.h"
#include "services/rl_notify.h"
#include "services/rl_watchdog.h"

/* --- abortOnLoss ------------------------------------------------------------------------------ *
 * The watchdog's thread may not touch PHP. When it finds the lock of a run() with abortOnLoss lost,
 * it stores two flags: the alarm's own (malloc'd, not PHP memory) and the engine's vm_interrupt of
 * the PHP thread that armed it, exactly what max_execution_time's timer and pcntl's signal handler
 * store. The VM then calls zend_interrupt_function on the PHP thread at its next opcode boundary,
 * where redlock_interrupt() throws. Everything else (the list of armed alarms, the exception) is
 * the PHP thread's alone. */
typedef struct redlock_alarm {
	struct redlock_alarm *next; /* armed on this PHP thread (innermost run() first) */
	int lost;                   /* set by the watchdog thread (atomic store) */
	int thrown;
	char *resource;             /* for the message */
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool *vm_interrupt;
#else
	zend_bool volatile *vm_interrupt;
#endif
} redlock_alarm;

ZEND_TLS redlock_alarm *armed_alarms; /* ZEND_TLS: static, thread-local under ZTS */
static void (*previous_interrupt)(zend_execute_data *execute_data);

static void alarm_raise(void *arg)
{
	redlock_alarm *alarm = arg; /* runs on the watchdog thread: two stores, nothing else */

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

static void redlock_interrupt(zend_execute_data *execute_data)
{
	redlock_alarm *alarm;

	for (alarm = armed_alarms; alarm; alarm = alarm->next) {
#ifndef _WIN32
		int lost = __atomic_load_n(&alarm->lost, __ATOMIC_SEQ_CST);
#else
		int lost = alarm->lost;
#endif
		if (lost && !alarm->thrown && !EG(exception)) {
			alarm->thrown = 1;
			zend_throw_exception_ex(redlock_exception_ce, 0,
				"The lock on %s was lost during the work: a renewal did not reach a quorum (abortOnLoss)",
				alarm->resource);
			break;
		}
	}
	if (previous_interrupt) {
		previous_interrupt(execute_data);
	}
}

void redlock_watch_startup(void)
{
	previous_interrupt = zend_interrupt_function;
	zend_interrupt_function = redlock_interrupt;
}

void redlock_watch_shutdown(void)
{
	if (zend_interrupt_function == redlock_interrupt) {
		zend_interrupt_function = previous_interrupt;
	}
}

void *redlock_watch_arm(redlock_object *intern, zend_string *token, const char *resource)
{
	redlock_alarm *alarm;

	if (intern->watchdog == NULL || !intern->options.abort_on_loss) {
		return NULL;
	}
	alarm = calloc(1, sizeof(*alarm));
	if (alarm == NULL || (alarm->resource = strdup(resource)) == NULL) {
		free(alarm);
		return NULL; /* out of memory: run() still throws after $fn */
	}
	alarm->vm_interrupt = &EG(vm_interrupt);
	alarm->next = armed_alarms;
	armed_alarms = alarm;
	if (rl_watchdog_set_alarm(intern->watchdog, ZSTR_VAL(token), ZSTR_LEN(token), alarm_raise, alarm) != 0) {
		armed_alarms = alarm->next;
		free(alarm->resource);
		free(alarm);
		return NULL;
	}
	return alarm;
}

void redlock_watch_disarm(redlock_object *intern, zend_string *token, void *handle)
{
	redlock_alarm *alarm = handle, **at;

	if (alarm == NULL) {
		return;
	}
	/* Under the watchdog's mutex: once this returns its thread can no longer raise this alarm. */
	rl_watchdog_set_alarm(intern->watchdog, ZSTR_VAL(token), ZSTR_LEN(token), NULL, NULL);
	for (at = &armed_alarms; *at; at = &(*at)->next) {
		if (*at == alarm) {
			*at = alarm->next;
			break;
		}
	}
	free(alarm->resource);
	free(alarm);
}

/* --- autoExtend ------------------------------------------------------------------------------- */

zend_result redlock_watch_setup(redlock_object *intern)
{
	rl_watchdog_config config;

	if (!intern->options.auto_extend) {
		if (intern->options.abort_on_loss) {
			zend_argument_value_error(4, "option \"abortOnLoss\" needs \"autoExtend\" => true");
			return FAILURE;
		}
		return SUCCESS;
	}
	config.servers = intern->cluster;
	config.quorum = intern->quorum;
	config.drift_factor = intern->drift_factor;
	config.scripts = intern->policy.scripts;
	config.max_extensions = intern->options.max_extensions == REDLOCK_UNLIMITED_EXTENSIONS
		? -1 : (int64_t) intern->options.max_extensions;
	config.owner = &REDLOCK_G(pool); /* one per PHP thread: which watchdogs a request ends */
	intern->watchdog = rl_watchdog_create(&config);
	if (intern->watchdog == NULL) {
#ifdef _WIN32
		zend_argument_value_error(4, "option \"autoExtend\" is not supported on Windows");
#else
		zend_throw_error(NULL, "Out of memory");
#endif
		return FAILURE;
	}
	return SUCCESS;
}

void redlock_watch_destroy(redlock_object *intern)
{
	rl_watchdog_destroy(intern->watchdog);
	intern->watchdog = NULL;
}

void redlock_watch_request_end(void)
{
	rl_watchdog_stop_owned(&REDLOCK_G(pool));
}

zend_result redlock_watch_add(redlock_object *intern, const rl_lock_keys *keys, const rl_lock_result *result,
	zend_long ttl)
{
	if (intern->watchdog == NULL) {
		return SUCCESS;
	}
	if (rl_watchdog_add(intern->watchdog, keys, result->token, RL_TOKEN_LEN, ttl, result->validity) != 0) {
		/* Not renewed means the lease is shorter than asked: say so rather than lose it silently. */
		rl_lock_release(&intern->io, &intern->policy, keys, result->token, RL_TOKEN_LEN, intern->outcomes);
		zend_throw_exception(redlock_exception_ce, "Could not start the background renewal (autoExtend):"
			" out of memory or threads; the lock was released", 0);
		return FAILURE;
	}
	return SUCCESS;
}

bool redlock_watch_forget(redlock_object *intern, zend_string *token)
{
	if (intern->watchdog == NULL) {
		return false;
	}
	return rl_watchdog_remove(intern->watchdog, ZSTR_VAL(token), ZSTR_LEN(token)) == RL_WATCH_LOST;
}

bool redlock_watch_lost(redlock_object *intern, zend_string *token)
{
	if (intern->watchdog == NULL) {
		return false;
	}
	return rl_watchdog_state(intern->watchdog, ZSTR_VAL(token), ZSTR_LEN(token), NULL) == RL_WATCH_LOST;
}

int redlock_watch_count_extension(redlock_object *intern, zend_string *token)
{
	return rl_watchdog_count_extension(intern->watchdog, ZSTR_VAL(token), ZSTR_LEN(token));
}

/* --- waitTimeout ------------------------------------------------------------------------------ */

typedef struct lock_attempt {
	rl_lock_policy policy; /* the object's, with one attempt per call */
	const rl_lock_keys *keys;
	int64_t ttl;
	rl_outcome *outcomes;
	rl_lock_result *result;
} lock_attempt;

static int attempt_lock(void *arg, const rl_lock_io *io)
{
	lock_attempt *a = arg;
	int won = rl_lock_acquire(io, &a->policy, a->keys, a->ttl, a->outcomes, a->result);

	return won == 0 && a->result->no_random ? -1 : won;
}

int redlock_wait_for(redlock_object *intern, const rl_lock_keys *channels, rl_attempt_fn attempt, void *arg,
	rl_lock_result *result)
{
	rl_wait_stats stats;
	double deadline = rl_now_ms() + (double) intern->options.wait_timeout;
	int won = rl_wait_acquire(intern->cluster, &intern->io, channels, deadline, intern->retry_delay,
		intern->policy.call_bound_ms, attempt, arg, &stats);

	result->attempts = stats.attempts;
	if (won < 0 && EG(exception)) {
		result->no_random = 1;
		return 0;
	}
	return won;
}

int redlock_wait_acquire(redlock_object *intern, const rl_lock_policy *policy, const rl_lock_keys *keys,
	zend_long ttl, rl_lock_result *result)
{
	lock_attempt attempt;

	attempt.policy = *policy;
	attempt.policy.retry_count = 0;
	attempt.keys = keys;
	attempt.ttl = ttl;
	attempt.outcomes = intern->outcomes;
	attempt.result = result;
	return redlock_wait_for(intern, keys, attempt_lock, &attempt, result);
}
