/* promote() and demote(): a held lock changes form on every server where it is ours, as an
 * acquisition with the driver's rules (a fresh token per attempt, a rollback carrying it,
 * validity from the attempt's start). See rl_kinds.h; the argument is in
 * docs/design/primitives.md. */
#include "core/rl_kinds.h"
#include "protocol/rl_resp.h"

int rl_convert_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target,
	int64_t ttl, size_t servers, rl_outcome *outcomes, rl_held_lock *held)
{
	rl_lock_policy convert = *policy;
	rl_acquire acquire;
	char ttl_text[24];
	const char *args[4];
	size_t lens[4];
	rl_scripted_attempt spec;
	int won;

	lens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	args[1] = ttl_text;
	if (target->kind == RL_KIND_SHARED) {
		/* ARGV: the exclusive token (ours), ttl, the new shared token */
		convert.token_kind = RL_TOKEN_SHARED;
		convert.retry_count = 1;
		args[0] = target->from_token;
		lens[0] = target->from_len;
		args[2] = acquire.token;
		lens[2] = RL_TOKEN_LEN;
		spec = (rl_scripted_attempt) {&policy->scripts->demote, &policy->scripts->demote_rollback, NULL, args, lens,
			3, 3};
	} else {
		/* ARGV: the new exclusive token, ttl, our shared token, whether to count a fence; the
		 * rollback is a demote of the new token back to our shared one */
		int fenced = target->kind == RL_KIND_FENCED;

		convert.token_kind = RL_TOKEN_EXCLUSIVE;
		args[0] = acquire.token;
		lens[0] = RL_TOKEN_LEN;
		args[2] = target->from_token;
		lens[2] = target->from_len;
		args[3] = fenced ? "1" : "0";
		lens[3] = 1;
		spec = (rl_scripted_attempt) {&policy->scripts->promote, &policy->scripts->demote,
			fenced ? &policy->scripts->fence_writeback : NULL, args, lens, 4, 3};
	}
	rl_acquire_init(&acquire, &convert, ttl);
	won = rl_scripted_attempts_run(io, &acquire, &spec, &target->keys, servers, outcomes, &held->result,
		&held->fence);
	return won;
}
