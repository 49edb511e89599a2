/* The application's callables (run()'s $fn, the observer, onLoss) and the one rule for what
 * happens inside them: see redlock_callable.h and docs/design/callables.md.
 *
 * Every call into one of them goes through a frame on this PHP thread's list (innermost first,
 * each with the fiber it runs on). The VM interrupt (a loss noticed by the renewal thread or by a
 * call) is handled here and reads the list: the 'onLoss' callables of the losses noticed run, and
 * abortOnLoss's exception is thrown only when the innermost callables of the running fiber, down
 * to that run()'s $fn, are all $fn: never into an observer or an onLoss callable (it waits and
 * lands in $fn when that callable returns). Nothing is held across a callable, so one that suspends
 * its Fiber delays nobody. exit() (and a destroyed Fiber's unwinding) is never swallowed. */
#include "php.h"
#include "zend_exceptions.h"
#include "zend_observer.h"

#include "runtime/redlock_callable.h"
#include "runtime/redlock_loss.h"
#include "runtime/redlock_abort.h"
#include "runtime/redlock_runtime_private.h"
#include "services/rl_metrics.h"
#include "net/rl_wait.h"

ZEND_TLS redlock_callable_frame *frames; /* innermost first, every fiber of this PHP thread */
static void (*previous_interrupt)(zend_execute_data *execute_data);

/* exit() (an unwind_exit) or a destroyed Fiber's unwinding (a graceful_exit): not exceptions a
 * callable's caller may catch. */
static bool is_exit(zend_object *ex)
{
	return ex != NULL && (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex));
}


void redlock_callable_enter(redlock_callable_frame *frame, redlock_callable_kind kind, redlock_object *intern,
	void *alarm)
{
	frame->kind = kind;
	frame->intern = intern;
	frame->alarm = alarm;
	frame->fiber = EG(current_fiber_context);
	frame->coroutine = rl_wait_swoole_coroutine();
	frame->next = frames;
	frames = frame;
}

void redlock_callable_leave(redlock_callable_frame *frame)
{
	redlock_callable_frame **at;

	/* Not always the head: another fiber may have entered a callable meanwhile. */
	for (at = &frames; *at; at = &(*at)->next) {
		if (*at == frame) {
			*at = frame->next;
			break;
		}
	}
}

void redlock_callable_unwind(redlock_callable_frame *frame)
{
	redlock_callable_frame *f;

	/* A bailout (fatal error) skipped the leave of every frame entered after this one. */
	for (f = frames; f; f = f->next) {
		if (f == frame) {
			frames = frame->next;
			return;
		}
	}
}

/* The frame runs in the control flow running now: its Fiber and its Swoole coroutine (Swoole
 * switches coroutines without telling anyone, and takes every VM interrupt as "yield now"). */
static bool runs_here(const redlock_callable_frame *f, zend_fiber_context *fiber, long coroutine)
{
	return f->fiber == fiber && f->coroutine == coroutine;
}

/* The rule: the alarm of the innermost run() of the running fiber (and coroutine) whose lock is
 * lost, when no observer or onLoss callable runs inside its $fn; NULL otherwise. */
static void *alarm_landing_here(void)
{
	redlock_callable_frame *f;
	zend_fiber_context *fiber = EG(current_fiber_context);
	long coroutine = rl_wait_swoole_coroutine();

	for (f = frames; f; f = f->next) {
		if (!runs_here(f, fiber, coroutine)) {
			continue;
		}
		if (f->kind != REDLOCK_CALLABLE_FN) {
			return NULL; /* waits: redlock_callable_call raises the interrupt again on the way out */
		}
		if (f->alarm && redlock_alarm_pending(f->alarm)) {
			return f->alarm;
		}
	}
	return NULL;
}

static bool alarm_waits_in(zend_fiber_context *fiber)
{
	redlock_callable_frame *f;

	for (f = frames; f; f = f->next) {
		if (f->fiber == fiber && f->alarm && redlock_alarm_pending(f->alarm)) {
			return true;
		}
	}
	return false;
}

/* An alarm pending in a run() of another Swoole coroutine (other Fibers are the fiber-switch
 * observer's). */
static bool alarm_waits_in_other_coroutine(void)
{
	redlock_callable_frame *f;
	long coroutine = rl_wait_swoole_coroutine();

	for (f = frames; f; f = f->next) {
		if (f->coroutine != coroutine && f->alarm && redlock_alarm_pending(f->alarm)) {
			return true;
		}
	}
	return false;
}

/* Swoole switches coroutines without telling the engine: while a loss or an alarm waits for a
 * coroutine not running, every resume raises the interrupt, which lands here in the coroutine
 * resumed and tells or throws if it is the one. Without Swoole's hook, the interrupt is raised
 * again at once: the running coroutine comes back here at each opcode until the other runs. */
static void watch_resumes(void)
{
	bool waits = redlock_loss_deferred() || alarm_waits_in_other_coroutine();

	if (rl_wait_swoole_watch_resumes(waits ? redlock_interrupt_here : NULL) != 0 && waits) {
		redlock_interrupt_here();
	}
}

bool redlock_callable_inside(const redlock_object *intern, redlock_callable_kind kind)
{
	redlock_callable_frame *f;

	for (f = frames; f; f = f->next) {
		if (f->intern == intern && f->kind == kind && runs_here(f, EG(current_fiber_context), rl_wait_swoole_coroutine())) {
			return true;
		}
	}
	return false;
}

