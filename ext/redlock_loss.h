/* 'onLoss' (redlock_loss.c): the application's callable, run on the PHP thread with the lock
 * array and the reason when one of the object's locks is found lost. What is lost, and when, is
 * the client's (services/rl_leases.h); this file delivers it. */
#ifndef REDLOCK_LOSS_H
#define REDLOCK_LOSS_H

#include "php.h"
#include "redlock_object.h"

/* After the client is initialised with 'onLoss' set (intern->on_loss): watch its losses. Before
 * it is destroyed or replaced, and only then: redlock_loss_unwatch (its thread joined first). */
void redlock_loss_watch(redlock_object *intern);
void redlock_loss_unwatch(redlock_object *intern);

/* A lock just handed out (its array), and one released: the arrays the callable receives. Inline
 * tests: without 'onLoss' (loss_locks NULL) they cost one comparison on the drop-in path. */
void redlock_loss_remember_lock(redlock_object *intern, zval *lock);
void redlock_loss_forget_lock(redlock_object *intern, zend_string *token);

static inline void redlock_loss_remember(redlock_object *intern, zval *lock)
{
	if (UNEXPECTED(intern->loss_locks != NULL)) {
		redlock_loss_remember_lock(intern, lock);
	}
}

static inline void redlock_loss_forget(redlock_object *intern, zend_string *token)
{
	if (UNEXPECTED(intern->loss_locks != NULL)) {
		redlock_loss_forget_lock(intern, token);
	}
}

/* The next loss noticed on this PHP thread and not told yet: its object (a reference added: release
 * it after the call), the callable and its two arguments, the lock array and the reason (copies to
 * free); false when none is left. redlock_callable.c calls it from the VM's interrupt (the next
 * opcode after the loss was noticed) and at the end of run()'s $fn. Nothing is held between two
 * calls: a callable that suspends its Fiber, or is interrupted by another loss, holds up no other. */
bool redlock_loss_next(redlock_object **intern, zval *callable, zval args[2]);

/* A loss noticed and not yet told here (cheap: the fiber-switch observer asks). */
bool redlock_loss_due(void);

/* A loss waiting for its Swoole coroutine to run again. */
bool redlock_loss_deferred(void);

#endif
