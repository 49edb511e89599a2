/* The simulated world of the real-code simulation: a virtual clock, TCP connections with delays,
 * Redis servers that parse the RESP the real code writes and run its commands and scripts, and
 * a scheduler that runs each client on its own stack (ucontext) and resumes it when its poll()
 * would return. Deterministic from one seed. */
#ifndef SIM_KERNEL_H
#define SIM_KERNEL_H

#include <stdint.h>
#include <stddef.h>

#define K_MAX_SERVERS 5
#define K_MAX_CLIENTS 8
#define K_BASE_PORT 17000

typedef struct k_params {
	unsigned servers, clients;
	double fast_lo, fast_hi, slow_lo, slow_hi, slow_p; /* per-connection one-way delays, ms */
	double spike_p, spike_max;                         /* per-send extra delay */
	double pause_p, pause_max;                         /* a server paused once in the run */
	double drift;                                      /* server clock rates in [1 - drift, 1 + drift] */
	double crash_p;        /* a server crashes once in the run, losing its keys and connections */
	double restart_after;  /* ms until it accepts connections again (Redlock: at least the longest ttl) */
} k_params;

typedef struct k_stats {
	uint64_t connects, sends, commands, replies_dropped, polls, switches, events, crashes;
} k_stats;

extern double k_now;      /* virtual ms */
extern k_stats k_st;
extern int k_trace;

uint64_t k_rand(void);    /* the world's PRNG */
double k_unit(void);

void k_init(uint64_t seed, const k_params *p);
/* Runs fn(i) for i < clients, each on its own stack, until all return or the virtual time passes
 * limit_ms. Returns 0, or -1 when the time ran out. */
int k_run(void (*fn)(int), double limit_ms);
void k_free(void);
/* The calling client sleeps ms of virtual time. */
void k_sleep(double ms);

/* Fair waiting's world (verify/sim/main.c): */
int k_current(void);             /* the running client */
int k_faulty(void);              /* a server of this schedule pauses or crashes */
/* The calling client dies (SIGKILL) at virtual time at, if it is then blocked (in a poll or a sleep):
 * never resumed, its connections closed (what it sent still arrives). HUGE_VAL: never. */
void k_die_at(double at);
int k_killed(int client);
/* Called for every command a server runs, with its reply; the client is the connection's owner. */
struct rl_memory_store;
/* The server's store, to read its keys from k_observe (what the server would answer now). */
struct rl_memory_store *k_store(int server);
extern void (*k_observe)(int client, int server, int argc, const char **argv, const size_t *lens, const char *reply,
	size_t reply_len);

#endif
