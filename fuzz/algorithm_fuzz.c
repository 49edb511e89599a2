/* libFuzzer harness for rl_algorithm: random ttl, elapsed time, retry delay/count, server counts
 * and CSPRNG bytes. UBSan catches overflow and bad conversions; the asserts check the contracts
 * the class relies on. Build and run: fuzz/run.sh. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rl_algorithm.h"

struct input {
	int64_t ttl;
	int64_t retry_delay;
	int64_t retry_count;
	double elapsed;
	uint32_t random_value;
	uint32_t servers;
	uint32_t yes;
	uint32_t answered;
	unsigned char token_bytes[RL_TOKEN_BYTES];
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	char token[RL_TOKEN_LEN + 1];
	unsigned quorum;
	size_t i;

	if (size < sizeof(in)) {
		return 0;
	}
	memcpy(&in, data, sizeof(in));

	/* validity/drift: any ttl the class accepts (>= 1), any finite elapsed time */
	if (in.ttl >= 1 && isfinite(in.elapsed) && in.elapsed >= 0) {
		double drift = rl_drift_ms(in.ttl, RL_DEFAULT_DRIFT_FACTOR);
		double validity = rl_validity_ms(in.ttl, in.elapsed, RL_DEFAULT_DRIFT_FACTOR);
		assert(drift >= RL_DRIFT_CONSTANT_MS);
		assert(validity < (double) in.ttl);
		assert(!isnan(validity));
	}

	/* retry spacing: within [delay/2, delay] for every delay the constructor accepts (>= 0) */
	if (in.retry_delay >= 0) {
		int64_t picked = rl_retry_delay_ms(in.retry_delay, in.random_value);
		if (in.retry_delay == 0) {
			assert(picked == 0);
		} else {
			assert(picked >= in.retry_delay / 2 && picked <= in.retry_delay);
		}
	}
	if (in.retry_count >= 0) {
		int64_t attempts = rl_attempts_for(in.retry_count);
		assert(attempts >= 1 && (attempts == in.retry_count || in.retry_count == 0));
	}

	/* quorum: a strict majority, decided consistently for any legal vote state */
	if (in.servers >= 1) {
		quorum = rl_quorum_for(in.servers);
		assert(quorum > in.servers / 2 && quorum <= in.servers);
		uint32_t answered = in.answered % (in.servers + 1ull);
		uint32_t yes = answered ? in.yes % (answered + 1ull) : 0;
		rl_quorum_state state = rl_quorum_decide(yes, answered, in.servers, quorum);
		if (yes >= quorum) {
			assert(state == RL_QUORUM_WON);
		} else if (state == RL_QUORUM_LOST) {
			assert((uint64_t) yes + (in.servers - answered) < quorum);
		} else {
			assert(state == RL_QUORUM_UNDECIDED && answered < in.servers);
		}
	}

	rl_token_format(in.token_bytes, token);
	assert(strlen(token) == RL_TOKEN_LEN);
	for (i = 0; i < RL_TOKEN_LEN; i++) {
		assert((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f'));
	}
	return 0;
}
