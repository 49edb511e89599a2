/* One name -> parser table for every array of named keys a caller passes (redlock_keys.c): the
 * constructor's $options, a keyed $servers entry, a Sentinel member's keys (and what a new kind of
 * member adds: a table of its own, one row per key). A row names a key and what reading it does: a
 * parser called at once with the value, and/or a slot the value is left in for the caller to read
 * after the whole array (keys that depend on each other: a port on its host). The names an error
 * message lists are the table's own, in its order. */
#ifndef REDLOCK_KEYS_H
#define REDLOCK_KEYS_H

#include "php.h"

typedef struct redlock_key {
	const char *name;
	/* Called with the value (dereferenced) as the key is met, or NULL; FAILURE with an exception thrown. */
	zend_result (*parse)(zval *value, uint32_t arg_num, void *ctx);
} redlock_key;

/* Whose keys: what an error says of the array. */
#define REDLOCK_KEYS_OPTIONS ((size_t) -1) /* the $options argument; else the index of a $servers entry */

/* Reads every key of array through rows (ended by a row whose name is NULL): for the key of row i,
 * slots[i] = the value when slots is not NULL, then the row's parser with ctx. An integer key or a name
 * no row has: a ValueError naming argument arg_num, the array (owner: REDLOCK_KEYS_OPTIONS or a server's
 * index) and the table's names. SUCCESS, or FAILURE with an exception thrown. */
zend_result redlock_keys_read(const redlock_key *rows, HashTable *array, uint32_t arg_num, size_t owner, zval **slots,
	void *ctx);

/* "a, b, c": the table's names in its order (for a message; release it). */
zend_string *redlock_keys_known(const redlock_key *rows);

#endif
