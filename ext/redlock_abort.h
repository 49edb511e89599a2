/* 'abortOnLoss' (redlock_abort.c): the alarm of run()'s lock, and the end of a request, which stops
 * every renewal. */
#ifndef REDLOCK_ABORT_H
#define REDLOCK_ABORT_H

#include "php.h"

/* run()'s alarm (armed by redlock_abort_arm): lost and not thrown yet; throw it (on this PHP
 * thread: where, redlock_callable.c decides). */
bool redlock_alarm_pending(const void *alarm);
void redlock_alarm_throw(void *alarm);

/* RSHUTDOWN: stops and joins every renewal thread of this request's objects. */
void redlock_abort_request_end(void);

#endif
