/* The script table. Every script is sent as EVAL, never EVALSHA: a NOSCRIPT from a server the
 * call no longer waited for (the quorum was settled before it answered) would be dropped with
 * the reply, and its release, extension or rollback would never run there. EVAL costs the
 * script's bytes on the wire and a SHA1 on the server per call (measured in
 * docs/design/acquisition-path.md); it can never answer NOSCRIPT. */
#include "core/rl_lock.h" /* rl_script_set */
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"

#include <stdlib.h>

#include "protocol/rl_resp.h"

#define SCRIPT(source) {source, sizeof(source) - 1, NULL, 0}

/* Not const: rl_scripts_startup() adds each one's encoded head. */
static rl_script_set scripts = {
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
	SCRIPT(RL_SCRIPT_VALIDITY_PLAIN),
	SCRIPT(RL_SCRIPT_SHARED_VALIDITY_PLAIN),
	SCRIPT(RL_SCRIPT_WRITER_MARK),
	SCRIPT(RL_SCRIPT_ROLLBACK_MARK),
	SCRIPT(RL_SCRIPT_FAIR_TICKET),
	SCRIPT(RL_SCRIPT_FAIR_LOCK),
	SCRIPT(RL_SCRIPT_FAIR_UNLOCK),
	SCRIPT(RL_SCRIPT_FAIR_LEAVE),
	SCRIPT(RL_SCRIPT_FAIR_SEM_TICKET),
	SCRIPT(RL_SCRIPT_FAIR_SEMAPHORE_LOCK),
	SCRIPT(RL_SCRIPT_FAIR_SEMAPHORE_RELEASE),
	SCRIPT(RL_SCRIPT_FAIR_SEMAPHORE_LEAVE),
	SCRIPT(RL_SCRIPT_EXTEND_MANY),
};

/* A fair object's set: the same, with the unlock and the semaphore's release that wake the queue's head (made at startup,
 * after the heads were encoded; it shares their buffers, freed once with the set's). */
static rl_script_set fair_scripts;

const rl_script_set *rl_scripts(void)
{
	return &scripts;
}

const rl_script_set *rl_scripts_fair(void)
{
	return &fair_scripts;
}

/* The set as the array of scripts it is made of. */
#define SCRIPT_COUNT (sizeof(scripts) / sizeof(rl_script))

void rl_scripts_startup(void)
{
	rl_script *each = (rl_script *) &scripts;
	size_t i;

	for (i = 0; i < SCRIPT_COUNT; i++) {
		const char *argv[] = {"EVAL", each[i].source, "1"};
		const size_t argvlen[] = {4, each[i].length, 1};
		/* rl_resp_size counts the array's header too: a few bytes to spare */
		char *head = malloc(rl_resp_size(3, argvlen));

		if (head != NULL) {
			each[i].eval1_head_len = (size_t) (rl_resp_put_args(head, 3, argv, argvlen) - head);
			each[i].eval1_head = head;
		}
	}
	fair_scripts = scripts;
	fair_scripts.unlock = scripts.fair_unlock;
	fair_scripts.semaphore_release = scripts.fair_semaphore_release; /* a rollback and the trim wake too */
}

void rl_scripts_shutdown(void)
{
	rl_script *each = (rl_script *) &scripts;
	size_t i;

	for (i = 0; i < SCRIPT_COUNT; i++) {
		free((char *) each[i].eval1_head);
		each[i].eval1_head = NULL;
		each[i].eval1_head_len = 0;
	}
	fair_scripts = scripts;
}
