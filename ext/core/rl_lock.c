/* The Redlock driver. See rl_lock.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rl_lock.h"
#include "core/rl_native.h"
#include "protocol/rl_resp.h"

void rl_acquire_init(rl_acquire *acquire, const rl_lock_policy *policy, int64_t ttl)
{
	memset(acquire, 0, sizeof(*acquire));
	acquire->ttl = ttl;
	acquire->policy = policy;
	acquire->attempts = rl_attempts_for(policy->retry_count);
	acquire->state = RL_ACQ_START;
	acquire->token_kind = policy->token_kind;
}

rl_acquire_step rl_acquire_next(rl_acquire *acquire, double now, unsigned votes,
	int (*random)(void *arg, void *into, size_t len), void *random_arg)
{
	const rl_lock_policy *policy = acquire->policy;

	switch (acquire->state) {
	case RL_ACQ_START: {
		unsigned char bytes[RL_TOKEN_BYTES];

		if (acquire->attempt >= acquire->attempts) {
			acquire->state = RL_ACQ_DONE;
			return RL_STEP_LOST;
		}
		/* A fresh token for every attempt: see rl_lock.h. */
		if (random(random_arg, bytes, sizeof(bytes)) != 0) {
			acquire->state = RL_ACQ_DONE;
			return RL_STEP_NO_RANDOM;
		}
		rl_token_write(bytes, acquire->token_kind, acquire->ttl, acquire->token);
		acquire->attempt++;
		acquire->attempt_start = now;
		acquire->step_deadline = now + (double) acquire->ttl; /* no attempt outlives the ttl */
		acquire->state = RL_ACQ_SENT;
		return RL_STEP_SEND_LOCK;
	}
	case RL_ACQ_SENT:
		acquire->validity = rl_validity_ms(acquire->ttl, now - acquire->attempt_start, policy->drift_factor);
		if (votes >= policy->quorum && acquire->validity > 0) {
			acquire->state = RL_ACQ_DONE;
			return RL_STEP_WON;
		}
		/* Undo what this attempt set, including SETs still in flight: the rollback follows them
		 * on the same streams, and carries this attempt's token only. */
		acquire->state = RL_ACQ_ROLLED_BACK;
		return RL_STEP_SEND_RELEASE;
	case RL_ACQ_ROLLED_BACK: {
		uint32_t value = 0;

		if (acquire->attempt >= acquire->attempts) {
			acquire->state = RL_ACQ_DONE;
			return RL_STEP_LOST; /* no pause after the last attempt */
		}
		if (random(random_arg, &value, sizeof(value)) != 0) {
			acquire->state = RL_ACQ_DONE;
			return RL_STEP_NO_RANDOM;
		}
		acquire->step_deadline = now + (double) rl_retry_delay_ms(policy->retry_delay, value);
		acquire->state = RL_ACQ_START;
		return RL_STEP_PAUSE;
	}
	case RL_ACQ_DONE:
	default:
		return RL_STEP_LOST;
	}
}

/* --- Commands ---------------------------------------------------------------------------- */

/* An EVAL over the keys with args after them: rl_script_call (rl_lock.h). */
typedef rl_script_call script_call;
#define SCRIPT_CALL_INLINE RL_SCRIPT_CALL_INLINE

static void fill_eval(const char **argv, size_t *argvlen, const char *verb, size_t verb_len, const char *body,
	size_t body_len, const char *numkeys, size_t numkeys_len, const rl_lock_keys *keys, int argc, const char **args,
	const size_t *arglens)
{
	size_t i;
	int k = 0;

	argv[k] = verb;
	argvlen[k++] = verb_len;
	argv[k] = body;
	argvlen[k++] = body_len;
	argv[k] = numkeys;
	argvlen[k++] = numkeys_len;
	for (i = 0; i < keys->count; i++) {
		argv[k] = keys->keys[i];
		argvlen[k++] = keys->lens[i];
	}
	for (i = 0; i < (size_t) argc; i++) {
		argv[k] = args[i];
		argvlen[k++] = arglens[i];
	}
}

