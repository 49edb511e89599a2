/* Revolt's event loop (AMPHP v3): inside a Fiber the loop drives, the extension's waits suspend
 * the Fiber and let the loop run other callbacks (net/rl_wait.h's waiter "revolt"). Zend glue: it
 * only suspends and resumes; when and how long to wait is decided below. Why transparent and not
 * an adapter, and what happens to a cancelled wait: docs/design/event-loops.md. */
#include "php.h"
#include "php_network.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
#include "zend_fibers.h"
#include "zend_interfaces.h"

#include <math.h>

#include "net/rl_wait.h"
#include "runtime/redlock_revolt.h"
#include "runtime/redlock_runtime_private.h"

#define LOOP_CLASS "revolt\\eventloop"

/* The Fiber whose wait an exception ended (thrown into it, or PHP destroying it), and that
 * exception, referenced so that its address is not reused: until the exception stops being the
 * pending one, every wait of that Fiber fails at once with ECANCELED and the call ends
 * (net/rl_wait_cancel.h). A cancelled call never suspends, so no other Fiber runs before it ends. */
ZEND_TLS zend_fiber *cancelled_fiber;
ZEND_TLS zend_object *cancelled_by;

static void forget_cancellation(void)
{
	zend_object *was = cancelled_by;

	cancelled_by = NULL; /* first: a wait made while it is freed must not release it again */
	cancelled_fiber = NULL;
	if (was != NULL) {
		redlock_release_later(was); /* inside a wait: never freed here */
	}
}

static bool call_cancelled(void)
{
	if (cancelled_by == NULL) {
		return false;
	}
	if (EG(exception) == cancelled_by && EG(active_fiber) == cancelled_fiber) {
		return true;
	}
	forget_cancellation(); /* that call is over: the exception was caught or replaced */
	return false;
}

static zend_class_entry *loop_class(void)
{
	/* Loaded, never autoloaded: without Revolt nothing changes. */
	return zend_hash_str_find_ptr(EG(class_table), LOOP_CLASS, sizeof(LOOP_CLASS) - 1);
}

/* A static method of EventLoop, with up to two arguments. false when it threw. */
static bool loop_call(const char *name, zval *ret, uint32_t argc, zval *a, zval *b)
{
	zend_class_entry *ce = loop_class();

	ZVAL_UNDEF(ret);
	if (ce == NULL) {
		return false;
	}
	zend_call_method(NULL, ce, NULL, name, strlen(name), ret, argc, a, b);
	return !EG(exception);
}

/* EventLoop::getDriver()->isRunning(): the loop is on this Fiber's stack (it resumed us). */
static bool loop_running(void)
{
	zend_object *pending = EG(exception);
	zval driver, running;
	bool yes = false;

	EG(exception) = NULL; /* run()'s release after $fn threw: its exception waits meanwhile */
	if (loop_call("getDriver", &driver, 0, NULL, NULL) && Z_TYPE(driver) == IS_OBJECT) {
		zend_call_method(Z_OBJ(driver), Z_OBJCE(driver), NULL, "isRunning", sizeof("isRunning") - 1, &running, 0,
			NULL, NULL);
		yes = !EG(exception) && Z_TYPE(running) == IS_TRUE;
	}
	zval_ptr_dtor(&driver);
	if (EG(exception)) {
		zend_clear_exception();
		yes = false;
	}
	EG(exception) = pending;
	return yes;
}

static int revolt_active(void)
{
	zend_fiber *fiber = EG(active_fiber);

	if (fiber == NULL || loop_class() == NULL) {
		return 0;
	}
	if (call_cancelled()) {
		return 1; /* its waits fail at once (revolt_poll) */
	}
	if (fiber->flags & ZEND_FIBER_FLAG_DESTROYED || zend_fiber_switch_blocked()) {
		return 0; /* PHP forbids suspending a Fiber it is destroying, or while it blocks Fiber switches
		           * (destructors the garbage collector runs, for one): wait as outside one */
	}
	return loop_running();
}

