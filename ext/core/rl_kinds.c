/* Each kind's scripts for acquire, release, extend and validity, chosen in one place. See
 * rl_kinds.h. */
#include <string.h>

#include "core/rl_kinds.h"

/* Shared holders run the lock's driver with the shared scripts; every other kind is, once held,
 * an ordinary Redlock key holding our token (a semaphore's slot, a fenced lock's keys). */
static const rl_lock_policy *policy_of(const rl_lock_policy *base, rl_lock_kind kind, rl_lock_policy *shared,
	rl_script_set *shared_scripts)
{
	if (kind != RL_KIND_SHARED) {
		return base;
	}
	rl_shared_policy(base, shared_scripts, shared);
	return shared;
}

int rl_kind_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_held_lock *held)
{
	rl_lock_policy kind_policy;
	rl_script_set shared_scripts;
	rl_lock_keys keys = target->keys;

	held->kind = target->kind;
	held->slot = -1;
	held->fence = 0;
	if (target->from_token != NULL) {
		return rl_convert_acquire(io, policy, target, ttl, servers, outcomes, held);
	}
	switch (target->kind) {
	case RL_KIND_FENCED:
		return rl_fence_acquire(io, policy, &target->keys, ttl, servers, outcomes, &held->result, &held->fence);
	case RL_KIND_SEMAPHORE:
		kind_policy = *policy;
		kind_policy.token_kind = RL_TOKEN_SEMAPHORE;
		return rl_semaphore_acquire(io, &kind_policy, target->keys.keys[0], target->keys.lens[0], target->limit, ttl,
			servers, outcomes, &held->result, &held->slot);
	case RL_KIND_SHARED:
		keys.multi = 1; /* the shared script sits in the multi-key slot: see rl_shared_policy() */
		return rl_lock_acquire(io, policy_of(policy, target->kind, &kind_policy, &shared_scripts), &keys, ttl,
			outcomes, &held->result);
	case RL_KIND_EXCLUSIVE:
	default:
		return rl_lock_acquire(io, policy, &keys, ttl, outcomes, &held->result);
	}
}

/* A lock of a kind that only scripts can act on, held where scripts are off (learnt from a NOPERM
 * after it was taken): its scripts are still sent, and the servers that allow them answer. */
static const rl_lock_policy *scripted(const rl_lock_policy *policy, rl_lock_policy *copy)
{
	*copy = *policy;
	copy->no_scripts = 0;
	return copy;
}

int rl_kind_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	rl_lock_policy shared, with_scripts;
	rl_script_set shared_scripts;

	if (policy->no_scripts && held->kind != RL_KIND_EXCLUSIVE) {
		policy = scripted(policy, &with_scripts);
	}
	return rl_lock_release(io, policy_of(policy, held->kind, &shared, &shared_scripts), &held->keys, token, token_len,
		outcomes);
}

double rl_kind_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes)
{
	rl_lock_policy shared, with_scripts;
	rl_script_set shared_scripts;

	if (policy->no_scripts && held->kind != RL_KIND_EXCLUSIVE) {
		policy = scripted(policy, &with_scripts); /* only lock() has commands of its own */
	}
	return rl_lock_extend(io, policy_of(policy, held->kind, &shared, &shared_scripts), &held->keys, token, token_len,
		ttl, outcomes);
}

double rl_kind_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes)
{
	rl_lock_policy shared, with_scripts;
	rl_script_set shared_scripts;

	if (policy->no_scripts && held->kind == RL_KIND_SHARED) {
		policy = scripted(policy, &with_scripts); /* a hash: GET cannot read it */
	}
	return rl_lock_validity(io, policy_of(policy, held->kind, &shared, &shared_scripts), &held->keys, token, token_len,
		servers, outcomes);
}

int64_t rl_kind_ttl_max(rl_lock_kind kind)
{
	return kind == RL_KIND_SHARED ? RL_SHARED_TTL_MAX_MS : INT64_MAX;
}
