/* The Swoole waiter: inside a Swoole coroutine the PHP thread's waits yield to Swoole's scheduler.
 * Swoole is found at run time through the C API its shared object exports (swoole_coroutine_is_in,
 * swoole_coroutine_poll, swoole_coroutine_usleep): no build-time dependency, and nothing at all
 * without it. Why this API and which versions: docs/design/coroutines.md. */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include "net/rl_wait.h"

#ifndef _WIN32
# include <dlfcn.h>
# include <errno.h>
# include <math.h>
# include <stdint.h>

typedef uint8_t (*swoole_is_in_fn)(void);
typedef int (*swoole_poll_fn)(struct pollfd *fds, nfds_t nfds, int timeout);
typedef void (*swoole_usleep_fn)(int usec);

typedef long (*swoole_id_fn)(void);

static swoole_is_in_fn swoole_is_in;
static swoole_id_fn swoole_id;
static swoole_poll_fn swoole_poll;
static swoole_usleep_fn swoole_usleep;

/* Swoole's resume hook (swoole::Coroutine::on_resume, a static of its C++ API, exported): PHP's
 * context switch is installed there when coroutines start. Wrapped while someone waits for a
 * coroutine to run again; see rl_wait_swoole_watch_resumes. */
typedef void (*swoole_swap_fn)(void *task);
static swoole_swap_fn *swoole_on_resume;
static swoole_swap_fn swoole_previous_on_resume;
static void (*resume_watcher)(void);

/* swoole_add_hook (C API, include/swoole_api.h): Swoole calls the hook of SW_GLOBAL_HOOK_ON_CORO_STOP
 * (4 in 6.2.2's enum swGlobalHookType) as each coroutine ends, still inside it. */
typedef void (*swoole_add_hook_fn)(int type, void (*hook)(void *data), int push_back);
#define SWOOLE_HOOK_ON_CORO_STOP 4
static swoole_add_hook_fn swoole_add_hook;
static void (*end_watcher)(long coroutine);

/* From the Zend side (runtime/redlock_swoole.c): the exception pending in the running coroutine (as an
 * address), and whether the call was cancelled since a wait began with `before` pending. */
static const void *(*pending_exception)(void);
static int (*cancelled_since)(const void *before);

static int swoole_active(void)
{
	return swoole_is_in() != 0;
}

/* Swoole 6.2.2's swoole_coroutine_usleep(usec) sleeps usec / 2^20 s (System::sleep(usec / 1024 /
 * 1024)), 5 % short of usec µs: asked for what makes the time, and again for what is left. A
 * cancelled coroutine's sleep returns early: the pause ends then (callers look at the clock). */
static void swoole_pause(int ms)
{
	double until = rl_now_ms() + ms, left = ms;
	int rounds;

	for (rounds = 0; left > 0 && rounds < 8; rounds++) {
		double before = rl_now_ms();
		swoole_usleep((int) ceil(left * 1048.576));
		if (rl_now_ms() - before < 0.5 && left >= 1) {
			break; /* returned at once: cancelled */
		}
		left = until - rl_now_ms();
	}
}

/* Swoole cannot cancel a coroutine's poll (only its sleeps): a poll is made of slices this long, so a
 * cancel is seen within one. */
#define SWOOLE_CANCEL_SEEN_MS 250

/* A wait the coroutine resumed from cancelled (Coroutine::cancel($cid, true)), or in a call already
 * cancelled: -1 and ECANCELED (net/rl_wait_cancel.h), else ready as it was. */
static int unless_cancelled(const void *before, int ready)
{
	if (cancelled_since != NULL && cancelled_since(before)) {
		errno = ECANCELED;
		return -1;
	}
	return ready;
}

static int swoole_wait(rl_pollfd *fds, unsigned long n, int timeout_ms)
{
	const void *before = pending_exception != NULL ? pending_exception() : NULL;
	double start;
	unsigned long i;
	int ready;

	if (unless_cancelled(before, 0) < 0) {
		return -1;
	}
	if (n == 0) {
		if (timeout_ms > 0) {
			swoole_pause(timeout_ms);
		}
		return unless_cancelled(before, 0);
	}
	if (timeout_ms == 0) {
		return poll(fds, (nfds_t) n, 0);
	}
	start = rl_now_ms();
	for (;;) {
		double slice_start = rl_now_ms(), left = timeout_ms < 0 ? HUGE_VAL : start + timeout_ms - slice_start;
		int slice = left > SWOOLE_CANCEL_SEEN_MS ? SWOOLE_CANCEL_SEEN_MS : (int) ceil(left);

		if (left <= 0) {
			return unless_cancelled(before, 0);
		}
		ready = swoole_poll(fds, (nfds_t) n, slice);
		if (ready >= 0) {
			return unless_cancelled(before, ready);
		}
		if (unless_cancelled(before, 0) < 0) {
			return -1;
		}
		/* -1 both when the slice's time ran out and when no descriptor could be watched (one
		 * another coroutine watches: a host name lookup two calls joined). */
		for (i = 0; i < n; i++) {
			fds[i].revents = 0;
		}
		if (rl_now_ms() - slice_start < slice - 1) {
			break;
		}
	}
	ready = poll(fds, (nfds_t) n, 0);
	if (ready == 0) {
		swoole_pause(1); /* look again soon, yielding meanwhile rather than spinning */
	}
	return unless_cancelled(before, ready);
}

