/* What the runtime's files share and the face never sees. Private to runtime/.
 *
 * 1. The interrupt (redlock_interrupt.c): "set a flag from another thread, then interrupt the PHP
 * thread's VM", the one writer of EG(vm_interrupt) in the extension. A thread that may not touch PHP
 * (the renewal thread, or a call noticing a loss under the registry's lock) stores two things, nothing
 * else: a flag of its own and the engine's vm_interrupt of the PHP thread that bound it, exactly what
 * max_execution_time's timer and pcntl's signal handler store. The VM then calls
 * zend_interrupt_function on that PHP thread at its next opcode boundary (redlock_callable.c). Used by
 * the abortOnLoss alarm (redlock_abort.c) and the onLoss watch (redlock_loss.c).
 *
 * 2. The alarm's and the losses' sides that the callables' rule (redlock_callable.c) reads. */
#ifndef REDLOCK_RUNTIME_PRIVATE_H
#define REDLOCK_RUNTIME_PRIVATE_H

#include "php.h"
#include "runtime/redlock_object.h"

typedef struct redlock_interrupt {
	int flag; /* atomic: set by redlock_interrupt_raise/_flag, read by _flagged, taken by _take */
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool *vm_interrupt;
#else
	zend_bool volatile *vm_interrupt;
#endif
} redlock_interrupt;

/* On the PHP thread: ties the flag to this thread's VM (flag cleared). */
void redlock_interrupt_bind(redlock_interrupt *in);

/* Any thread: the flag, then the VM interrupt of the thread that bound it. */
void redlock_interrupt_raise(redlock_interrupt *in);

/* On the PHP thread: the VM interrupt of this thread alone (what arrived while a callable ran lands
 * at the next opcode). */
void redlock_interrupt_here(void);

/* On the PHP thread: our reference to obj let go where PHP code must not run (inside a wait: freeing obj
 * may run a destructor, which may call us again). Only a reference dropped when another is left; the last
 * one is released at the next opcode boundary (redlock_release_deferred, from the VM interrupt) or at
 * request end. The Swoole and Revolt waiters' remembered exceptions. */
void redlock_release_later(zend_object *obj);
void redlock_release_deferred(void); /* at an opcode boundary, and at request end */

/* The flag alone, without interrupting anyone. */
void redlock_interrupt_flag(redlock_interrupt *in);

/* The flag is set (a load); and: reads and clears it (an exchange). */
bool redlock_interrupt_flagged(const redlock_interrupt *in);
bool redlock_interrupt_take(redlock_interrupt *in);

/* run()'s alarm (armed by redlock_abort_arm): lost and not thrown yet; throw it (on this PHP
 * thread: where, redlock_callable.c decides). */
bool redlock_alarm_pending(const void *alarm);
void redlock_alarm_throw(void *alarm);

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
