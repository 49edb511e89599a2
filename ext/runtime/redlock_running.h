/* run() calls in progress, of every object of this PHP thread (redlock_running.c). At the end of the
 * request, and when an object is freed, those that never reached their end (their stack abandoned:
 * a coroutine when another one's fatal error ended the worker, a Fiber never resumed) have their
 * locks released: rl_client_release_pinned(), which releases only what this process took. */
#ifndef REDLOCK_RUNNING_H
#define REDLOCK_RUNNING_H

#include "runtime/redlock_object.h"

void redlock_run_enter(redlock_object *intern); /* a run() holds its lock: listed */
void redlock_run_leave(redlock_object *intern); /* and released it */
void redlock_run_request_end(void);
void redlock_run_object_free(redlock_object *intern);

#endif
