/* RedLock::extend() and RedLock::validity(): arguments in, arrays out (rl_lock.c asks the
 * servers). Plus the maxExtensions bookkeeping. */
#include <math.h>

#include "php.h"
#include "zend_exceptions.h"

#include "redlock_object.h"
#include "redlock_resource.h"
#include "core/rl_algorithm.h"
#include "core/rl_lock.h"

/* Below this many tracked tokens nothing is pruned. */
#define EXTENSIONS_PRUNE_MIN 64

/* What the object remembers of one token's extensions. */
typedef struct {
	zend_long calls;   /* extend() calls that reached the servers */
	double expires_at; /* rl_now_ms() after which no quorum can still hold the token; INFINITY
	                    * until an extension succeeded (the lock's first ttl is not known here) */
} extension_entry;

static void extension_entry_dtor(zval *value)
{
	efree(Z_PTR_P(value));
}

void redlock_extensions_destroy(redlock_object *intern)
{
	if (intern->extensions) {
		zend_hash_destroy(intern->extensions);
		FREE_HASHTABLE(intern->extensions);
		intern->extensions = NULL;
	}
}

void redlock_extensions_forget(redlock_object *intern, zend_string *token)
{
	if (intern->extensions) {
		zend_hash_del(intern->extensions, token);
	}
}

/* Drops tokens whose keys have expired on a quorum for sure: locks left to expire without an
 * unlock() must not make the table grow forever. Runs each time the size reaches a power of two
 * (64, 128, ...), so its cost spreads thinly over the inserts. */
static void prune_extensions(HashTable *extensions)
{
	double now = rl_now_ms();
	extension_entry *entry;
	zend_string *token;

	ZEND_HASH_FOREACH_STR_KEY_PTR(extensions, token, entry) {
		if (entry->expires_at < now) {
			zend_hash_del(extensions, token);
		}
	} ZEND_HASH_FOREACH_END();
}

static extension_entry *extension_entry_for(redlock_object *intern, zend_string *token)
{
	extension_entry *entry;
	uint32_t tracked;

	if (intern->extensions == NULL) {
		ALLOC_HASHTABLE(intern->extensions);
		zend_hash_init(intern->extensions, 8, NULL, extension_entry_dtor, 0);
	}
	entry = zend_hash_find_ptr(intern->extensions, token);
	if (entry) {
		return entry;
	}
	tracked = zend_hash_num_elements(intern->extensions);
	if (tracked >= EXTENSIONS_PRUNE_MIN && (tracked & (tracked - 1)) == 0) {
		prune_extensions(intern->extensions);
	}
	entry = emalloc(sizeof(*entry));
	entry->calls = 0;
	entry->expires_at = INFINITY;
	return zend_hash_add_new_ptr(intern->extensions, token, entry);
}

PHP_METHOD(RedLock, extend)
{
	HashTable *lock;
	zend_long ttl;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	extension_entry *entry = NULL;
	int shared = -1;
	rl_lock_keys keys;
	double start, validity;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_ARRAY_HT(lock)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	if (ttl < 1) {
		redlock_resource_release(&resource);
		zend_argument_value_error(2, "must be greater than 0");
		RETURN_THROWS();
	}
	if (intern->watchdog && intern->options.max_extensions != REDLOCK_UNLIMITED_EXTENSIONS) {
		/* Renewed in the background: the renewals and extend() share the lock's cap. */
		shared = redlock_watch_count_extension(intern, token);
		if (shared == 0) {
			redlock_resource_release(&resource);
			RETURN_FALSE;
		}
	}
	if (shared < 0 && intern->options.max_extensions != REDLOCK_UNLIMITED_EXTENSIONS) {
		entry = extension_entry_for(intern, token);
		if (entry->calls >= intern->options.max_extensions) {
			redlock_resource_release(&resource);
			RETURN_FALSE; /* over the cap: the servers are not asked */
		}
		entry->calls++;
	}
	keys = redlock_resource_keys(&resource);
	start = rl_now_ms();
	validity = rl_lock_extend(&intern->io, redlock_policy_for(intern, &resource), &keys, ZSTR_VAL(token), ZSTR_LEN(token), ttl,
		intern->outcomes);
	if (validity > 0) {
		if (entry) {
			/* After this, too few servers can still hold the token for any later extend() to win. */
			entry->expires_at = start + (double) ttl + rl_drift_ms(ttl, intern->drift_factor);
		}
		redlock_lock_result(return_value, validity, &resource, ZSTR_VAL(token), ZSTR_LEN(token));
		redlock_resource_release(&resource);
		return;
	}
	redlock_resource_release(&resource);
	if (validity < 0) {
		zend_throw_error(NULL, "Out of memory");
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

PHP_METHOD(RedLock, validity)
{
	HashTable *lock;
	zend_string *token;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_keys keys;
	double validity;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(lock)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready_with_lock(ZEND_THIS, lock, &resource, &token)) == NULL) {
		RETURN_THROWS();
	}
	if (intern->watchdog && redlock_watch_lost(intern, token)) {
		redlock_resource_release(&resource);
		RETURN_FALSE; /* a renewal found it lost: no round trip */
	}
	keys = redlock_resource_keys(&resource);
	validity = rl_lock_validity(&intern->io, redlock_policy_for(intern, &resource), &keys, ZSTR_VAL(token), ZSTR_LEN(token),
		intern->cluster->count, intern->outcomes);
	redlock_resource_release(&resource);
	if (validity < 0) {
		zend_throw_error(NULL, "Out of memory");
		RETURN_THROWS();
	}
	if (validity == 0) {
		RETURN_FALSE;
	}
	RETURN_DOUBLE(validity);
}