static void watched_resume(void *task)
{
	if (swoole_previous_on_resume) {
		swoole_previous_on_resume(task);
	}
	if (resume_watcher) {
		resume_watcher();
	}
}

int rl_wait_swoole_watch_resumes(void (*watcher)(void))
{
	if (swoole_on_resume == NULL) {
		return -1;
	}
	resume_watcher = watcher;
	/* Swoole sets the hook anew each time coroutines start (Coroutine\run, a server's worker) and
	 * clears it when they end: wrapped again whenever it is not ours. */
	if (watcher && *swoole_on_resume != watched_resume) {
		swoole_previous_on_resume = *swoole_on_resume;
		*swoole_on_resume = watched_resume;
	} else if (watcher == NULL && *swoole_on_resume == watched_resume) {
		*swoole_on_resume = swoole_previous_on_resume; /* nothing of ours left in Swoole once idle */
	}
	return 0;
}

static void coroutine_stopped(void *data)
{
	(void) data;
	if (end_watcher) {
		end_watcher(swoole_id());
	}
}

int rl_wait_swoole_watch_ends(void (*watcher)(long coroutine))
{
	if (swoole_add_hook == NULL || swoole_id == NULL) {
		return -1;
	}
	if (end_watcher == NULL) {
		/* Once per process: Swoole has no call to remove a hook, and drops them all at its own
		 * shutdown (swoole_clean), after the last coroutine. */
		swoole_add_hook(SWOOLE_HOOK_ON_CORO_STOP, coroutine_stopped, 1);
	}
	end_watcher = watcher;
	return 0;
}

/* The running coroutine's id: ids are never reused in a process. */
static uintptr_t swoole_flow(void)
{
	return swoole_id != NULL ? (uintptr_t) swoole_id() : 0;
}

static const rl_waiter swoole_waiter = {"swoole", swoole_active, swoole_wait, swoole_flow};

long rl_wait_swoole_coroutine(void)
{
	return swoole_id != NULL && swoole_is_in() ? swoole_id() : 0;
}

void rl_wait_swoole_register(const void *(*pending)(void), int (*cancelled)(const void *before))
{
	pending_exception = pending;
	cancelled_since = cancelled;
	swoole_is_in = (swoole_is_in_fn) dlsym(RTLD_DEFAULT, "swoole_coroutine_is_in");
	swoole_poll = (swoole_poll_fn) dlsym(RTLD_DEFAULT, "swoole_coroutine_poll");
	swoole_usleep = (swoole_usleep_fn) dlsym(RTLD_DEFAULT, "swoole_coroutine_usleep");
	swoole_id = (swoole_id_fn) dlsym(RTLD_DEFAULT, "swoole_coroutine_get_id");
	if (swoole_id == NULL) {
		swoole_id = (swoole_id_fn) dlsym(RTLD_DEFAULT, "swoole_coroutine_get_current_id"); /* as older releases' headers name it */
	}
	swoole_add_hook = (swoole_add_hook_fn) dlsym(RTLD_DEFAULT, "swoole_add_hook");
	swoole_on_resume = (swoole_swap_fn *) dlsym(RTLD_DEFAULT, "_ZN6swoole9Coroutine9on_resumeE");
	if (swoole_is_in != NULL && swoole_poll != NULL && swoole_usleep != NULL) {
		rl_wait_register(&swoole_waiter);
	}
}

#else

void rl_wait_swoole_register(const void *(*pending)(void), int (*cancelled)(const void *before))
{
	(void) pending;
	(void) cancelled;
	/* Swoole does not run on Windows (only under Cygwin) */
}

long rl_wait_swoole_coroutine(void)
{
	return 0;
}

int rl_wait_swoole_watch_resumes(void (*watcher)(void))
{
	(void) watcher;
	return -1;
}

int rl_wait_swoole_watch_ends(void (*watcher)(long coroutine))
{
	(void) watcher;
	return -1;
}

#endif
