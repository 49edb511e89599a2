/* rl_lock_acquire()'s loop for acquisitions whose attempt is more than one SET: a semaphore's
 * slot tally, fencing's write-back, a conversion of a held lock. The state machine
 * (rl_acquire_next) is the lock's own, so the same rules hold: a fresh token per attempt, a
 * rollback carrying that token only, no pause after the last attempt, validity reckoned from the
 * attempt's start. See rl_lock.h. */
#include <stdlib.h>
#include <string.h>

#include "core/rl_lock.h"
#include "protocol/rl_resp.h"

int rl_attempts_run(const rl_lock_io *io, rl_acquire *acquire, const rl_attempt_ops *ops, rl_outcome *outcomes,
	rl_lock_result *result)
{
	unsigned votes = 0;

	memset(result, 0, sizeof(*result));
	for (;;) {
		rl_acquire_step step = rl_acquire_next(acquire, io->now(io->arg), votes, io->random, io->arg);

		result->attempts = acquire->attempt;
		switch (step) {
		case RL_STEP_SEND_LOCK:
			votes = ops->lock(ops->arg, io, acquire, outcomes);
			rl_acquire_stop_if_refused(acquire, votes, outcomes);
			result->hopeless |= rl_acquire_stop_if_hopeless(acquire, votes, outcomes);
			continue;
		case RL_STEP_SEND_RELEASE:
			memcpy(result->rolled_back, acquire->token, sizeof(result->rolled_back));
			ops->rollback(ops->arg, io, acquire);
			continue;
		case RL_STEP_PAUSE:
			if (acquire->policy->writer_mark != NULL) {
				rl_writer_mark_send(acquire->policy->writer_mark, io, acquire->step_deadline - io->now(io->arg));
			}
			io->pause(io->arg, acquire->step_deadline);
			continue;
		case RL_STEP_WON:
			memcpy(result->token, acquire->token, sizeof(result->token));
			result->validity = acquire->validity;
			return 1;
		case RL_STEP_NO_RANDOM:
			result->no_random = 1;
			return 0;
		case RL_STEP_LOST:
		default:
			return 0;
		}
	}
}

/* --- one script per attempt, with fencing's write-back ------------------------------------------ */

typedef struct scripted {
	size_t servers;
	unsigned quorum;
	int fenced;
	rl_script_call lock_call;
	rl_script_call writeback_call; /* token, fence */
	rl_script_call rollback_call;
	char fence_text[24];
	size_t per_command;            /* of writeback_call */
	int64_t fence;
	int refusal_writes_nothing;    /* rl_scripted_attempt's */
	const rl_outcome *outcomes;    /* the lock script's answers, for the rollback */
} scripted;

/* The write-back's answers replace the lock script's, but where the lock script got no yes and the
 * write-back only "not ours": there that "not ours" would hide why (another's key, READONLY from a
 * demoted master, NOREPLICAS: tests/faults/129), or that no answer was needed. */
static unsigned writeback_keeping_refusals(scripted *attempt, const rl_lock_io *io, const rl_acquire *acquire,
	rl_outcome *outcomes)
{
	rl_outcome small[8], *refusals = attempt->servers <= 8 ? small : malloc(attempt->servers * sizeof(*refusals));
	unsigned votes;
	size_t i;

	for (i = 0; refusals != NULL && i < attempt->servers; i++) {
		refusals[i] = outcomes[i];
	}
	votes = io->run(io->arg, &attempt->writeback_call.request, attempt->quorum, acquire->step_deadline, outcomes);
	for (i = 0; refusals != NULL && i < attempt->servers; i++) {
		if (refusals[i].kind != RL_OUTCOME_YES && outcomes[i].kind != RL_OUTCOME_YES
			&& (refusals[i].kind != RL_OUTCOME_PENDING || outcomes[i].kind == RL_OUTCOME_TAKEN)) {
			outcomes[i] = refusals[i];
		}
	}
	if (refusals != small) {
		free(refusals);
	}
	return votes;
}