int rl_script_call_init(script_call *call, const rl_script *script, const rl_lock_keys *keys, int argc,
	const char **args, const size_t *arglens, rl_expect expect)
{
	size_t per_command = 3 + keys->count + (size_t) argc;
	size_t numkeys_len;

	memset(&call->request, 0, sizeof(call->request));
	numkeys_len = rl_resp_decimal(call->numkeys, (unsigned long long) keys->count);
	if (per_command <= SCRIPT_CALL_INLINE) {
		call->argv = call->inline_argv;
		call->argvlen = call->inline_argvlen;
	} else {
		call->argv = malloc(per_command * sizeof(*call->argv));
		call->argvlen = malloc(per_command * sizeof(*call->argvlen));
		if (call->argv == NULL || call->argvlen == NULL) {
			free(call->argv);
			free(call->argvlen);
			call->argv = NULL;
			call->argvlen = NULL;
			return -1;
		}
	}
	/* EVAL, never EVALSHA: see core/rl_scripts.c. */
	fill_eval(call->argv, call->argvlen, "EVAL", 4, script->source, script->length, call->numkeys, numkeys_len,
		keys, argc, args, arglens);
	call->request.command = (rl_command) {(int) per_command, call->argv, call->argvlen};
	call->request.expect = expect;
	call->request.undecided = NULL;
	call->request.native[0].argc = call->request.native[1].argc = 0;
	call->request.lua_forbidden = 0;
	call->request.batch_len = 0;
	return 0;
}

void rl_script_call_free(script_call *call)
{
	if (call->argv != call->inline_argv) {
		free(call->argv);
		free(call->argvlen);
	}
}

/* --- lock ---------------------------------------------------------------------------------- */

/* The attempts' commands for the current token: the lock request and its rollback. */
typedef struct attempt_commands {
	const rl_request *lock;
	const rl_command *rollback;
	/* single key */
	const char *set_argv[6];
	size_t set_argvlen[6];
	const char *eval_argv[5];
	size_t eval_argvlen[5];
	rl_request set_request;
	rl_command eval_command;
	/* without scripts: the rollback as DELEX, then as DELIFEQ (a fire-and-forget cannot ask which
	 * the server has: the one it lacks is an unknown command, answered and dropped) */
	const char *native_argv[7];
	size_t native_argvlen[7];
	rl_command native_rollback[2];
	/* several keys */
	script_call lock_call, unlock_call;
	int scripts;
	/* several keys without scripts: MSETEX n k1 token k2 token ... NX PX ttl, and per key the two
	 * native rollbacks (heap arrays) */
	const char **msetex_argv;
	size_t *msetex_argvlen;
	char numkeys[24];
	rl_request msetex_request;
	rl_command *key_rollbacks;   /* 2 per key */
	const char **rollback_argv;  /* 7 per key */
	size_t *rollback_argvlen;
	size_t key_count;
} attempt_commands;

static void attempt_commands_free(attempt_commands *cmds);

