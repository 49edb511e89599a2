/* 'onLoss' (redlock_loss.c): the application's callable, run on the PHP thread with the lock
 * array and the reason when one of the object's locks is found lost. What is lost, and when, is
 * the client's (services/rl_leases.h); this file delivers it. */
#ifndef REDLOCK_LOSS_H
#define REDLOCK_LOSS_H

#include "php.h"
#include "runtime/redlock_object.h"

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

#endif