/* Calls a method of the loop's driver (EventLoop::getDriver()), with up to two arguments. false
 * when it threw (the exception is pending). */
static bool driver_call(zend_object *driver, const char *name, zval *ret, uint32_t argc, zval *a, zval *b)
{
	ZVAL_UNDEF(ret);
	zend_call_method(driver, driver->ce, NULL, name, strlen(name), ret, argc, a, b);
	return !EG(exception);
}

/* Watchers that resume the suspension: a timer, and each descriptor as a stream that does not
 * own it (freed with PHP_STREAM_FREE_CLOSE_CASTED, which leaves the descriptor open). Their ids
 * are the driver's: they are cancelled on that driver only. */
typedef struct wake_set {
	zend_object *driver;  /* not referenced while suspended: see suspend_once */
	zval *ids;            /* up to 1 + 2n: the timer, readable and writable per descriptor */
	php_stream **streams; /* n */
	unsigned long id_count, stream_count;
} wake_set;

static void watch(wake_set *set, const char *how, zval *target, zval *resume)
{
	zval id;

	if (driver_call(set->driver, how, &id, 2, target, resume) && Z_TYPE(id) == IS_STRING) {
		ZVAL_COPY_VALUE(&set->ids[set->id_count++], &id);
	} else {
		zval_ptr_dtor(&id);
	}
}

static void watch_fds(wake_set *set, rl_pollfd *fds, unsigned long n, zval *resume)
{
	unsigned long k;

	for (k = 0; k < n && !EG(exception); k++) {
		php_stream *stream = php_stream_sock_open_from_socket((php_socket_t) fds[k].fd, NULL);
		zval res;

		if (stream == NULL) {
			continue; /* the timer still wakes us */
		}
		set->streams[set->stream_count++] = stream;
		php_stream_to_zval(stream, &res);
		if (fds[k].events & (POLLIN | RL_POLL_PEER_CLOSED)) {
			watch(set, "onReadable", &res, resume);
		}
		if (fds[k].events & POLLOUT) {
			watch(set, "onWritable", &res, resume);
		}
	}
}

/* Cancels the watchers on their driver when it is still the loop's (a driver PHP is collecting
 * takes them with it), then frees the streams: the descriptors stay open. */
static void unwatch(wake_set *set)
{
	unsigned long i;
	zval current;

	ZVAL_UNDEF(&current);
	if (set->id_count > 0 && loop_call("getDriver", &current, 0, NULL, NULL) && Z_TYPE(current) == IS_OBJECT
		&& Z_OBJ(current) == set->driver) {
		for (i = 0; i < set->id_count; i++) {
			zval ignored;
			driver_call(set->driver, "cancel", &ignored, 1, &set->ids[i], NULL);
			zval_ptr_dtor(&ignored);
			zend_clear_exception();
		}
	}
	zend_clear_exception();
	zval_ptr_dtor(&current);
	for (i = 0; i < set->id_count; i++) {
		zval_ptr_dtor(&set->ids[i]);
	}
	for (i = 0; i < set->stream_count; i++) {
		php_stream_free(set->streams[i], PHP_STREAM_FREE_CLOSE_CASTED); /* the descriptor stays ours */
	}
	efree(set->ids);
	efree(set->streams);
}

/* A closure of $object->name(). */
static bool method_closure(zval *object, const char *name, zval *closure)
{
	zend_function *method = zend_hash_str_find_ptr_lc(&Z_OBJCE_P(object)->function_table, name, strlen(name));

	ZVAL_UNDEF(closure);
	if (method == NULL) {
		return false;
	}
#if PHP_VERSION_ID >= 80600 /* its $this became a zend_object * */
	zend_create_fake_closure(closure, method, method->common.scope, Z_OBJCE_P(object), Z_OBJ_P(object));
#else
	zend_create_fake_closure(closure, method, method->common.scope, Z_OBJCE_P(object), object);
#endif
	return true;
}

