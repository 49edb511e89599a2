/* The PHP thread's waits, and the waiters that may take them over. See rl_wait.h. */
#include "net/rl_wait.h"

/* Written in MINIT (one thread) or lazily on a PHP thread: the count is published after the slot
 * (MSVC's volatile has acquire/release semantics). */
#ifdef _WIN32
# define RL_THREAD_LOCAL __declspec(thread)
# define LOAD_ACQUIRE(p) (*(p))
# define LOAD_RELAXED(p) (*(p))
# define STORE_RELEASE(p, v) (*(p) = (v))
static volatile unsigned waiter_count;
#else
# define RL_THREAD_LOCAL __thread
# define LOAD_ACQUIRE(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
# define LOAD_RELAXED(p) __atomic_load_n(p, __ATOMIC_RELAXED)
# define STORE_RELEASE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
static unsigned waiter_count;
#endif
static const rl_waiter *waiters[RL_WAITERS_MAX];
static RL_THREAD_LOCAL int on_php_thread;

void rl_wait_register(const rl_waiter *waiter)
{
	unsigned i, count = LOAD_ACQUIRE(&waiter_count);

	for (i = 0; i < count; i++) {
		if (waiters[i] == waiter) {
			return;
		}
	}
	if (waiter == NULL || count >= RL_WAITERS_MAX) {
		return;
	}
	waiters[count] = waiter;
	STORE_RELEASE(&waiter_count, count + 1);
}

unsigned rl_wait_registered(const rl_waiter **out, unsigned room)
{
	unsigned i, count = LOAD_ACQUIRE(&waiter_count);

	for (i = 0; i < count && i < room; i++) {
		out[i] = waiters[i];
	}
	return count;
}

void rl_wait_php_thread(int yes)
{
	on_php_thread = yes;
}

const rl_waiter *rl_wait_current(void)
{
	unsigned i, count = LOAD_ACQUIRE(&waiter_count);

	if (count == 0 || !on_php_thread) {
		return NULL;
	}
	for (i = 0; i < count; i++) {
		if (waiters[i]->active()) {
			return waiters[i];
		}
	}
	return NULL;
}

uintptr_t rl_wait_flow(void)
{
	const rl_waiter *waiter = LOAD_ACQUIRE(&waiter_count) == 0 ? NULL : rl_wait_current();

	return waiter != NULL && waiter->flow != NULL ? waiter->flow() : 0;
}

/* The default: the thread blocks. A pause without descriptors never blocks for ever. */
static int block(rl_pollfd *fds, unsigned long n, int timeout_ms)
{
	if (n == 0) {
		if (timeout_ms > 0) {
#ifdef _WIN32
			Sleep((DWORD) timeout_ms);
#else
			poll(NULL, 0, timeout_ms);
#endif
		}
		return 0;
	}
	return rl_poll(fds, n, timeout_ms);
}

int rl_wait_poll(rl_pollfd *fds, unsigned long n, int timeout_ms)
{
	/* Without waiters (no Swoole, no event loop) this is one load and the thread's poll(). */
	if (LOAD_RELAXED(&waiter_count) != 0) {
		const rl_waiter *waiter = rl_wait_current();
		if (waiter != NULL) {
			return waiter->poll(fds, n, timeout_ms);
		}
	}
	return block(fds, n, timeout_ms);
}
