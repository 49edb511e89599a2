/* lock() with fencing tokens. Each server INCRs a counter per resource with the SET NX PX; the
 * fence is the largest counter of the attempt's quorum, written back (raised to, never lowered)
 * on every server where our key still holds our token, and handed out only when that write-back
 * has a quorum within validity. Why that is enough, and why a write-back to a server we do not
 * hold must not count: docs/design/primitives.md. Three round trips per lock + unlock. */
#include <string.h>

#include "core/rl_kinds.h"
#include "net/rl_resp.h"

typedef struct fence_attempt {
	size_t servers;
	unsigned quorum;
	rl_script_call lock_call;      /* token, ttl */
	rl_script_call writeback_call; /* token, fence */
	rl_script_call rollback_call;  /* token: unlock_multi */
	char fence_text[24];
	size_t per_command;            /* of writeback_call */
	int64_t fence;
} fence_attempt;

static unsigned fence_lock(void *arg, const rl_lock_io *io, const rl_acquire *acquire, rl_outcome *outcomes)
{
	fence_attempt *attempt = arg;
	unsigned votes = io->run(io->arg, &attempt->lock_call.request, attempt->quorum, acquire->step_deadline, outcomes);
	long long fence = 0;
	size_t i, len;

	if (votes < attempt->quorum) {
		return votes;
	}
	for (i = 0; i < attempt->servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_YES && outcomes[i].integer > fence) {
			fence = outcomes[i].integer;
		}
	}
	attempt->fence = fence;
	len = rl_resp_decimal(attempt->fence_text, (unsigned long long) fence);
	attempt->writeback_call.argvlen[attempt->per_command - 1] = len;
	return io->run(io->arg, &attempt->writeback_call.request, attempt->quorum, acquire->step_deadline, outcomes);
}

static void fence_rollback(void *arg, const rl_lock_io *io, const rl_acquire *acquire)
{
	fence_attempt *attempt = arg;

	(void) acquire;
	io->send(io->arg, &attempt->rollback_call.request.command);
}

int rl_fence_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence)
{
	fence_attempt attempt;
	rl_acquire acquire;
	rl_attempt_ops ops = {&attempt, fence_lock, fence_rollback};
	char ttl_text[24];
	const char *lock_args[] = {acquire.token, ttl_text};
	size_t lock_lens[] = {RL_TOKEN_LEN, 0};
	const char *writeback_args[] = {acquire.token, attempt.fence_text};
	size_t writeback_lens[] = {RL_TOKEN_LEN, 1};
	int won = -1;

	lock_lens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	memcpy(attempt.fence_text, "0", 2);
	attempt.servers = servers;
	attempt.quorum = policy->quorum;
	attempt.fence = 0;
	attempt.per_command = 3 + keys->count + 2;
	rl_acquire_init(&acquire, policy, ttl);
	if (rl_script_call_init(&attempt.lock_call, &policy->scripts->lock_fenced, keys, 2, lock_args, lock_lens,
			RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	if (rl_script_call_init(&attempt.writeback_call, &policy->scripts->fence_writeback, keys, 2, writeback_args,
			writeback_lens, RL_EXPECT_POSITIVE_INT) != 0) {
		goto free_lock;
	}
	if (rl_script_call_init(&attempt.rollback_call, &policy->scripts->unlock_multi, keys, 1, lock_args, lock_lens,
			RL_EXPECT_POSITIVE_INT) != 0) {
		goto free_writeback;
	}
	won = rl_attempts_run(io, &acquire, &ops, outcomes, result);
	if (won) {
		*fence = attempt.fence;
	}
	rl_script_call_free(&attempt.rollback_call);
free_writeback:
	rl_script_call_free(&attempt.writeback_call);
free_lock:
	rl_script_call_free(&attempt.lock_call);
	return won;
}
