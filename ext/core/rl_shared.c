/* lockShared(): the shared holders of a resource live in its key as a hash token -> deadline
 * (server time), which lock()'s SET NX (and the multi-key script's EXISTS) already refuses; the
 * shared scripts refuse a string (a lock() holder). So the lock's driver runs unchanged with the
 * shared scripts in place of the exclusive ones. See rl_kinds.h. */
#include "core/rl_kinds.h"

void rl_shared_policy(const rl_lock_policy *base, rl_script_set *scripts, rl_lock_policy *policy)
{
	*scripts = *base->scripts;
	scripts->lock_multi = base->scripts->shared_lock;      /* the acquisition (keys.multi set) */
	scripts->unlock_multi = base->scripts->shared_unlock;  /* its rollback */
	scripts->unlock = base->scripts->shared_unlock;
	scripts->extend = base->scripts->shared_extend;
	scripts->validity = base->scripts->shared_validity;
	scripts->validity_plain = base->scripts->shared_validity_plain;
	*policy = *base;
	policy->scripts = scripts;
	policy->token_kind = RL_TOKEN_SHARED;
	policy->release_by_script = 1; /* DELEX/DELIFEQ on the hash: WRONGTYPE, and our holder stays */
}
