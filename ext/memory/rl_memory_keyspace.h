/* The memory:// store's keyspace, private to ext/memory: keys with expiry (strings, and the hashes of
 * shared locks: token -> deadline), on the store's clock. The commands and scripts that use it are
 * in rl_memory_store.c; the store's public API is rl_memory_store.h. A key found expired is deleted
 * when it is looked up, as Redis does lazily. */
#ifndef RL_MEMORY_KEYSPACE_H
#define RL_MEMORY_KEYSPACE_H

#include <stddef.h>
#include <stdint.h>

#include "memory/rl_memory_store.h"

#define RL_MKEY_NO_EXPIRY INT64_MAX /* expire_at of a key without expiry */

typedef struct rl_mfield {
	char *name;
	size_t len;
	int64_t number; /* a shared holder's deadline (server ms) */
} rl_mfield;

typedef struct rl_mkey {
	char *name;
	size_t len;
	int hash;            /* a shared lock's hash of token -> deadline; else a string */
	int zset;            /* with hash: a sorted set (fair waiting's queue), member -> score in number */
	char *value;
	size_t value_len;
	rl_mfield *fields;
	size_t nfields, cap_fields;
	int64_t expire_at;   /* store ms; RL_MKEY_NO_EXPIRY */
} rl_mkey;

struct rl_memory_store {
	rl_mkey *keys;
	size_t count, cap;
	int64_t (*now)(void *arg);
	void *now_arg;
	int delifeq;
	/* a PUBLISH of the scripts' announcements (RL_LUA_ANNOUNCE), when set: the simulation's servers */
	void (*publish)(void *arg, const char *channel, size_t len);
	void *publish_arg;
};

int64_t rl_mkey_now(rl_memory_store *store);                       /* the store's clock, ms */
rl_mkey *rl_mkey_find(rl_memory_store *store, const char *name, size_t len); /* NULL: none, or expired */
void rl_mkey_del(rl_memory_store *store, rl_mkey *key);             /* moves the last key into its place */
/* The key name, emptied and made a string without expiry (or a new one). NULL when out of memory. */
rl_mkey *rl_mkey_fresh(rl_memory_store *store, const char *name, size_t len);
/* SET name value [PX ttl] (ttl < 0: no expiry). -1 when out of memory. */
int rl_mkey_set_string(rl_memory_store *store, const char *name, size_t len, const char *value, size_t vlen,
	int64_t ttl);
int rl_mkey_holds(rl_memory_store *store, const char *name, size_t len, const char *token, size_t tlen);
int64_t rl_mkey_pttl(rl_memory_store *store, const rl_mkey *key);  /* -1: no expiry */
/* INCR of a counter key (no expiry); its new value, or -1 when out of memory. */
long long rl_mkey_incr(rl_memory_store *store, const char *name, size_t len);
long long rl_mkey_number(const char *bytes, size_t len);            /* a decimal argument; 0 if none */

/* A hash's fields (shared holders) */
rl_mfield *rl_mkey_field(rl_mkey *key, const char *name, size_t len);
int rl_mkey_field_set(rl_mkey *key, const char *name, size_t len, int64_t number); /* -1: out of memory */
void rl_mkey_field_del(rl_mkey *key, rl_mfield *field);
/* Drops holders whose deadline passed; the latest deadline left (0: none). */
int64_t rl_mkey_prune_fields(rl_mkey *key, int64_t now);

#endif
