/* libFuzzer harness for rl_algorithm: random ttl, elapsed time, retry delay/count, server counts
 * and CSPRNG bytes. UBSan catches overflow and bad conversions; the asserts check the contracts
 * the class relies on. Build and run: verify/fuzz/run.sh. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/rl_algorithm.h"
#include "core/rl_token.h"
#include "protocol/rl_request.h" /* rl_quorum_decide */

/* Present once the lock-extension code is merged; weak so this harness also builds without it. */
extern int64_t rl_quorum_pttl(int64_t *pttls, size_t count, unsigned quorum) __attribute__((weak));

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

	/* quorum PTTL: the quorum-th largest positive remaining ttl, never more than any of the top quorum */
	if (rl_quorum_pttl != NULL) {
		int64_t pttls[8];
		size_t count = in.servers % 9;
		unsigned q = in.yes % 10;
		int64_t result, positive = 0;
		for (i = 0; i < count; i++) {
			pttls[i] = (int64_t) ((uint64_t) in.ttl * (i + 1) + (uint64_t) in.retry_delay * i) % 100000 - 2;
			positive += pttls[i] > 0;
		}
		result = rl_quorum_pttl(pttls, count, q);
		assert(result >= 0);
		if (q == 0 || count < q || positive < q) {
			assert(result == 0);
		} else {
			size_t above = 0;
			for (i = 0; i < count; i++) {
				above += pttls[i] >= result;
			}
			assert(result > 0 && above >= q);
		}
	}

	rl_token_write(in.token_bytes, RL_TOKEN_EXCLUSIVE, in.ttl > 0 ? in.ttl : 1, token);
	assert(strlen(token) == RL_TOKEN_LEN);
	assert(rl_token_ttl(token, RL_TOKEN_LEN) == (in.ttl > 0 ? in.ttl : 1));
	for (i = 0; i < RL_TOKEN_LEN; i++) {
		assert((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f'));
	}
	return 0;
}
