/* 'abortOnLoss' (redlock_abort.c): the alarm of run()'s lock, and the end of a request, which stops
 * every renewal. */
#ifndef REDLOCK_ABORT_H
#define REDLOCK_ABORT_H

#include "php.h"

/* RSHUTDOWN: stops and joins every renewal thread of this request's objects. */
void redlock_abort_request_end(void);

#endif
