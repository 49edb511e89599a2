/* The RedLock object and what the glue files implementing its methods share. Zend glue only:
 * every decision is the plain-C client's (client/rl_client.h). */
#ifndef REDLOCK_OBJECT_H
#define REDLOCK_OBJECT_H

#include "php.h"
#include "client/rl_client.h"
#include "redlock_resource.h"

typedef struct redlock_object {
	rl_client client;    /* client.cluster is NULL until the constructor succeeded */
	zend_string *prefix; /* 'prefix': prepended to every key; NULL for none */
	uint32_t running;    /* run() calls in progress */
	struct redlock_object *run_prev, *run_next; /* on the list of objects with run() calls in progress */
	bool run_listed;
	zval observer;       /* 'observer' / setObserver(): a callable, UNDEF for none */
	zval on_loss;        /* 'onLoss': a callable, UNDEF for none */
	HashTable *loss_locks; /* 'onLoss': token => the lock array handed out (redlock_loss.c) */
	struct redlock_loss_watch *loss_watch;
	zend_object std;
} redlock_object;

extern zend_class_entry *redlock_exception_ce;

static inline redlock_object *redlock_from_obj(zend_object *obj)
{
	return (redlock_object *) ((char *) obj - offsetof(redlock_object, std));
}

#define Z_REDLOCK_P(zv) redlock_from_obj(Z_OBJ_P(zv))

/* Fetches the object, throwing when a subclass constructor never called parent::__construct()
 * (redlock_class.c). */
redlock_object *redlock_ready(zval *this_zv);

/* redlock_ready() plus the lock array of unlock()/extend()/validity() (argument #1): the object,
 * with *resource to release, or NULL with an exception thrown (redlock_class.c). */
redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token);

/* A ttl argument of at least 1 and at most RL_TTL_MAX_MS (core/rl_kinds.h), or false with a
 * ValueError naming argument arg: the one check of every call that takes a ttl. */
bool redlock_ttl_argument(zend_long ttl, uint32_t arg);

/* One acquisition of any kind (redlock_acquire.c): resource (its kind fields say what to acquire;
 * from: the token of the held lock it converts, or NULL), ttl (argument ttl_arg, checked here). The
 * observer is told as call, except of a pinned lock won (run() tells of it itself, where its release is
 * guaranteed). true with the lock array in return_value; false with an exception pending, or for
 * contention. *attempts (may be NULL) receives the attempts made. */
bool redlock_acquire(redlock_object *intern, redlock_resource *resource, zend_string *from, zend_long ttl,
	uint32_t ttl_arg, bool pinned, zval *return_value, int64_t *attempts, const char *call);

/* Releases a held lock on every server (redlock_held.c); true when a quorum did. Never throws. */
bool redlock_release(redlock_object *intern, const redlock_resource *resource, zend_string *token);

/* run() calls in progress, of every object of this PHP thread (redlock_run.c). At the end of the
 * request, and when an object is freed, those that never reached their end (their stack abandoned:
 * a coroutine when another one's fatal error ended the worker, a Fiber never resumed) have their
 * locks released: rl_client_release_pinned(), which releases only what this process took. */
void redlock_run_request_end(void);
void redlock_run_object_free(redlock_object *intern);

/* abortOnLoss (redlock_abort.c): arms the alarm of run()'s lock (NULL without the option), and
 * disarms it. */
void *redlock_abort_arm(redlock_object *intern, zend_string *token, const char *resource);
void redlock_abort_disarm(redlock_object *intern, zend_string *token, void *alarm);

#endif
