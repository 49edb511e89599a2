/* The Redlock arithmetic. See rl_algorithm.h. */
#include <stdlib.h>

#include "core/rl_algorithm.h"

unsigned rl_quorum_for(unsigned servers)
{
	return servers / 2 + 1;
}

double rl_drift_ms(int64_t ttl_ms, double drift_factor)
{
	return (double) ttl_ms * drift_factor + RL_DRIFT_CONSTANT_MS;
}

double rl_validity_ms(int64_t ttl_ms, double elapsed_ms, double drift_factor)
{
	return (double) ttl_ms - elapsed_ms - rl_drift_ms(ttl_ms, drift_factor);
}

static int compare_descending(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
	return x < y ? 1 : (x > y ? -1 : 0);
}

int64_t rl_quorum_pttl(int64_t *pttls, size_t count, unsigned quorum)
{
	if (quorum == 0 || count < quorum) {
		return 0;
	}
	qsort(pttls, count, sizeof(*pttls), compare_descending);
	return pttls[quorum - 1] > 0 ? pttls[quorum - 1] : 0;
}

int64_t rl_attempts_for(int64_t retry_count)
{
	return retry_count < 1 ? 1 : retry_count;
}

int64_t rl_retry_delay_ms(int64_t retry_delay, uint32_t random_value)
{
	int64_t low, picked;

	if (retry_delay <= 0) {
		return 0;
	}
	low = retry_delay / 2;
	/* Scaled in double: (retry_delay - low + 1) * 2^32 would overflow 64 bits for huge delays. */
	picked = low + (int64_t) ((double) random_value / 4294967296.0 * (double) (retry_delay - low + 1));
	return picked > retry_delay ? retry_delay : picked;
}
