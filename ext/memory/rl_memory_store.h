/* The in-process Redis of memory:// servers (the test double, see docs/guide/testing-your-code.md):
 * keys with expiry, the hashes of shared locks, counters, and exactly the commands and scripts
 * the extension sends (core/rl_scripts.h), each recognised by its source and run in C. Plain C,
 * no sockets, no zvals; one store per memory:// name; not thread-safe (its server holds a lock). */
#ifndef RL_MEMORY_STORE_H
#define RL_MEMORY_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "memory/rl_memory_resp.h"

typedef struct rl_memory_store rl_memory_store;

/* now(arg): the store's clock in ms (expiry and TIME). NULL when out of memory. */
rl_memory_store *rl_memory_store_create(int64_t (*now)(void *arg), void *arg);
void rl_memory_store_destroy(rl_memory_store *store);
void rl_memory_store_clear(rl_memory_store *store);

/* A restart without the lock keys: every key with an expiry goes, the fence counters (which never
 * expire, and are kept with appendfsync always) stay. The simulation's crash. */
void rl_memory_store_restart(rl_memory_store *store);

/* Whether it answers DELIFEQ (Valkey 9's native release); default: no ("unknown command"). */
void rl_memory_store_set_delifeq(rl_memory_store *store, int on);

/* The fair scripts' announcements to waiters (the channel RL_NOTIFY_CHANNEL_PREFIX + key, or a fair
 * waiter's + "key:fair:w:<id>") passed to publish(arg, ...); default none (memory:// servers have no
 * subscribers). The simulation's servers deliver them to their SUBSCRIBE connections. The other release
 * scripts announce nothing here, where the real ones do (RL_LUA_ANNOUNCE): a plain waitTimeout waiter of
 * the simulation comes by its backoff. */
void rl_memory_store_set_publish(rl_memory_store *store, void (*publish)(void *arg, const char *channel, size_t len),
	void *arg);

/* Runs one command; its reply appended to out. 0; 1 when it was an EVAL of a script the
 * extension does not have (an error reply was written); -1 when out of memory. */
int rl_memory_store_execute(rl_memory_store *store, int argc, const char **argv, const size_t *lens,
	rl_memory_buf *out);

/* The live keys, for a test's assertions: each name, its kind ("string", "hash") and its ms left
 * (-1: no expiry) passed to each(); how many. */
size_t rl_memory_store_keys(rl_memory_store *store,
	void (*each)(void *arg, const char *name, size_t len, const char *kind, int64_t left), void *arg);

#endif
