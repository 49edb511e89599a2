/* 'abortOnLoss' (redlock_abort.c): the exception thrown into run()'s $fn when its lock is lost,
 * and the end of a request, which stops every renewal. */
#ifndef REDLOCK_ABORT_H
#define REDLOCK_ABORT_H

#include "php.h"

/* MINIT/MSHUTDOWN: chains zend_interrupt_function and observes fiber switches; RSHUTDOWN: stops
 * and joins every renewal thread of this request's objects. */
void redlock_abort_startup(void);
void redlock_abort_shutdown(void);
void redlock_abort_request_end(void);

#endif