static unsigned scripted_lock(void *arg, const rl_lock_io *io, const rl_acquire *acquire, rl_outcome *outcomes)
{
	scripted *attempt = arg;
	unsigned votes = io->run(io->arg, &attempt->lock_call.request, attempt->quorum, acquire->step_deadline, outcomes);
	long long fence = 0;
	size_t i, len;

	attempt->outcomes = outcomes;
	if (votes < attempt->quorum || !attempt->fenced) {
		return votes;
	}
	/* The fence is the largest counter of the quorum, written back where our keys hold our token
	 * (docs/design/primitives.md). */
	for (i = 0; i < attempt->servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_YES && outcomes[i].integer > fence) {
			fence = outcomes[i].integer;
		}
	}
	attempt->fence = fence;
	len = rl_resp_decimal(attempt->fence_text, (unsigned long long) fence);
	attempt->writeback_call.argvlen[attempt->per_command - 1] = len;
	return writeback_keeping_refusals(attempt, io, acquire, outcomes);
}

/* Whether server i may hold something of this attempt's: not when it answered the script's own
 * refusal (a reply <= 0) and refusal_writes_nothing. A server that did not answer before the attempt
 * ended (the fan-out stops at a decided quorum), failed, or said yes may hold our token (or a SET
 * still in flight), a yes the cluster did not count included (RL_OUTCOME_TAKEN with the reply's 1:
 * a clock jump, a changed master). */
static int may_hold_ours(const scripted *attempt, size_t i)
{
	return !attempt->refusal_writes_nothing || attempt->fenced || attempt->outcomes == NULL
		|| attempt->outcomes[i].kind != RL_OUTCOME_TAKEN || attempt->outcomes[i].integer > 0;
}

/* The rollback goes to the servers that may hold something of ours: none when every one refused,
 * every one (send) when it cannot tell them apart or has no room for the flags. */
static void scripted_rollback(void *arg, const rl_lock_io *io, const rl_acquire *acquire)
{
	scripted *attempt = arg;
	unsigned char small[16], *to = attempt->servers <= sizeof(small) ? small : malloc(attempt->servers);
	size_t i, wanted = 0;

	(void) acquire;
	for (i = 0; to != NULL && i < attempt->servers; i++) {
		to[i] = (unsigned char) may_hold_ours(attempt, i);
		wanted += to[i];
	}
	if (to == NULL || wanted == attempt->servers) {
		io->send(io->arg, &attempt->rollback_call.request.command);
	} else if (wanted > 0) {
		io->send_to(io->arg, &attempt->rollback_call.request.command, to);
	}
	if (to != small) {
		free(to);
	}
}

int rl_scripted_attempts_run(const rl_lock_io *io, rl_acquire *acquire, const rl_scripted_attempt *spec,
	const rl_lock_keys *keys, size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence)
{
	scripted attempt;
	rl_attempt_ops ops = {&attempt, scripted_lock, scripted_rollback};
	const char *writeback_args[2];
	size_t writeback_lens[] = {RL_TOKEN_LEN, 1};
	int won = -1;

	memcpy(attempt.fence_text, "0", 2);
	writeback_args[0] = acquire->token;
	writeback_args[1] = attempt.fence_text;
	attempt.servers = servers;
	attempt.quorum = acquire->policy->quorum;
	attempt.fenced = spec->writeback != NULL;
	attempt.fence = 0;
	attempt.refusal_writes_nothing = spec->refusal_writes_nothing;
	attempt.outcomes = NULL;
	attempt.per_command = 3 + keys->count + 2;
	if (rl_script_call_init(&attempt.lock_call, spec->lock, keys, spec->lock_argc, (const char **) spec->args,
			spec->lens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	if (attempt.fenced && rl_script_call_init(&attempt.writeback_call, spec->writeback, keys, 2, writeback_args,
			writeback_lens, RL_EXPECT_POSITIVE_INT) != 0) {
		goto free_lock;
	}
	if (rl_script_call_init(&attempt.rollback_call, spec->rollback, keys, spec->rollback_argc,
			(const char **) (spec->rollback_args != NULL ? spec->rollback_args : spec->args),
			spec->rollback_args != NULL ? spec->rollback_lens : spec->lens, RL_EXPECT_POSITIVE_INT) != 0) {
		goto free_writeback;
	}
	won = rl_attempts_run(io, acquire, &ops, outcomes, result);
	if (won && attempt.fenced) {
		*fence = attempt.fence;
	}
	rl_script_call_free(&attempt.rollback_call);
free_writeback:
	if (attempt.fenced) {
		rl_script_call_free(&attempt.writeback_call);
	}
free_lock:
	rl_script_call_free(&attempt.lock_call);
	return won;
}
