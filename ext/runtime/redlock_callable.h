/* The application's callables (redlock_callable.c): run()'s $fn, the observer and 'onLoss', called
 * under one rule (docs/design/callables.md): abortOnLoss's exception lands only in the $fn of the
 * run() that lost its lock, never inside an observer or onLoss callable; exit() in any of them ends
 * the script; nothing is held across a callable, so a suspended Fiber delays no other; a callable
 * may call its object again. The runtime, below every method's file. */
#ifndef REDLOCK_CALLABLE_H
#define REDLOCK_CALLABLE_H

#include "php.h"
#include "runtime/redlock_object.h"

typedef enum {
	REDLOCK_CALLABLE_FN,       /* run()'s $fn: where its abortOnLoss alarm may land */
	REDLOCK_CALLABLE_OBSERVER, /* exceptions swallowed, counted as observer_errors */
	REDLOCK_CALLABLE_ON_LOSS   /* exceptions swallowed, counted as on_loss_errors */
} redlock_callable_kind;

/* One callable running, on the caller's C stack. */
typedef struct redlock_callable_frame {
	struct redlock_callable_frame *next;
	redlock_callable_kind kind;
	const redlock_object *intern;
	void *alarm;                /* FN: run()'s abortOnLoss alarm (redlock_abort.c), or NULL */
	zend_fiber_context *fiber;  /* where it runs: NULL outside any Fiber */
	long coroutine;             /* and in which Swoole coroutine: 0 outside one (net/rl_wait.h) */
} redlock_callable_frame;

/* Calls an observer or onLoss callable with argc arguments: what it throws is swallowed and
 * counted, an exception pending before is kept; exit() (or a destroyed Fiber's unwinding) is left
 * pending instead, dropping the one before. Not called at all while exit() unwinds. */
void redlock_callable_call(redlock_object *intern, redlock_callable_kind kind, zval *callable, uint32_t argc,
	zval *argv);

/* Around run()'s $fn (which run() calls itself, exceptions and all): enter before, leave after; after a
 * bailout (zend_catch), unwind instead, which also drops the frames entered inside. */
void redlock_callable_enter(redlock_callable_frame *frame, redlock_callable_kind kind, redlock_object *intern,
	void *alarm);
void redlock_callable_leave(redlock_callable_frame *frame);
void redlock_callable_unwind(redlock_callable_frame *frame);

/* The 'onLoss' callables of every loss noticed on this PHP thread and not told yet
 * (redlock_loss_next): from the VM's interrupt, and at the end of run()'s $fn at the latest. */
void redlock_callable_tell_losses(void);

/* A callable of this kind of this object runs in the current fiber (an observer's own calls on its
 * object are not observed). */
bool redlock_callable_inside(const redlock_object *intern, redlock_callable_kind kind);

/* MINIT/MSHUTDOWN: chains zend_interrupt_function and observes fiber switches; RSHUTDOWN: forgets
 * frames a bailout left. */
void redlock_callable_startup(void);
void redlock_callable_shutdown(void);
void redlock_callable_request_end(void);

#endif
