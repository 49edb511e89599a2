/* The Zend side of 'autoExtend', 'abortOnLoss' and 'waitTimeout' (redlock_renewal.c). */
#ifndef REDLOCK_WATCH_H
#define REDLOCK_WATCH_H

#include "php.h"
#include "core/rl_lock.h"

struct redlock_object_s;

/* MINIT/MSHUTDOWN: chains zend_interrupt_function (abortOnLoss); RSHUTDOWN: stops and joins every
 * renewal thread of this request's objects. */
void redlock_watch_startup(void);
void redlock_watch_shutdown(void);
void redlock_watch_request_end(void);

#endif
