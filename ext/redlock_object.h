/* The RedLock object and what the files implementing its methods share. Zend glue only. */
#ifndef REDLOCK_OBJECT_H
#define REDLOCK_OBJECT_H

#include "php.h"
#include "redlock_options.h"
#include "redlock_resource.h"
#include "net/rl_fanout.h"
#include "core/rl_lock.h"

typedef struct {
	rl_cluster *cluster; /* NULL until the constructor succeeded */
	rl_outcome *outcomes;
	zend_long retry_delay;
	zend_long retry_count;
	unsigned quorum;
	double drift_factor;
	redlock_options options;
	rl_lock_policy policy; /* what the driver (rl_lock.c) needs to know of the above */
	rl_lock_io io;         /* the driver's way to the servers: this object's cluster */
	rl_lock_policy shared_policy;  /* policy with the lockShared() scripts (rl_shared_policy) */
	rl_script_set shared_scripts;
	HashTable *extensions; /* token -> extend() calls so far; only with maxExtensions, else NULL */
	uint32_t running;      /* run() calls in progress: the constructor may not replace the cluster */
	struct rl_watchdog *watchdog; /* autoExtend: the renewal thread's registry, else NULL */
	zend_object std;
} redlock_object;

extern zend_class_entry *redlock_exception_ce;

static inline redlock_object *redlock_from_obj(zend_object *obj)
{
	return (redlock_object *) ((char *) obj - offsetof(redlock_object, std));
}

#define Z_REDLOCK_P(zv) redlock_from_obj(Z_OBJ_P(zv))

/* The policy for a lock array's kind: the shared scripts for a lockShared() lock. */
static inline const rl_lock_policy *redlock_policy_for(const redlock_object *intern, const redlock_resource *resource)
{
	return resource->kind.shared ? &intern->shared_policy : &intern->policy;
}

/* lock() with the "fencing" option (redlock_kinds.c); as redlock_acquire(). */
bool redlock_acquire_fenced(redlock_object *intern, const redlock_resource *resource, zend_long ttl,
	zval *return_value, int64_t *attempts_made);

/* Fills intern->policy and intern->io from the constructed object. */
void redlock_bind_driver(redlock_object *intern);

/* Fetches the object, throwing when a subclass constructor never called parent::__construct(). */
redlock_object *redlock_ready(zval *this_zv);

/* One lock() call: all its attempts. true with the lock array in return_value, false when no
 * attempt won. *attempts_made (may be NULL) receives the number of attempts. */
/* redlock_ready() plus the lock array of unlock()/extend()/validity() (argument #1): the object, with
 * *resource to release, or NULL with an exception thrown. */
redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token);

/* The argument checks lock() and run() share: the resource name or list (#1) and the ttl (#2).
 * SUCCESS with *resource to release, or FAILURE with an exception thrown. */
zend_result redlock_acquire_args(redlock_object *intern, HashTable *names, zend_string *name, zend_long ttl,
	redlock_resource *resource);

bool redlock_acquire(redlock_object *intern, const redlock_resource *resource, zend_long ttl,
	zval *return_value, int64_t *attempts_made);

/* Deletes the keys still holding token on every server; true when a quorum did. Never throws. */
bool redlock_release(redlock_object *intern, const redlock_resource *resource, zend_string *token);

/* The maxExtensions bookkeeping (redlock_extend.c). */
void redlock_extensions_forget(redlock_object *intern, zend_string *token);
void redlock_extensions_destroy(redlock_object *intern);

/* autoExtend, abortOnLoss, waitTimeout (redlock_renewal.c). Without the options: no-ops. */
zend_result redlock_watch_setup(redlock_object *intern);
void redlock_watch_destroy(redlock_object *intern);
zend_result redlock_watch_add(redlock_object *intern, const rl_lock_keys *keys, const rl_lock_result *result,
	zend_long ttl);
bool redlock_watch_forget(redlock_object *intern, zend_string *token); /* true: it had been lost */
bool redlock_watch_lost(redlock_object *intern, zend_string *token);
int redlock_watch_count_extension(redlock_object *intern, zend_string *token); /* see rl_watchdog.h */
void *redlock_watch_arm(redlock_object *intern, zend_string *token, const char *resource);
void redlock_watch_disarm(redlock_object *intern, zend_string *token, void *alarm);
/* waitTimeout: one attempt at a time until the object's deadline, woken between attempts by a
 * release announced on the channel of one of channels' keys (redlock_renewal.c, rl_notify.h). */
int redlock_wait_acquire(redlock_object *intern, const rl_lock_policy *policy, const rl_lock_keys *keys,
	zend_long ttl, rl_lock_result *result);
int redlock_wait_for(redlock_object *intern, const rl_lock_keys *channels,
	int (*attempt)(void *arg, const rl_lock_io *io), void *arg, rl_lock_result *result);

#endif