/* Builds the commands once: they point at token, which each attempt overwrites in place. */
static int attempt_commands_init(attempt_commands *cmds, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, const char *ttl_text, size_t ttl_len)
{
	cmds->scripts = 0; /* no memset: the struct holds two scripts' inline arrays */
	cmds->msetex_argv = NULL;
	cmds->msetex_argvlen = NULL;
	cmds->key_rollbacks = NULL;
	cmds->rollback_argv = NULL;
	cmds->rollback_argvlen = NULL;
	cmds->key_count = 0;
	if (keys->multi && policy->no_scripts) {
		size_t n = keys->count, i, argc = 2 + 2 * n + 3;

		cmds->msetex_argv = malloc(argc * sizeof(*cmds->msetex_argv));
		cmds->msetex_argvlen = malloc(argc * sizeof(*cmds->msetex_argvlen));
		cmds->key_rollbacks = malloc(2 * n * sizeof(*cmds->key_rollbacks));
		cmds->rollback_argv = malloc(7 * n * sizeof(*cmds->rollback_argv));
		cmds->rollback_argvlen = malloc(7 * n * sizeof(*cmds->rollback_argvlen));
		if (!cmds->msetex_argv || !cmds->msetex_argvlen || !cmds->key_rollbacks || !cmds->rollback_argv
			|| !cmds->rollback_argvlen) {
			attempt_commands_free(cmds);
			return -1;
		}
		cmds->msetex_argv[0] = "MSETEX";
		cmds->msetex_argvlen[0] = 6;
		cmds->msetex_argv[1] = cmds->numkeys;
		cmds->msetex_argvlen[1] = rl_resp_decimal(cmds->numkeys, (unsigned long long) n);
		for (i = 0; i < n; i++) {
			const char **r = cmds->rollback_argv + 7 * i;
			size_t *rl = cmds->rollback_argvlen + 7 * i;

			cmds->msetex_argv[2 + 2 * i] = keys->keys[i];
			cmds->msetex_argvlen[2 + 2 * i] = keys->lens[i];
			cmds->msetex_argv[3 + 2 * i] = token;
			cmds->msetex_argvlen[3 + 2 * i] = RL_TOKEN_LEN;
			r[0] = "DELEX", rl[0] = 5, r[1] = keys->keys[i], rl[1] = keys->lens[i], r[2] = "IFEQ", rl[2] = 4;
			r[3] = token, rl[3] = RL_TOKEN_LEN;
			r[4] = "DELIFEQ", rl[4] = 7, r[5] = keys->keys[i], rl[5] = keys->lens[i], r[6] = token, rl[6] = RL_TOKEN_LEN;
			cmds->key_rollbacks[2 * i] = (rl_command) {4, r, rl};
			cmds->key_rollbacks[2 * i + 1] = (rl_command) {3, r + 4, rl + 4};
		}
		cmds->msetex_argv[2 + 2 * n] = "NX", cmds->msetex_argvlen[2 + 2 * n] = 2;
		cmds->msetex_argv[3 + 2 * n] = "PX", cmds->msetex_argvlen[3 + 2 * n] = 2;
		cmds->msetex_argv[4 + 2 * n] = ttl_text, cmds->msetex_argvlen[4 + 2 * n] = ttl_len;
		memset(&cmds->msetex_request, 0, sizeof(cmds->msetex_request));
		cmds->msetex_request.command = (rl_command) {(int) argc, cmds->msetex_argv, cmds->msetex_argvlen};
		cmds->msetex_request.expect = RL_EXPECT_POSITIVE_INT; /* 1 when every key was set, 0 when none */
		cmds->key_count = n;
		cmds->lock = &cmds->msetex_request;
		cmds->rollback = NULL;
		return 0;
	}
	if (!keys->multi) {
		const rl_script *unlock = &policy->scripts->unlock;
		const char *set_argv[] = {"SET", keys->keys[0], token, "NX", "PX", ttl_text};
		const size_t set_argvlen[] = {3, keys->lens[0], RL_TOKEN_LEN, 2, 2, ttl_len};
		const char *eval_argv[] = {"EVAL", unlock->source, "1", keys->keys[0], token};
		const size_t eval_argvlen[] = {4, unlock->length, 1, keys->lens[0], RL_TOKEN_LEN};

		memcpy(cmds->set_argv, set_argv, sizeof(set_argv));
		memcpy(cmds->set_argvlen, set_argvlen, sizeof(set_argvlen));
		memcpy(cmds->eval_argv, eval_argv, sizeof(eval_argv));
		memcpy(cmds->eval_argvlen, eval_argvlen, sizeof(eval_argvlen));
		cmds->set_request.command = (rl_command) {6, cmds->set_argv, cmds->set_argvlen, "$3\r\nSET\r\n", 9, 1};
		cmds->set_request.expect = RL_EXPECT_OK;
		cmds->set_request.undecided = NULL;
		cmds->set_request.native[0].argc = cmds->set_request.native[1].argc = 0;
		cmds->set_request.lua_forbidden = 0;
		cmds->set_request.batch_len = 0;
		cmds->eval_command = (rl_command) {5, cmds->eval_argv, cmds->eval_argvlen, unlock->eval1_head,
			unlock->eval1_head_len, 3};
		cmds->lock = &cmds->set_request;
		cmds->rollback = &cmds->eval_command;
		cmds->native_rollback[0].argc = cmds->native_rollback[1].argc = 0;
		if (policy->no_scripts) {
			const char *native_argv[] = {"DELEX", keys->keys[0], "IFEQ", token, "DELIFEQ", keys->keys[0], token};
			const size_t native_argvlen[] = {5, keys->lens[0], 4, RL_TOKEN_LEN, 7, keys->lens[0], RL_TOKEN_LEN};

			memcpy(cmds->native_argv, native_argv, sizeof(native_argv));
			memcpy(cmds->native_argvlen, native_argvlen, sizeof(native_argvlen));
			cmds->native_rollback[0] = (rl_command) {4, cmds->native_argv, cmds->native_argvlen};
			cmds->native_rollback[1] = (rl_command) {3, cmds->native_argv + 4, cmds->native_argvlen + 4};
			cmds->rollback = NULL;
		}
		return 0;
	}
	{
		const char *args[] = {token, ttl_text};
		const size_t arglens[] = {RL_TOKEN_LEN, ttl_len};

		if (rl_script_call_init(&cmds->lock_call, &policy->scripts->lock_multi, keys, 2, args, arglens,
				RL_EXPECT_POSITIVE_INT) != 0) {
			return -1;
		}
		if (rl_script_call_init(&cmds->unlock_call, &policy->scripts->unlock_multi, keys, 1, args, arglens,
				RL_EXPECT_POSITIVE_INT) != 0) {
			rl_script_call_free(&cmds->lock_call);
			return -1;
		}
		cmds->scripts = 1;
		cmds->lock = &cmds->lock_call.request;
		cmds->rollback = &cmds->unlock_call.request.command;
		return 0;
	}
}