/* Remembers the exception that ended a wait: the rest of the call fails at once (call_cancelled). */
static void remember_cancellation(zend_object *thrown, zend_object *pending)
{
	forget_cancellation();
	cancelled_fiber = EG(active_fiber);
	cancelled_by = thrown;
	GC_ADDREF(thrown);
	if (pending != NULL && (zend_is_graceful_exit(thrown) || zend_is_unwind_exit(thrown))) {
		OBJ_RELEASE(pending); /* PHP is destroying the Fiber: nothing is thrown on */
	} else if (pending != NULL) {
		zend_exception_set_previous(thrown, pending);
	}
	EG(exception) = thrown;
}

/* One suspension until a descriptor of fds is ready or left_ms passed (< 0: no timer). Returns
 * false when it ended with an exception: thrown into the Fiber, PHP destroying it, or an error of
 * the loop's; that exception is then pending (after any exception that was pending before).
 *
 * While suspended this C frame holds no reference PHP's cycle collector cannot see: the
 * suspension is held by the watchers' closures (the driver's) and by the closure of its suspend()
 * that the call frame holds. So a Fiber abandoned with its loop (a driver dropped while Fibers
 * wait on it) is collected like any other: PHP destroys it, the wait ends, and the call with it. */
/* This Fiber is running, so its suspension cannot be pending. An exception thrown into the Fiber while
 * it was suspended (Fiber::throw(), from a timer or a cancellation) leaves Revolt's DriverSuspension
 * marked pending, and its next suspend() would fail ("Must call resume() or throw() before calling
 * suspend() again") if the object is still alive then. Revolt 1.x's private $pending; nothing is
 * done where the class has no such property. */
static void forget_stale_pending(zend_object *suspension)
{
	zend_property_info *info = zend_hash_str_find_ptr(&suspension->ce->properties_info, "pending", sizeof("pending") - 1);

	if (info != NULL && !(info->flags & ZEND_ACC_STATIC) && Z_TYPE_P(OBJ_PROP(suspension, info->offset)) == IS_TRUE) {
		ZVAL_FALSE(OBJ_PROP(suspension, info->offset));
	}
}

/* $suspension->suspend(): the Fiber waits here until a watcher resumes it. Our reference to the
 * closure goes to the call frame (which holds one of its own and shows it to the cycle
 * collector): released as the call returns, *suspend then undefined. */
static void call_suspend(zval *suspend)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval ignored;

	if (zend_fcall_info_init(suspend, 0, &fci, &fcc, NULL, NULL) == SUCCESS) {
		fci.retval = &ignored;
		GC_DELREF(Z_OBJ_P(suspend));
		zend_call_function(&fci, &fcc);
		zval_ptr_dtor(&ignored);
		ZVAL_UNDEF(suspend);
	}
}

