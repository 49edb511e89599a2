/* 'abortOnLoss' (redlock_abort.c): the alarm of run()'s lock, and the end of a request, which stops
 * every renewal. */
#ifndef REDLOCK_ABORT_H
#define REDLOCK_ABORT_H

#include "php.h"
#include "runtime/redlock_object.h"

/* Arms the alarm of run()'s lock (NULL without the option), and disarms it. */
void *redlock_abort_arm(redlock_object *intern, zend_string *token, const char *resource);
void redlock_abort_disarm(redlock_object *intern, zend_string *token, void *alarm);

/* RSHUTDOWN: stops and joins every renewal thread of this request's objects. */
void redlock_abort_request_end(void);

#endif
