/* memory:// servers: named in-process stores (rl_memory_store.h) served by one thread of this
 * process over unix sockets in a private directory, so that the client's real connection, pool,
 * fan-out and reply code run unchanged against them. The test double's control: a clock the test
 * moves, servers that fail on demand. Plain C, no zvals. Not on Windows (no unix sockets there). */
#ifndef RL_MEMORY_SERVER_H
#define RL_MEMORY_SERVER_H

#include <stddef.h>
#include <stdint.h>

#define RL_MEMORY_PATH_MAX 108

typedef enum {
	RL_MEMORY_UP = 0,
	RL_MEMORY_REFUSE, /* connections refused, open ones closed */
	RL_MEMORY_SILENT, /* accepts and reads, never answers: the caller's timeout bounds it */
	RL_MEMORY_ERROR   /* answers every command with an error reply */
} rl_memory_mode;

/* The socket path of server name (len bytes), created (and the thread started) on first use.
 * 0, or -1 with a reason in err. */
int rl_memory_server_path(const char *name, size_t len, char path[RL_MEMORY_PATH_MAX], char *err, size_t err_size);

/* Sets how server name fails (or RL_MEMORY_UP). 0, or -1 when no server has that name. */
int rl_memory_server_set_mode(const char *name, size_t len, rl_memory_mode mode);

/* Moves the test clock ms forward: the stores' expiry and the client's clock (rl_platform.h's
 * rl_clock_offset_us). 0, or the number of objects on real servers that keep it still
 * (net/rl_cluster.h: rl_test_clock_set), the clock unmoved. */
long rl_memory_server_advance(int64_t ms);

/* Every store emptied, every server up, the test clock back to the real one. */
void rl_memory_server_reset(void);

/* The live keys of server name, as rl_memory_store_keys; -1 when no server has that name. */
long rl_memory_server_keys(const char *name, size_t len,
	void (*each)(void *arg, const char *key, size_t key_len, const char *kind, int64_t left), void *arg);

/* MSHUTDOWN: stops the thread, removes the sockets and their directory, frees everything. */
void rl_memory_server_shutdown(void);

#endif
