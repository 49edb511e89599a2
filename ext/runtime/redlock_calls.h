/* The steps the RedLock methods share (redlock_calls.c): the object made ready, a ttl argument checked,
 * one acquisition of any kind, one release. Below the face: a method file calls these, never another
 * method file. Zend only; the client (client/rl_client.h) decides. */
#ifndef REDLOCK_CALLS_H
#define REDLOCK_CALLS_H

#include "php.h"
#include "runtime/redlock_object.h"
#include "arguments/redlock_resource.h"

/* Fetches the object, throwing when a subclass constructor never called parent::__construct(). */
redlock_object *redlock_ready(zval *this_zv);

/* redlock_ready() plus the lock array of unlock()/extend()/validity() (argument #1): the object,
 * with *resource to release, or NULL with an exception thrown. */
redlock_object *redlock_ready_with_lock(zval *this_zv, HashTable *lock, redlock_resource *resource,
	zend_string **token);

/* A ttl argument of at least 1 and at most RL_TTL_MAX_MS (core/rl_kinds.h), or false with a
 * ValueError naming argument arg: the one check of every call that takes a ttl. */
bool redlock_ttl_argument(zend_long ttl, uint32_t arg);

/* One acquisition of any kind: resource (its kind fields say what to acquire; from: the token of the
 * held lock it converts, or NULL), ttl (argument ttl_arg, checked here). The observer is told as call,
 * except of a pinned lock won (run() tells of it itself, where its release is guaranteed). true with
 * the lock array in return_value; false with an exception pending, or for contention. *attempts (may
 * be NULL) receives the attempts made. */
bool redlock_acquire(redlock_object *intern, redlock_resource *resource, zend_string *from, zend_long ttl,
	uint32_t ttl_arg, bool pinned, zval *return_value, int64_t *attempts, const char *call);

/* Releases a held lock on every server; true when a quorum did. Never throws but for a kind the
 * object's dialect has no form of. */
bool redlock_release(redlock_object *intern, const redlock_resource *resource, zend_string *token);

/* RL_CALL_NEEDS_SCRIPTS: the lock's kind has no form in the object's dialect ('scripts' => false and
 * a shared holder). A RedLockException naming the call, the kind and the option. */
void redlock_throw_needs_scripts(const redlock_resource *resource, const char *call);

#endif
