/* The scripted dialect: every operation as an EVAL of its kind's script (rl_scripts.h; a shared
 * holder's policy carries the shared scripts: rl_shared_policy). See rl_dialect.h. */
#include <stdlib.h>
#include <string.h>

#include "core/rl_dialect.h"

int rl_scripted_attempt_init(rl_attempt_commands *cmds, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, const char *ttl_text, size_t ttl_len)
{
	const char *args[] = {token, ttl_text};
	const size_t arglens[] = {RL_TOKEN_LEN, ttl_len};

	if (!keys->multi) {
		rl_attempt_set_nx(cmds, policy, keys, token, ttl_text, ttl_len);
		return 0;
	}
	if (rl_script_call_init(&cmds->lock_call, &policy->scripts->lock_multi, keys, 2, args, arglens,
			RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	if (rl_script_call_init(&cmds->unlock_call, &policy->scripts->unlock_multi, keys, 1, args, arglens,
			RL_EXPECT_POSITIVE_INT) != 0) {
		rl_script_call_free(&cmds->lock_call);
		return -1;
	}
	cmds->lock = &cmds->lock_call.request;
	cmds->rollback = &cmds->unlock_call.request.command;
	cmds->rollback_count = 1;
	return 0;
}

/* A single key's rollback: the unlock script with this attempt's token. */
void rl_scripted_attempt_rollback(rl_attempt_commands *cmds)
{
	const rl_script *unlock = &cmds->policy->scripts->unlock;
	const char *eval_argv[] = {"EVAL", unlock->source, "1", cmds->keys->keys[0], cmds->token};
	const size_t eval_argvlen[] = {4, unlock->length, 1, cmds->keys->lens[0], RL_TOKEN_LEN};

	memcpy(cmds->rollback_argv, eval_argv, sizeof(eval_argv));
	memcpy(cmds->rollback_argvlen, eval_argvlen, sizeof(eval_argvlen));
	cmds->single_rollback[0] = (rl_command) {5, cmds->rollback_argv, cmds->rollback_argvlen, unlock->eval1_head,
		unlock->eval1_head_len, 3};
	cmds->rollback = cmds->single_rollback;
	cmds->rollback_count = 1;
}

void rl_scripted_attempt_free(rl_attempt_commands *cmds)
{
	if (cmds->lock == &cmds->lock_call.request) {
		rl_script_call_free(&cmds->lock_call);
		rl_script_call_free(&cmds->unlock_call);
	}
}

/* One script over keys with args after them: the votes; -1 when out of memory. */
static int run_script_healing(const rl_lock_io *io, const rl_lock_policy *policy, const rl_script *script,
	const rl_lock_keys *keys, int argc, const char **args, const size_t *arglens, double deadline, rl_outcome *outcomes,
	int heals)
{
	rl_script_call call;
	unsigned votes;

	if (rl_script_call_init(&call, script, keys, argc, args, arglens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	call.request.undecided = policy->await_every_reply ? rl_request_every_reply : NULL; /* rl_lock_policy */
	call.request.heals = heals; /* an extend: the members known to have lost our key are awaited */
	call.request.lost_on = heals ? policy->lost_on : NULL;
	votes = io->run(io->arg, &call.request, policy->quorum, deadline, outcomes);
	rl_script_call_free(&call);
	return (int) votes;
}

static int run_script(const rl_lock_io *io, const rl_lock_policy *policy, const rl_script *script,
	const rl_lock_keys *keys, int argc, const char **args, const size_t *arglens, double deadline, rl_outcome *outcomes)
{
	return run_script_healing(io, policy, script, keys, argc, args, arglens, deadline, outcomes, 0);
}

int rl_scripted_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	const char *args[] = {token};
	const size_t arglens[] = {token_len};
	double deadline = io->now(io->arg) + policy->call_bound_ms;

	if (!keys->multi) {
		/* The drop-in unlock(), once per call: its command written out, nothing to build. */
		const rl_script *script = &policy->scripts->unlock;
		const char *argv[] = {"EVAL", script->source, "1", keys->keys[0], token};
		const size_t argvlen[] = {4, script->length, 1, keys->lens[0], token_len};
		/* Without Lua where a server has it (net/rl_conn.h): the same compare-and-delete, built in. */
		const char *native_argv[] = {"DELEX", keys->keys[0], "IFEQ", token, "DELIFEQ", keys->keys[0], token};
		const size_t native_len[] = {5, keys->lens[0], 4, token_len, 7, keys->lens[0], token_len};
		rl_request request = {{5, argv, argvlen, script->eval1_head, script->eval1_head_len, 3}, RL_EXPECT_POSITIVE_INT,
			NULL, {{4, native_argv, native_len}, {3, native_argv + 4, native_len + 4}}, 0};

		if (policy->release_by_script) {
			/* rl_lock_policy.release_by_script says when DELEX/DELIFEQ will not do */
			request.native[0].argc = request.native[1].argc = 0;
		}
		return (int) io->run(io->arg, &request, policy->quorum, deadline, outcomes);
	}
	return run_script(io, policy, &policy->scripts->unlock_multi, keys, 1, args, arglens, deadline, outcomes);
}

int rl_scripted_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, const char *ttl_text, size_t ttl_len, double deadline, rl_outcome *outcomes)
{
	const char *args[] = {token, ttl_text};
	const size_t arglens[] = {token_len, ttl_len};

	return run_script_healing(io, policy, &policy->scripts->extend, keys, 2, args, arglens, deadline, outcomes, 1);
}

/* Whether a server could not compile a script's no-writes shebang (Redis < 7 reads "#!" as Lua). */
static int shebang_refused(const rl_outcome *outcomes, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (outcomes[i].kind == RL_OUTCOME_ERROR && strstr(outcomes[i].message, "Error compiling script") != NULL) {
			return 1;
		}
	}
	return 0;
}

/* validity() of every kind: its script with the no-writes flag, which a master answers with its
 * writes paused or at its memory limit (rl_scripts.h, RL_SCRIPT_NO_WRITES); where a server could
 * not compile the flag (Redis < 7), the same script plain, to every server (one more round trip
 * on such a cluster). */
int rl_scripted_held(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, double deadline, rl_outcome *outcomes)
{
	const char *args[] = {token};
	const size_t arglens[] = {token_len};

	if (run_script(io, policy, &policy->scripts->validity, keys, 1, args, arglens, deadline, outcomes) < 0) {
		return -1;
	}
	if (shebang_refused(outcomes, policy->servers)) {
		return run_script(io, policy, &policy->scripts->validity_plain, keys, 1, args, arglens, deadline, outcomes) < 0
			? -1 : 0;
	}
	return 0;
}

int rl_scripted_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes)
{
	return run_script(io, policy, &policy->scripts->force_unlock, keys, 0, NULL, NULL,
		io->now(io->arg) + policy->call_bound_ms, outcomes);
}

int rl_scripted_extend_prepare(const rl_lock_policy *policy, const rl_lock_keys *keys, const char *token,
	size_t token_len, const char *ttl_text, size_t ttl_len, rl_extend_call *call)
{
	const char *args[] = {token, ttl_text};
	const size_t arglens[] = {token_len, ttl_len};

	call->scripted = 0;
	if (rl_script_call_init(&call->script, &policy->scripts->extend, keys, 2, args, arglens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	call->scripted = 1;
	call->request = call->script.request;
	return 0;
}
