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

/* Exceptions forgotten inside a wait whose last reference was ours: freeing one may run PHP code
 * (a destructor of what it holds, which may call us again), never inside a wait of another call,
 * so they are freed at the next opcode boundary (redlock_swoole_release_forgotten). */
ZEND_TLS HashTable *forgotten;

static void forget_cancellation(void)
{
	zend_object *was = cancelled_by;
	zval held;

	cancelled_by = NULL; /* first: a wait made while it is freed must not release it again */
	if (was == NULL) {
		return;
	}
	if (GC_REFCOUNT(was) > 1) {
		GC_DELREF(was); /* someone else holds it: nothing is freed */
		return;
	}
	if (forgotten == NULL) {
		ALLOC_HASHTABLE(forgotten);
		zend_hash_init(forgotten, 1, NULL, ZVAL_PTR_DTOR, 0);
	}
	ZVAL_OBJ(&held, was);
	zend_hash_next_index_insert(forgotten, &held);
	redlock_interrupt_here();
}

void redlock_swoole_release_forgotten(void)
{
	HashTable *ht = forgotten;

	if (ht != NULL) {
		forgotten = NULL; /* a destructor's own waits may forget more: a table of their own */
		zend_hash_destroy(ht);
		FREE_HASHTABLE(ht);
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
	redlock_swoole_release_forgotten();
}
