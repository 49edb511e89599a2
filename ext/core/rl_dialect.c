/* The two command dialects side by side, and the one switch between them. See rl_dialect.h. */
#include "core/rl_dialect.h"
#include "protocol/rl_reply.h"

#define OWN RL_FORM_OWN
#define SCRIPTS RL_FORM_SCRIPTS
#define NONE RL_FORM_NONE

/* Every kind, every operation: a script (rl_scripts.h, rl_scripts_kinds.h). */
const rl_dialect rl_dialect_scripted = {
	/*                exclusive fenced  shared  semaphore */
	.forms = {/* acquire  */ {OWN,      OWN,    OWN,    OWN},
	 /* convert  */ {OWN,      OWN,    OWN,    OWN},
	 /* release  */ {OWN,      OWN,    OWN,    OWN},
	 /* extend   */ {OWN,      OWN,    OWN,    OWN},
	 /* validity */ {OWN,      OWN,    OWN,    OWN},
	 /* force    */ {OWN,      OWN,    OWN,    OWN}},
	.probes_release = 0,
	.extend_sets_ttl = 0,
	.attempt_init = rl_scripted_attempt_init,
	.attempt_rollback = rl_scripted_attempt_rollback,
	.attempt_free = rl_scripted_attempt_free,
	.release = rl_scripted_release,
	.extend = rl_scripted_extend,
	.held = rl_scripted_held,
	.force_release = rl_scripted_force_release,
	.extend_prepare = rl_scripted_extend_prepare,
};

/* The servers' own commands, for the native and the learnt dialect alike (named fields: a builder
 * left out is NULL on purpose, never by a slip of position in a list). */
#define NATIVE_BUILDERS \
	.probes_release = 1,  /* DELEX or DELIFEQ */ \
	.extend_sets_ttl = 1, /* SET IFEQ PX */ \
	.attempt_init = rl_native_attempt_init, \
	.attempt_rollback = rl_native_attempt_rollback, \
	.attempt_free = rl_native_attempt_free, \
	.release = rl_native_release, \
	.extend = rl_native_extend, \
	.held = rl_native_held, \
	.force_release = rl_native_force_release
	/* no .extend_prepare: an extend reads the keys first (it never shortens one), then writes */

/* The servers' own commands (docs/design/acquisition-path.md#locks-without-scripts): SET NX PX,
 * MSETEX NX PX, DELEX/DELIFEQ, SET IFEQ PX, MULTI/GET/PTTL/EXEC, DEL, and never a script
 * ('scripts' => false). Only an exclusive lock can be taken with them (a fenced lock's counter, a
 * shared lock's hash, a semaphore's slots and a conversion need a script's atomicity): the others are
 * refused. Once held, every kind but a shared holder is a key holding our token (a fenced lock's
 * key, a semaphore's slot), which these commands release, extend and read like an exclusive lock's;
 * a shared holder (a field of a hash: GET cannot read it, nothing but a script compares it) is
 * refused, a RedLockException naming the option and the kind. */
const rl_dialect rl_dialect_native = {
	/*                exclusive fenced   shared   semaphore */
	.forms = {/* acquire  */ {OWN,      NONE,    NONE,    NONE},
	 /* convert  */ {NONE,     NONE,    NONE,    NONE},
	 /* release  */ {OWN,      OWN,     NONE,    OWN},
	 /* extend   */ {OWN,      OWN,     NONE,    OWN},
	 /* validity */ {OWN,      OWN,     NONE,    OWN},
	 /* force    */ {OWN,      OWN,     OWN,     OWN}},
	NATIVE_BUILDERS,
};

/* The same commands where a quorum of servers answered NOPERM to a script (rl_dialect_learn): a
 * held fenced, shared or semaphore lock, taken by script, keeps its scripts for release and extend
 * (and a shared holder for validity): the servers that allow them answer. Learnt, not configured:
 * tried again after RL_DIALECT_RETRY_MS (rl_dialect_refresh). */
const rl_dialect rl_dialect_learnt = {
	/*                exclusive fenced   shared   semaphore */
	.forms = {/* acquire  */ {OWN,      NONE,    NONE,    NONE},
	 /* convert  */ {NONE,     NONE,    NONE,    NONE},
	 /* release  */ {OWN,      SCRIPTS, SCRIPTS, SCRIPTS},
	 /* extend   */ {OWN,      SCRIPTS, SCRIPTS, SCRIPTS},
	 /* validity */ {OWN,      OWN,     SCRIPTS, OWN},
	 /* force    */ {OWN,      OWN,     OWN,     OWN}},
	NATIVE_BUILDERS,
};

const rl_dialect *rl_dialect_initial(int no_scripts)
{
	return no_scripts ? &rl_dialect_native : &rl_dialect_scripted;
}

int rl_dialect_learn(rl_lock_policy *policy, rl_lock_kind kind, rl_dialect_op op, const rl_outcome *outcomes,
	size_t count, double now)
{
	if (policy->dialect != &rl_dialect_scripted || !rl_outcomes_scripts_refused(outcomes, count, policy->quorum)) {
		return 0;
	}
	policy->dialect = &rl_dialect_learnt;
	policy->dialect_learnt_ms = now;
	return rl_dialect_learnt.forms[op][kind] == RL_FORM_OWN;
}

void rl_dialect_refresh(rl_lock_policy *policy, double now)
{
	if (policy->dialect == &rl_dialect_learnt && now - policy->dialect_learnt_ms >= RL_DIALECT_RETRY_MS) {
		policy->dialect = &rl_dialect_scripted;
	}
}
