/* Revolt's event loop: the waiter that suspends a Fiber the loop drives (redlock_revolt.c). */
#ifndef REDLOCK_REVOLT_H
#define REDLOCK_REVOLT_H

void redlock_revolt_startup(void);     /* MINIT: registers the waiter */
void redlock_revolt_request_end(void); /* RSHUTDOWN: drops what a cancelled wait remembered */

#endif
