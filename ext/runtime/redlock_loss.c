/* 'onLoss': see redlock_loss.h and docs/guide/renewal-and-waiting.md#knowing-at-once-onloss and docs/design/renewal.md#telling-php-of-a-loss.
 *
 * The thread that finds a loss (the renewal thread, or this one inside a call) may not touch PHP:
 * under the registry's lock it calls loss_notice(), which raises the watch's interrupt
 * (redlock_runtime_private.h: its flag, then the vm_interrupt of the PHP thread that made the object).
 * The VM then calls zend_interrupt_function at its next opcode boundary, where
 * redlock_callable.c takes the losses one by one (redlock_loss_next) and calls the callable.
 * Everything else is this PHP thread's alone.
 *
 * Under Swoole a loss belongs to the coroutine that took the lock: one noticed while another
 * coroutine runs waits in its watch's deferred list until that coroutine runs again (Swoole's
 * resume hook raises the interrupt: redlock_callable.c); one whose coroutine has ended (Swoole's
 * coroutine-stop hook) is told wherever the thread goes on. Why: docs/design/coroutines.md#losses-reach-their-coroutine. */
#include "php.h"
#include "zend_exceptions.h"

#include "runtime/redlock_loss.h"
#include "protocol/rl_list.h"
#include "runtime/redlock_runtime_private.h"
#include "services/rl_metrics.h"
#include "net/rl_wait.h"

/* A loss taken from the client for a coroutine not running when it was taken. PHP memory. */
typedef struct deferred_loss {
	struct deferred_loss *next;
	zval lock;
	const char *reason;
	long coroutine;
} deferred_loss;

/* The onLoss objects of this PHP thread. Malloc'd, not PHP memory: the notice writes into it. */
typedef struct redlock_loss_watch {
	struct redlock_loss_watch *prev, *next;
	redlock_object *intern;
	redlock_interrupt pending; /* raised by loss_notice, taken by redlock_loss_next */
	HashTable *owners;       /* token => the Swoole coroutine that took it (none: taken outside one) */
	deferred_loss *deferred; /* oldest first */
} loss_watch;

ZEND_TLS loss_watch *watches;

static void coroutine_ended(long coroutine);

static const char *const reason_names[] = {"", "renewal_failed", "capped", "expired", "not_held"};

/* Keeps the remembered arrays near the tracked leases: past this many, the untracked go. */
#define PRUNE_MIN 64

static void loss_notice(void *arg)
{
	/* any thread, registry lock held: two stores, nothing else */
	redlock_interrupt_raise(&((loss_watch *) arg)->pending);
}

void redlock_loss_watch(redlock_object *intern)
{
	loss_watch *w;

	if (Z_ISUNDEF(intern->on_loss) || (w = calloc(1, sizeof(*w))) == NULL) {
		return; /* out of memory: the loss is still counted, validity() and run() still say it */
	}
	w->intern = intern;
	redlock_interrupt_bind(&w->pending);
	w->next = watches;
	if (watches) {
		watches->prev = w;
	}
	watches = w;
	intern->loss_watch = w;
	ALLOC_HASHTABLE(intern->loss_locks);
	zend_hash_init(intern->loss_locks, 8, NULL, ZVAL_PTR_DTOR, 0);
	rl_client_set_loss_notice(&intern->client, loss_notice, w);
}

void redlock_loss_unwatch(redlock_object *intern)
{
	loss_watch *w = intern->loss_watch;

	if (w == NULL) {
		return;
	}
	RL_LIST_UNLINK(watches, w, prev, next);
	while (w->deferred) {
		deferred_loss *d = w->deferred;

		w->deferred = d->next;
		zval_ptr_dtor(&d->lock);
		efree(d);
	}
	if (w->owners) {
		zend_hash_destroy(w->owners);
		FREE_HASHTABLE(w->owners);
	}
	free(w);
	intern->loss_watch = NULL;
	zend_hash_destroy(intern->loss_locks);
	FREE_HASHTABLE(intern->loss_locks);
	intern->loss_locks = NULL;
}

void redlock_loss_remember_lock(redlock_object *intern, zval *lock)
{
	zval *token, copy;
	HashTable *locks = intern->loss_locks;
	long coroutine;

	if (locks == NULL || (token = zend_hash_str_find(Z_ARRVAL_P(lock), "token", sizeof("token") - 1)) == NULL
		|| Z_TYPE_P(token) != IS_STRING) {
		return;
	}
	if (zend_hash_num_elements(locks) >= PRUNE_MIN && (zend_hash_num_elements(locks) & (zend_hash_num_elements(locks) - 1)) == 0) {
		/* Locks converted, forgotten or never unlocked: their leases are gone, so are they. */
		zend_string *key;

		ZEND_HASH_FOREACH_STR_KEY(locks, key) {
			if (key && rl_client_lease(&intern->client, ZSTR_VAL(key), ZSTR_LEN(key)) == RL_LEASE_UNKNOWN) {
				zend_hash_del(locks, key);
				if (intern->loss_watch->owners) {
					zend_hash_del(intern->loss_watch->owners, key);
				}
			}
		} ZEND_HASH_FOREACH_END();
	}
	ZVAL_COPY(&copy, lock);
	zend_hash_update(locks, Z_STR_P(token), &copy);
	coroutine = rl_wait_swoole_coroutine();
	if (coroutine != 0 && rl_wait_swoole_watch_ends(coroutine_ended) != 0) {
		coroutine = 0; /* its end could not be seen: told wherever the thread goes on, as before */
	}
	if (coroutine != 0 || intern->loss_watch->owners) {
		if (intern->loss_watch->owners == NULL) {
			ALLOC_HASHTABLE(intern->loss_watch->owners);
			zend_hash_init(intern->loss_watch->owners, 8, NULL, NULL, 0);
		}
		if (coroutine != 0) {
			zval owner;

			ZVAL_LONG(&owner, coroutine);
			zend_hash_update(intern->loss_watch->owners, Z_STR_P(token), &owner);
		} else {
			zend_hash_del(intern->loss_watch->owners, Z_STR_P(token));
		}
	}
}

