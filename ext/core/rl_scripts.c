/* The script table. Every script is sent as EVAL, never EVALSHA: a NOSCRIPT from a server the
 * call no longer waited for (the quorum was settled before it answered) would be dropped with
 * the reply, and its release, extension or rollback would never run there. EVAL costs the
 * script's bytes on the wire and a SHA1 on the server per call (measured in
 * docs/design/acquisition-path.md); it can never answer NOSCRIPT. */
#include "core/rl_lock.h" /* rl_script_set */
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"

#define SCRIPT(source) {source, sizeof(source) - 1}

static const rl_script_set scripts = {
	SCRIPT(RL_SCRIPT_UNLOCK),
	SCRIPT(RL_SCRIPT_LOCK_MULTI),
	SCRIPT(RL_SCRIPT_UNLOCK_MULTI),
	SCRIPT(RL_SCRIPT_EXTEND),
	SCRIPT(RL_SCRIPT_VALIDITY),
	SCRIPT(RL_SCRIPT_SHARED_LOCK),
	SCRIPT(RL_SCRIPT_SHARED_UNLOCK),
	SCRIPT(RL_SCRIPT_SHARED_EXTEND),
	SCRIPT(RL_SCRIPT_SHARED_VALIDITY),
	SCRIPT(RL_SCRIPT_SEMAPHORE_LOCK),
	SCRIPT(RL_SCRIPT_SEMAPHORE_RELEASE),
	SCRIPT(RL_SCRIPT_LOCK_FENCED),
	SCRIPT(RL_SCRIPT_FENCE_WRITEBACK),
	SCRIPT(RL_SCRIPT_FORCE_UNLOCK),
	SCRIPT(RL_SCRIPT_PROMOTE),
	SCRIPT(RL_SCRIPT_DEMOTE),
	SCRIPT(RL_SCRIPT_DEMOTE_ROLLBACK),
};

const rl_script_set *rl_scripts(void)
{
	return &scripts;
}