static void attempt_commands_free(attempt_commands *cmds)
{
	if (cmds->scripts) {
		rl_script_call_free(&cmds->lock_call);
		rl_script_call_free(&cmds->unlock_call);
	}
	free(cmds->msetex_argv);
	free(cmds->msetex_argvlen);
	free(cmds->key_rollbacks);
	free(cmds->rollback_argv);
	free(cmds->rollback_argvlen);
	cmds->msetex_argv = NULL;
	cmds->msetex_argvlen = NULL;
	cmds->key_rollbacks = NULL;
	cmds->rollback_argv = NULL;
	cmds->rollback_argvlen = NULL;
}

int rl_lock_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	int64_t ttl, rl_outcome *outcomes, rl_lock_result *result)
{
	rl_acquire acquire;
	attempt_commands cmds;
	char ttl_text[24];
	size_t ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl); /* ttl >= 1: the caller checks */
	unsigned votes = 0;

	memset(result, 0, sizeof(*result));
	rl_acquire_init(&acquire, policy, ttl);
	if (attempt_commands_init(&cmds, policy, keys, acquire.token, ttl_text, ttl_len) != 0) {
		return -1;
	}
	for (;;) {
		rl_acquire_step step = rl_acquire_next(&acquire, io->now(io->arg), votes, io->random, io->arg);

		result->attempts = acquire.attempt;
		switch (step) {
		case RL_STEP_SEND_LOCK:
			votes = io->run(io->arg, cmds.lock, policy->quorum, acquire.step_deadline, outcomes);
			continue;
		case RL_STEP_SEND_RELEASE:
			if (cmds.rollback != NULL) {
				io->send(io->arg, cmds.rollback);
			} else if (cmds.key_count > 0) {
				size_t k;
				for (k = 0; k < 2 * cmds.key_count; k++) {
					io->send(io->arg, &cmds.key_rollbacks[k]);
				}
			} else {
				io->send(io->arg, &cmds.native_rollback[0]);
				io->send(io->arg, &cmds.native_rollback[1]);
			}
			continue;
		case RL_STEP_PAUSE:
			io->pause(io->arg, acquire.step_deadline);
			continue;
		case RL_STEP_WON:
			memcpy(result->token, acquire.token, sizeof(result->token));
			result->validity = acquire.validity;
			attempt_commands_free(&cmds);
			return 1;
		case RL_STEP_NO_RANDOM:
			result->no_random = 1;
			/* fall through */
		case RL_STEP_LOST:
		default:
			attempt_commands_free(&cmds);
			return 0;
		}
	}
}

