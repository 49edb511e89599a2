/* A lock's resource as the caller names it (one string, or a list of strings for a
 * multi-resource lock) and as it is sent to Redis (with the "prefix" option prepended), plus
 * the EVALSHA/EVAL requests that run a script over those keys. */
#ifndef REDLOCK_RESOURCE_H
#define REDLOCK_RESOURCE_H

#include "php.h"
#include "core/rl_kinds.h"

/* What kind of lock an array is, beyond its resource and token. */
typedef struct {
	bool shared;       /* lockShared(): "shared" => true */
	zend_long limit;   /* lockSemaphore(): "limit" (0 for any other lock) and "slot" */
	zend_long slot;
	bool fenced;       /* lock() with fencing: "fence" */
	zend_long fence;
} redlock_lock_kind;

typedef struct {
	redlock_lock_kind kind;
	zval names;         /* the caller's names: a string, or a fresh list of strings */
	bool multi;         /* given as a list: locked with the multi-key scripts */
	uint32_t count;
	zend_string **keys; /* prefix + name, what Redis sees */
	zend_string *one_key; /* keys points here for a single resource: no allocation */
	/* The keys again as the plain-C driver takes them (rl_lock_keys). */
	const char **key_ptrs;
	size_t *key_lens;
	const char *one_ptr;
	size_t one_len;
} redlock_resource;

/* Interns the keys of a $lock array, once per process (MINIT). */
void redlock_resource_startup(void);

/* Validates resource (a non-empty string, or a non-empty list of distinct non-empty strings)
 * and builds the keys. field is NULL for a method argument, or the key of a $lock array it was
 * read from (named in error messages). Returns SUCCESS, or FAILURE with an exception thrown
 * and nothing to release. */
zend_result redlock_resource_init(redlock_resource *resource, zval *value, zend_string *prefix,
	uint32_t arg_num, const char *field);
void redlock_resource_release(redlock_resource *resource);

/* The same for a string|array parameter parsed with Z_PARAM_ARRAY_HT_OR_STR. */
/* A semaphore's name (lockSemaphore(), inspect() with a limit): each key of resource at most
 * rl_semaphore_key_max(limit) bytes, or a ValueError naming argument #1. */
zend_result redlock_resource_slots_fit(const redlock_resource *resource, zend_long limit);

zend_result redlock_resource_from_args(redlock_resource *resource, HashTable *names, zend_string *name,
	zend_string *prefix, uint32_t arg_num);

/* Reads a $lock array (argument arg_num): its "resource" and "token". Returns SUCCESS (release
 * the resource afterwards), or FAILURE with an exception thrown. */
zend_result redlock_lock_parse(HashTable *lock, zend_string *prefix, uint32_t arg_num,
	redlock_resource *resource, zend_string **token);

/* The array lock() returns: ['validity' => ms, 'resource' => names, 'token' => token], plus the
 * fields of resource->kind (shared, limit and slot, fence) when it has any. */
void redlock_lock_result(zval *return_value, double validity, const redlock_resource *resource,
	const char *token, size_t token_len);

/* Reads the kind fields of a $lock array (argument arg_num) and checks them against the
 * token's kind (core/rl_token.h); for a semaphore, points the resource's key at its slot.
 * SUCCESS, or FAILURE with an exception thrown (the resource is still to be released). */
zend_result redlock_lock_kind_parse(HashTable *lock, uint32_t arg_num, redlock_resource *resource,
	zend_string *token);

/* The kind fields of what was acquired, for redlock_lock_result(). */
void redlock_lock_kind_set(redlock_lock_kind *kind, const rl_held_lock *held, zend_long limit);

/* What the plain-C client acquires or addresses; valid while resource is. */
static inline rl_lock_target redlock_resource_target(const redlock_resource *resource)
{
	rl_lock_target target;

	target.kind = resource->kind.shared ? RL_KIND_SHARED
		: resource->kind.limit ? RL_KIND_SEMAPHORE
		: resource->kind.fenced ? RL_KIND_FENCED : RL_KIND_EXCLUSIVE;
	target.keys.count = resource->count;
	target.keys.keys = resource->key_ptrs;
	target.keys.lens = resource->key_lens;
	target.keys.multi = resource->multi;
	target.limit = resource->kind.limit;
	target.from_token = NULL;
	target.from_len = 0;
	target.fair = NULL;
	return target;
}

#endif
