/* A Swoole coroutine's call cancelled while it waits. Coroutine::cancel($cid, true) makes an exception
 * pending in the coroutine, which PHP throws once our call returns, discarding what it returns: a lock
 * taken after that would live until its ttl, a fair waiter would keep its place. So a wait the
 * coroutine resumes from with a new exception pending is cancelled (-1, ECANCELED), and so is every
 * later wait of the call while that exception stays the pending one: the call ends as a Fiber's
 * cancelled call does (net/rl_wait_cancel.h). An exception pending before the wait (run() releasing
 * after its callable threw) cancels nothing. docs/design/coroutines.md. */
#include "php.h"

#include "net/rl_wait.h"
#include "runtime/redlock_runtime_private.h"
#include "runtime/redlock_swoole.h"

/* The exception that cancelled a wait, referenced so that its address is not reused while remembered. */
ZEND_TLS zend_object *cancelled_by;

static void forget_cancellation(void)
{
	zend_object *was = cancelled_by;

	cancelled_by = NULL; /* first: a wait made while it is freed must not release it again */
	if (was != NULL) {
		redlock_release_later(was); /* inside a wait: never freed here */
	}
}

static const void *pending_exception(void)
{
	return EG(exception);
}

static int cancelled_since(const void *before)
{
	zend_object *now = EG(exception);

	if (cancelled_by != NULL && now == cancelled_by) {
		return 1;
	}
	forget_cancellation(); /* that call is over: the exception was caught or replaced */
	if (now == NULL || now == before) {
		return 0;
	}
	cancelled_by = now;
	GC_ADDREF(now);
	return 1;
}

void redlock_swoole_startup(void)
{
	rl_wait_swoole_register(pending_exception, cancelled_since);
}

void redlock_swoole_request_end(void)
{
	forget_cancellation();
	redlock_release_deferred();
}