/* --- release, extend, validity --------------------------------------------------------------- */

static double extend_quorum(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes);

int rl_lock_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	const rl_script *script = keys->multi ? &policy->scripts->unlock_multi : &policy->scripts->unlock;
	const char *args[] = {token};
	const size_t arglens[] = {token_len};
	script_call call;
	unsigned votes;

	if (!keys->multi) {
		/* The drop-in unlock(), once per call: its command written out, nothing to build. */
		const char *argv[] = {"EVAL", script->source, "1", keys->keys[0], token};
		const size_t argvlen[] = {4, script->length, 1, keys->lens[0], token_len};
		/* Without Lua where a server has it (net/rl_conn.h): the same compare-and-delete, built in. */
		const char *native_argv[] = {"DELEX", keys->keys[0], "IFEQ", token, "DELIFEQ", keys->keys[0], token};
		const size_t native_len[] = {5, keys->lens[0], 4, token_len, 7, keys->lens[0], token_len};
		rl_request request = {{5, argv, argvlen, script->eval1_head, script->eval1_head_len, 3}, RL_EXPECT_POSITIVE_INT, NULL,
			{{4, native_argv, native_len}, {3, native_argv + 4, native_len + 4}}, policy->no_scripts};

		if (policy->release_by_script && !policy->no_scripts) {
			/* rl_lock_policy.release_by_script says when DELEX/DELIFEQ will not do */
			request.native[0].argc = request.native[1].argc = 0;
		}
		return (int) io->run(io->arg, &request, policy->quorum, io->now(io->arg) + policy->call_bound_ms, outcomes);
	}
	if (policy->no_scripts) {
		return rl_native_release_keys(io, policy, keys, token, token_len, io->now(io->arg) + policy->call_bound_ms,
			outcomes);
	}
	if (rl_script_call_init(&call, script, keys, 1, args, arglens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	votes = io->run(io->arg, &call.request, policy->quorum, io->now(io->arg) + policy->call_bound_ms, outcomes);
	rl_script_call_free(&call);
	return (int) votes;
}

int rl_lock_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes)
{
	script_call call;
	unsigned votes;

	if (policy->no_scripts) {
		return rl_native_force_release(io, policy, keys, io->now(io->arg) + policy->call_bound_ms, outcomes);
	}
	if (rl_script_call_init(&call, &policy->scripts->force_unlock, keys, 0, NULL, NULL, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	votes = io->run(io->arg, &call.request, policy->quorum, io->now(io->arg) + policy->call_bound_ms, outcomes);
	rl_script_call_free(&call);
	return (int) votes;
}

/* Self-healing (docs/design/renewal.md#self-healing-renewal): called only once this extend's quorum
 * is known and its validity is positive. Where a member answered "not ours" (a restart without
 * persistence, an eviction, a DEL by hand), our key is written again as the acquisition writes
 * it: SET NX PX, the all-or-none multi-key script or MSETEX NX, never over any key (another
 * owner's, or ours). Sent without waiting: the validity this call reports counts the quorum
 * only, and a member whose answer came after the quorum is healed by the next extend. A shared
 * holder is not re-created (its one creating script rewrites our deadline: see the design note);
 * nor a token of another format (the commands are built for ours). Nothing is sent while every
 * member that answered said yes. */
static void recreate_where_missing(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, const char *ttl_text, size_t ttl_len, const rl_outcome *outcomes)
{
	attempt_commands cmds;
	size_t i;
	int missing = 0;

	for (i = 0; i < policy->servers && !missing; i++) {
		missing = outcomes[i].kind == RL_OUTCOME_TAKEN;
	}
	if (!missing || policy->token_kind == RL_TOKEN_SHARED || token_len != RL_TOKEN_LEN) {
		return;
	}
	if (attempt_commands_init(&cmds, policy, keys, token, ttl_text, ttl_len) != 0) {
		return; /* out of memory: the next extend tries again */
	}
	io->send(io->arg, &cmds.lock->command);
	attempt_commands_free(&cmds);
}

double rl_lock_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes)
{
	double validity = extend_quorum(io, policy, keys, token, token_len, ttl, outcomes);

	if (validity > 0) {
		char ttl_text[24];
		size_t ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl);

		recreate_where_missing(io, policy, keys, token, token_len, ttl_text, ttl_len, outcomes);
	}
	return validity;
}