void redlock_loss_forget_lock(redlock_object *intern, zend_string *token)
{
	zend_hash_del(intern->loss_locks, token);
	if (intern->loss_watch->owners) {
		zend_hash_del(intern->loss_watch->owners, token);
	}
}

/* Told now: taken by the coroutine running, or outside any (or by one that has ended: its owner
 * was set to 0 then). */
static bool owner_here(long owner, long here)
{
	return owner == 0 || owner == here;
}

/* A coroutine ended (Swoole's hook, inside it): its locks belong to none now, and what waited
 * for it is told where the thread goes on. */
static void coroutine_ended(long coroutine)
{
	loss_watch *w;
	zend_string *token;
	zval *owner;
	bool raise = false;

	for (w = watches; w; w = w->next) {
		deferred_loss *d;

		if (w->owners) {
			ZEND_HASH_FOREACH_STR_KEY_VAL(w->owners, token, owner) {
				if (token && Z_LVAL_P(owner) == coroutine) {
					zend_hash_del(w->owners, token);
				}
			} ZEND_HASH_FOREACH_END();
		}
		for (d = w->deferred; d; d = d->next) {
			if (d->coroutine == coroutine) {
				d->coroutine = 0;
				raise = true;
			}
		}
	}
	if (raise) {
		redlock_interrupt_here();
	}
}

static bool told(redlock_object *intern, zval *callable, zval args[2], zval *lock, const char *reason)
{
	ZVAL_COPY_VALUE(&args[0], lock);
	ZVAL_STRING(&args[1], reason);
	ZVAL_COPY(callable, &intern->on_loss); /* a constructor call inside may replace it */
	return true;
}

/* The object's next loss to tell in the coroutine running now, with its lock array, as the
 * callable's two arguments; false when none is left. Losses of other coroutines are deferred. */
static bool next_of(loss_watch *w, zval *callable, zval args[2])
{
	redlock_object *intern = w->intern;
	long here = rl_wait_swoole_coroutine();
	deferred_loss **at, *d;
	rl_loss loss;
	zval *lock, *owner, copy;

	if (intern->loss_locks == NULL || Z_ISUNDEF(intern->on_loss)) {
		return false;
	}
	for (at = &w->deferred; (d = *at) != NULL; at = &d->next) {
		if (owner_here(d->coroutine, here)) {
			*at = d->next;
			told(intern, callable, args, &d->lock, d->reason);
			efree(d);
			return true;
		}
	}
	while (rl_client_take_losses(&intern->client, &loss, 1) == 1) {
		if ((lock = zend_hash_str_find(intern->loss_locks, loss.token, loss.token_len)) == NULL) {
			continue; /* taken before onLoss was set */
		}
		ZVAL_COPY(&copy, lock);
		zend_hash_str_del(intern->loss_locks, loss.token, loss.token_len);
		owner = w->owners ? zend_hash_str_find(w->owners, loss.token, loss.token_len) : NULL;
		if (owner == NULL || owner_here(Z_LVAL_P(owner), here)) {
			if (owner) {
				zend_hash_str_del(w->owners, loss.token, loss.token_len);
			}
			return told(intern, callable, args, &copy, reason_names[loss.reason]);
		}
		d = emalloc(sizeof(*d));
		ZVAL_COPY_VALUE(&d->lock, &copy);
		d->reason = reason_names[loss.reason];
		d->coroutine = Z_LVAL_P(owner);
		d->next = NULL;
		zend_hash_str_del(w->owners, loss.token, loss.token_len);
		for (at = &w->deferred; *at; at = &(*at)->next) {
		}
		*at = d;
	}
	return false;
}

bool redlock_loss_next(redlock_object **intern, zval *callable, zval args[2])
{
	loss_watch *w;

	for (w = watches; w; w = w->next) {
		if ((redlock_interrupt_take(&w->pending) || w->deferred) && next_of(w, callable, args)) {
			/* The watch stays pending while the callable runs: if it suspends its Fiber, the
			 * losses after this one are told wherever the PHP thread goes on. */
			redlock_interrupt_flag(&w->pending); /* more to tell: without interrupting anyone */
			*intern = w->intern;
			GC_ADDREF(&w->intern->std); /* the callable may drop the last reference */
			return true;
		}
	}
	return false;
}

bool redlock_loss_due(void)
{
	loss_watch *w;

	for (w = watches; w; w = w->next) {
		deferred_loss *d;

		for (d = w->deferred; d; d = d->next) {
			if (owner_here(d->coroutine, rl_wait_swoole_coroutine())) {
				return true;
			}
		}
		if (redlock_interrupt_flagged(&w->pending)) {
			return true;
		}
	}
	return false;
}

bool redlock_loss_deferred(void)
{
	loss_watch *w;

	for (w = watches; w; w = w->next) {
		if (w->deferred) {
			return true;
		}
	}
	return false;
}