static bool suspend_once(rl_pollfd *fds, unsigned long n, double left_ms)
{
	zend_object *pending = EG(exception), *thrown;
	zval driver, suspension, resume, suspend, delay;
	wake_set set;

	memset(&set, 0, sizeof(set));
	set.ids = safe_emalloc(2 * n + 1, sizeof(zval), 0);
	set.streams = safe_emalloc(n, sizeof(php_stream *), sizeof(php_stream *));
	ZVAL_UNDEF(&suspension);
	ZVAL_UNDEF(&resume);
	ZVAL_UNDEF(&suspend);
	EG(exception) = NULL; /* run()'s release after $fn threw: its exception waits meanwhile */
	if (loop_call("getDriver", &driver, 0, NULL, NULL) && Z_TYPE(driver) == IS_OBJECT) {
		set.driver = Z_OBJ(driver);
		/* Every watcher calls $suspension->resume($callbackId): the first to fire resumes us, and
		 * the loop runs the resumption before its next callback, so the others are cancelled first. */
		if (driver_call(set.driver, "getSuspension", &suspension, 0, NULL, NULL) && Z_TYPE(suspension) == IS_OBJECT
			&& (forget_stale_pending(Z_OBJ(suspension)), true)
			&& method_closure(&suspension, "resume", &resume) && method_closure(&suspension, "suspend", &suspend)) {
			if (left_ms >= 0) {
				ZVAL_DOUBLE(&delay, ceil(left_ms) / 1000.0);
				watch(&set, "delay", &delay, &resume);
			}
			watch_fds(&set, fds, n, &resume);
		}
	}
	zval_ptr_dtor(&resume);     /* the watchers hold it */
	zval_ptr_dtor(&suspension); /* the closures hold it */
	zval_ptr_dtor(&driver);     /* the loop holds it */
	if (!EG(exception) && set.id_count > 0 && Z_TYPE(suspend) == IS_OBJECT) {
		call_suspend(&suspend);
	} else if (!EG(exception)) {
		zend_throw_error(NULL, "RedLock could not wait through Revolt's event loop (no driver, suspension or watcher)");
	}
	zval_ptr_dtor(&suspend);
	thrown = EG(exception);
	EG(exception) = NULL;
	unwatch(&set);
	if (thrown != NULL) {
		remember_cancellation(thrown, pending);
		return false;
	}
	EG(exception) = pending;
	return true;
}

/* poll(2)'s contract, the Fiber suspended meanwhile; what is ready is asked of poll() itself after
 * each wake-up. A cancelled call: -1, errno ECANCELED, at once. */
static int revolt_poll(rl_pollfd *fds, unsigned long n, int timeout_ms)
{
	double deadline;
	int ready;

	if (call_cancelled()) {
		errno = ECANCELED;
		return -1;
	}
	if (n > 0 && ((ready = rl_poll(fds, n, 0)) != 0 || timeout_ms == 0)) {
		return ready;
	}
	if (n == 0 && timeout_ms == 0) {
		return 0;
	}
	deadline = timeout_ms < 0 ? HUGE_VAL : rl_now_ms() + timeout_ms;
	for (;;) {
		double now = rl_now_ms();

		if (now >= deadline) {
			return 0;
		}
		if (!suspend_once(fds, n, deadline == HUGE_VAL ? -1 : deadline - now)) {
			errno = ECANCELED;
			return -1;
		}
		if (n > 0 && (ready = rl_poll(fds, n, 0)) != 0) {
			return ready;
		}
	}
}

/* The running Fiber (an address: a Fiber made after another was freed may have its address and see
 * its last call until it makes one). */
static uintptr_t revolt_flow(void)
{
	return (uintptr_t) EG(active_fiber);
}

static const rl_waiter revolt_waiter = {"revolt", revolt_active, revolt_poll, revolt_flow};

/* Registered the first time a call runs in a Fiber with Revolt loaded, not at startup: until then
 * rl_wait_poll() stays one load and the thread's poll() for everybody else (FPM, CLI). Callgrind
 * could not tell the two apart: runs of one build differ by up to 300 instructions per cycle. */
#if PHP_VERSION_ID >= 80200
static zend_atomic_bool registered;
#else
static volatile int registered;
#endif

void redlock_revolt_call_in_fiber(void)
{
#if PHP_VERSION_ID >= 80200
	if (!zend_atomic_bool_load(&registered) && loop_class() != NULL && !zend_atomic_bool_exchange(&registered, true)) {
		rl_wait_register(&revolt_waiter);
	}
#else
	if (!registered && loop_class() != NULL) {
		registered = 1;
		rl_wait_register(&revolt_waiter); /* it ignores a waiter registered twice */
	}
#endif
}

void redlock_revolt_request_end(void)
{
	forget_cancellation();
	redlock_release_deferred();
}