/* The compare-the-token extension itself: the new validity when a quorum gave it in time, else 0. */
static double extend_quorum(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes)
{
	char ttl_text[24];
	const char *args[] = {token, ttl_text};
	size_t arglens[] = {token_len, 0};
	script_call call;
	double start, validity;
	unsigned votes;

	arglens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	if (policy->no_scripts && !keys->multi) {
		/* Without Lua: the key set again to our token, only where it holds it, for the lock's own
		 * ttl (the caller keeps it the same: see rl_lock_policy.no_scripts). */
		const char *argv[] = {"SET", keys->keys[0], token, "IFEQ", token, "PX", ttl_text};
		const size_t argvlen[] = {3, keys->lens[0], token_len, 4, token_len, 2, arglens[1]};
		rl_request request = {{7, argv, argvlen}, RL_EXPECT_OK, policy->await_every_reply ? rl_request_every_reply : NULL,
			{{0, NULL, NULL}, {0, NULL, NULL}}, 0};

		start = io->now(io->arg);
		votes = io->run(io->arg, &request, policy->quorum, start + fmin((double) ttl, policy->call_bound_ms), outcomes);
		validity = rl_validity_ms(ttl, io->now(io->arg) - start, policy->drift_factor);
		return votes >= policy->quorum && validity > 0 ? validity : 0;
	}
	if (policy->no_scripts) {
		int won;

		start = io->now(io->arg);
		won = rl_native_extend_keys(io, policy, keys, token, token_len, ttl_text, arglens[1],
			start + fmin((double) ttl, policy->call_bound_ms), outcomes);
		if (won < 0) {
			return -1;
		}
		validity = rl_validity_ms(ttl, io->now(io->arg) - start, policy->drift_factor);
		return (unsigned) won >= policy->quorum && validity > 0 ? validity : 0;
	}
	if (rl_script_call_init(&call, &policy->scripts->extend, keys, 2, args, arglens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	call.request.undecided = policy->await_every_reply ? rl_request_every_reply : NULL;
	start = io->now(io->arg);
	votes = io->run(io->arg, &call.request, policy->quorum,
		start + fmin((double) ttl, policy->call_bound_ms), outcomes);
	validity = rl_validity_ms(ttl, io->now(io->arg) - start, policy->drift_factor);
	rl_script_call_free(&call);
	return votes >= policy->quorum && validity > 0 ? validity : 0;
}

double rl_lock_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes)
{
	const char *args[] = {token};
	const size_t arglens[] = {token_len};
	script_call call;
	int64_t *remaining;
	int64_t quorum_pttl;
	double start, elapsed, validity;
	size_t i, holders = 0;

	remaining = malloc((servers ? servers : 1) * sizeof(*remaining));
	if (remaining == NULL) {
		return -1;
	}
	start = io->now(io->arg);
	if (policy->no_scripts) {
		if (rl_native_held(io, policy, keys, token, token_len, start + policy->call_bound_ms, outcomes) < 0) {
			free(remaining);
			return -1;
		}
	} else {
		if (rl_script_call_init(&call, &policy->scripts->validity, keys, 1, args, arglens, RL_EXPECT_POSITIVE_INT) != 0) {
			free(remaining);
			return -1;
		}
		io->run(io->arg, &call.request, policy->quorum, start + policy->call_bound_ms, outcomes);
		rl_script_call_free(&call);
	}
	elapsed = io->now(io->arg) - start;
	for (i = 0; i < servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_YES) {
			remaining[holders++] = (int64_t) outcomes[i].integer;
		}
	}
	quorum_pttl = rl_quorum_pttl(remaining, holders, policy->quorum);
	free(remaining);
	if (quorum_pttl <= 0) {
		return 0;
	}
	/* The ttl is unknown here: the drift is reckoned on what is left of it. */
	validity = rl_validity_ms(quorum_pttl, elapsed, policy->drift_factor);
	return validity > 0 ? validity : 0;
}
