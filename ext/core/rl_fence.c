/* lock() with fencing tokens. Each server INCRs a counter per resource with the SET NX PX; the
 * fence is the largest counter of the attempt's quorum, written back (raised to, never lowered)
 * on every server where our key still holds our token, and handed out only when that write-back
 * has a quorum within validity (rl_scripted_attempts_run, rl_attempts.c). Why that is enough, and
 * why a write-back to a server we do not hold must not count: docs/design/primitives.md. Three
 * round trips per lock + unlock. */
#include "core/rl_kinds.h"
#include "protocol/rl_resp.h"

int rl_fence_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence)
{
	rl_acquire acquire;
	char ttl_text[24];
	const char *args[] = {acquire.token, ttl_text};
	size_t lens[] = {RL_TOKEN_LEN, 0};
	rl_scripted_attempt spec = {&policy->scripts->lock_fenced, &policy->scripts->unlock_multi,
		&policy->scripts->fence_writeback, args, lens, 2, 1};

	lens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	rl_acquire_init(&acquire, policy, ttl);
	return rl_scripted_attempts_run(io, &acquire, &spec, keys, servers, outcomes, result, fence);
}
