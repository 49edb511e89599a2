/* Each kind's scripts for acquire, release, extend and validity, chosen in one place, in the dialect
 * of rl_dialect.h's table. See rl_kinds.h. */
#include <string.h>

#include "core/rl_dialect.h"

/* The policy a kind's operation runs under: the dialect that acts on it (rl_dialect_for: a kind the
 * policy's dialect has no form for keeps its scripts), and for shared holders the lock's driver
 * with the shared scripts; every other kind is, once held, an ordinary Redlock key holding our token
 * (a semaphore's slot, a fenced lock's keys). */
static const rl_lock_policy *policy_of(const rl_lock_policy *base, rl_lock_kind kind, rl_dialect_op op,
	rl_lock_policy *copy, rl_script_set *shared_scripts)
{
	const rl_dialect *dialect = rl_dialect_for(base->dialect, kind, op);

	if (kind == RL_KIND_SHARED) {
		rl_shared_policy(base, shared_scripts, copy);
	} else if (dialect != base->dialect) {
		*copy = *base;
	} else {
		return base;
	}
	copy->dialect = dialect != NULL ? dialect : &rl_dialect_scripted; /* NULL: refused above (rl_client) */
	return copy;
}

void rl_kind_writer_mark(rl_writer_mark *mark, const rl_lock_policy *policy, const rl_lock_target *target)
{
	int converting = target->from_token != NULL;

	memset(mark, 0, sizeof(*mark));
	if ((target->kind != RL_KIND_EXCLUSIVE && target->kind != RL_KIND_FENCED)
		|| rl_dialect_for(policy->dialect, target->kind, converting ? RL_OP_CONVERT : RL_OP_ACQUIRE)
			!= &rl_dialect_scripted) {
		return; /* readers, slots, demote(); and without scripts, where no reader can be taken either */
	}
	mark->script = &policy->scripts->writer_mark;
	mark->rollback = &policy->scripts->rollback_mark;
	mark->keys = &target->keys;
	/* lock() of one resource: its rollback (a script anyway) carries the mark, so a contended
	 * lock() sends no command more than before; the other writers send it at their pauses */
	mark->in_rollback = target->kind == RL_KIND_EXCLUSIVE && !converting && !target->keys.multi;
	if (converting && target->from_len <= RL_TOKEN_LEN) {
		/* a promoting reader is named by its shared token: RL_SCRIPT_PROMOTE sees two promotions
		 * waiting for each other by it */
		memcpy(mark->member, target->from_token, target->from_len);
		mark->member[target->from_len] = '\0';
		mark->member_len = target->from_len;
	}
}

/* The acquisition's own driver (rl_lock_acquire, rl_fence_acquire, rl_convert_acquire). */
static int kind_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_held_lock *held);

int rl_kind_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_held_lock *held, rl_writer_mark *mark)
{
	rl_lock_policy marked;
	int won;

	if (mark == NULL || mark->script == NULL) {
		return kind_acquire(io, policy, target, ttl, servers, outcomes, held);
	}
	marked = *policy;
	marked.writer_mark = mark;
	won = kind_acquire(io, &marked, target, ttl, servers, outcomes, held);
	if (won == 0 && mark->then_ms > 0 && !held->result.hopeless && !mark->in_rollback) {
		rl_writer_mark_send(mark, io, mark->then_ms);
	}
	return won;
}

static int kind_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target, int64_t ttl,
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
	if (target->fair != NULL && target->kind != RL_KIND_SEMAPHORE) {
		/* the client admits only lock() of one resource and lockSemaphore() with 'fair' (rl_client_acquire) */
		return rl_fair_acquire(io, policy, &target->keys, ttl, target->fair, servers, outcomes, &held->result);
	}
	switch (target->kind) {
	case RL_KIND_FENCED:
		return rl_fence_acquire(io, policy, &target->keys, ttl, servers, outcomes, &held->result, &held->fence);
	case RL_KIND_SEMAPHORE:
		kind_policy = *policy;
		kind_policy.token_kind = RL_TOKEN_SEMAPHORE;
		return rl_semaphore_acquire(io, &kind_policy, target->keys.keys[0], target->keys.lens[0], target->limit, ttl,
			servers, outcomes, &held->result, &held->slot, target->fair);
	case RL_KIND_SHARED:
		keys.multi = 1; /* the shared script sits in the multi-key slot: see rl_shared_policy() */
		return rl_lock_acquire(io, policy_of(policy, target->kind, RL_OP_ACQUIRE, &kind_policy, &shared_scripts), &keys, ttl,
			outcomes, &held->result);
	case RL_KIND_EXCLUSIVE:
	default:
		return rl_lock_acquire(io, policy, &keys, ttl, outcomes, &held->result);
	}
}

int rl_kind_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	rl_lock_policy copy;
	rl_script_set shared_scripts;

	return rl_lock_release(io, policy_of(policy, held->kind, RL_OP_RELEASE, &copy, &shared_scripts), &held->keys,
		token, token_len, outcomes);
}

double rl_kind_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes)
{
	rl_lock_policy copy;
	rl_script_set shared_scripts;

	return rl_lock_extend(io, policy_of(policy, held->kind, RL_OP_EXTEND, &copy, &shared_scripts), &held->keys,
		token, token_len, ttl, outcomes);
}

int rl_kind_extend_prepare(const rl_lock_policy *policy, const rl_lock_target *held, const char *token,
	size_t token_len, int64_t ttl, rl_extend_call *call)
{
	rl_lock_policy copy;
	rl_script_set shared_scripts;

	/* the command points at the scripts' static text, never at the copies made here */
	return rl_lock_extend_prepare(policy_of(policy, held->kind, RL_OP_EXTEND, &copy, &shared_scripts), &held->keys,
		token, token_len, ttl, call);
}

double rl_kind_extend_settle(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, int64_t ttl, double start, double now, unsigned votes,
	const rl_outcome *outcomes)
{
	rl_lock_policy copy;
	rl_script_set shared_scripts;

	return rl_lock_extend_settle(io, policy_of(policy, held->kind, RL_OP_EXTEND, &copy, &shared_scripts), &held->keys,
		token, token_len, ttl, start, now, votes, outcomes);
}

int rl_kind_extend_joins(const rl_lock_policy *policy, const rl_lock_target *held)
{
	return held->kind != RL_KIND_SHARED && rl_dialect_for(policy->dialect, held->kind, RL_OP_EXTEND) == &rl_dialect_scripted;
}

double rl_kind_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *held,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes)
{
	rl_lock_policy copy;
	rl_script_set shared_scripts;

	return rl_lock_validity(io, policy_of(policy, held->kind, RL_OP_VALIDITY, &copy, &shared_scripts), &held->keys,
		token, token_len, servers, outcomes);
}

int rl_kind_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_target *target,
	rl_outcome *outcomes)
{
	rl_lock_policy copy;

	/* the keys whoever holds them: DEL or its script, for every kind alike (no shared scripts) */
	return rl_lock_force_release(io, policy_of(policy, RL_KIND_EXCLUSIVE, RL_OP_FORCE, &copy, NULL), &target->keys,
		outcomes);
}
