/* The Redlock arithmetic: quorum, clock drift, validity, retry spacing.
 * Plain C: no zvals, no I/O, so every rule can be read and tested in isolation. */
#ifndef RL_ALGORITHM_H
#define RL_ALGORITHM_H

#include <stddef.h>
#include <stdint.h>

#define RL_DEFAULT_DRIFT_FACTOR 0.01
/* Redis expires with 1 ms precision, plus 1 ms minimum drift for small TTLs. */
#define RL_DRIFT_CONSTANT_MS 2.0


/* A strict majority: floor(n/2) + 1. */
unsigned rl_quorum_for(unsigned servers);

double rl_drift_ms(int64_t ttl_ms, double drift_factor);

/* ttl - elapsed - drift: how long the caller may still rely on the lock. */
double rl_validity_ms(int64_t ttl_ms, double elapsed_ms, double drift_factor);

/* The time until fewer than quorum servers hold a lock: the quorum-th largest of the positive
 * remaining TTLs (ms) the servers reported. Sorts pttls in place. 0 when fewer than quorum are
 * positive. */
int64_t rl_quorum_pttl(int64_t *pttls, size_t count, unsigned quorum);

/* Attempts made by one lock() call: the library's do/while runs at least once. */
int64_t rl_attempts_for(int64_t retry_count);

/* A delay in [retry_delay/2, retry_delay] ms, picked by a uniform random 32-bit value. */
int64_t rl_retry_delay_ms(int64_t retry_delay, uint32_t random_value);


#endif
