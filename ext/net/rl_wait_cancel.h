/* A cancelled wait: a waiter (net/rl_wait.h) ends a wait with -1 and errno ECANCELED when the
 * control flow it waits for can no longer wait (an exception was thrown into the suspended Fiber,
 * PHP is destroying it). The call then ends as soon as it can, without waiting again: the fan-out
 * fails the servers still pending (their connections are closed), notified waiting stops, and
 * the few attempts lock() has left find every wait cancelled at once. docs/design/event-loops.md. */
#ifndef RL_WAIT_CANCEL_H
#define RL_WAIT_CANCEL_H

#include <errno.h>

static inline int rl_wait_cancelled(int poll_result)
{
	return poll_result < 0 && errno == ECANCELED;
}

#endif