/* The callable run inside its frame (redlock_callable_inside sees it there). */
static void call_in_frame(redlock_object *intern, redlock_callable_kind kind, zval *callable, uint32_t argc, zval *argv)
{
	redlock_callable_frame frame;
	zval retval;

	redlock_callable_enter(&frame, kind, intern, NULL);
	zend_try {
		if (call_user_function(NULL, NULL, callable, &retval, argc, argv) == SUCCESS) {
			zval_ptr_dtor(&retval);
		}
	} zend_catch {
		/* A fatal error inside: the frame leaves with this stack (shutdown functions still run). */
		redlock_callable_leave(&frame);
		zend_bailout();
	} zend_end_try();
	redlock_callable_leave(&frame);
}

/* What the callable threw is swallowed, never thrown from the lock call (see
 * docs/guide/telemetry.md): counted, released, and the interrupted caller's opline put back. */
static void swallow_exception(redlock_callable_kind kind, zend_execute_data *caller, const zend_op *caller_opline)
{
	zend_object *thrown = EG(exception);

	rl_metrics_add(kind == REDLOCK_CALLABLE_OBSERVER ? RL_METRIC_OBSERVER_ERRORS : RL_METRIC_ON_LOSS_ERRORS, 1);
	EG(exception) = NULL;
	OBJ_RELEASE(thrown);
	if (caller_opline) {
		caller->opline = caller_opline;
	}
}

void redlock_callable_call(redlock_object *intern, redlock_callable_kind kind, zval *callable, uint32_t argc,
	zval *argv)
{
	/* An exception already on its way (run()'s $fn threw, the CSPRNG failed) is set aside and put
	 * back unchanged: the callable runs with none pending, and cannot replace it. After exit(),
	 * no application code runs, as no finally block does. */
	zend_object *pending = EG(exception);
	const zend_op *pending_opline = EG(opline_before_exception);

	/* Called at the VM interrupt, the caller is the user function interrupted: an exception
	 * leaving the callable points its opline at the exception handler (zend_rethrow_exception),
	 * which, once the exception is swallowed, would silently return from that function. */
	zend_execute_data *caller = EG(current_execute_data);
	const zend_op *caller_opline = caller && caller->func && ZEND_USER_CODE(caller->func->common.type)
		? caller->opline : NULL;

	if (pending && zend_is_unwind_exit(pending)) {
		return;
	}
	EG(exception) = NULL;
	call_in_frame(intern, kind, callable, argc, argv);
	if (is_exit(EG(exception))) {
		/* exit() ends the script from here as from anywhere: what was pending goes with it. */
		if (pending) {
			OBJ_RELEASE(pending);
		}
		return;
	}
	if (EG(exception)) {
		swallow_exception(kind, caller, caller_opline);
	}
	if (pending) {
		EG(exception) = pending;
		EG(opline_before_exception) = pending_opline;
	}
	if (alarm_waits_in(EG(current_fiber_context)) || redlock_loss_due()) {
		redlock_interrupt_here(); /* what arrived while the callable ran lands at the caller's next opcode */
	}
}

void redlock_callable_tell_losses(void)
{
	zend_object *pending = EG(exception); /* run()'s $fn threw: told all the same */
	redlock_object *intern;
	zval callable, args[2];

	/* One at a time, each in its own frame; exit() in one ends the telling. */
	while (EG(exception) == pending && redlock_loss_next(&intern, &callable, args)) {
		redlock_callable_call(intern, REDLOCK_CALLABLE_ON_LOSS, &callable, 2, args);
		zval_ptr_dtor(&callable);
		zval_ptr_dtor(&args[0]);
		zval_ptr_dtor(&args[1]);
		OBJ_RELEASE(&intern->std);
	}
}

/* At the next opcode boundary after a loss was noticed (or an alarm raised, or a fiber holding
 * one resumed): the 'onLoss' callables, then abortOnLoss's exception where the rule lets it land. */
static void on_vm_interrupt(zend_execute_data *execute_data)
{
	void *alarm;

	redlock_release_deferred(); /* what a wait let go (redlock_release_later): freed here, where PHP code may run */
	if (!EG(exception)) {
		redlock_callable_tell_losses();
	}
	if (!EG(exception) && (alarm = alarm_landing_here()) != NULL) {
		redlock_alarm_throw(alarm);
	}
	watch_resumes();
	if (previous_interrupt) {
		previous_interrupt(execute_data);
	}
}

/* Into a fiber whose run() lost its lock meanwhile, or away from an onLoss callable that
 * suspended with more losses to tell: interrupt there. */
static void redlock_fiber_switched(zend_fiber_context *from, zend_fiber_context *to)
{
	(void) from;
	if (frames != NULL && alarm_waits_in(to)) {
		redlock_interrupt_here();
	} else if (redlock_loss_due()) {
		redlock_interrupt_here();
	}
}

void redlock_callable_startup(void)
{
	previous_interrupt = zend_interrupt_function;
	zend_interrupt_function = on_vm_interrupt;
	zend_observer_fiber_switch_register(redlock_fiber_switched);
}

void redlock_callable_shutdown(void)
{
	if (zend_interrupt_function == on_vm_interrupt) {
		zend_interrupt_function = previous_interrupt;
	}
}

void redlock_callable_request_end(void)
{
	frames = NULL; /* a bailout may have left frames of stacks that are gone */
	rl_wait_swoole_watch_resumes(NULL);
}
