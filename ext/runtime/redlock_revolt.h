/* Revolt's event loop: the waiter that suspends a Fiber the loop drives (redlock_revolt.c). */
#ifndef REDLOCK_REVOLT_H
#define REDLOCK_REVOLT_H

#include "php.h"

void redlock_revolt_call_in_fiber(void); /* registers the waiter once Revolt is loaded */
void redlock_revolt_request_end(void);   /* RSHUTDOWN: drops what a cancelled wait remembered */

/* At the start of every call that may wait: one load outside a Fiber. */
static zend_always_inline void redlock_revolt_notice_call(void)
{
	if (UNEXPECTED(EG(active_fiber) != NULL)) {
		redlock_revolt_call_in_fiber();
	}
}

#endif
