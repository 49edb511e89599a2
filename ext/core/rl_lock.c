/* The Redlock driver. See rl_lock.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rl_lock.h"
#include "core/rl_dialect.h"
#include "protocol/rl_reply.h" /* rl_outcomes_scripts_refused */
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

void rl_acquire_stop_if_refused(rl_acquire *acquire, unsigned votes, const rl_outcome *outcomes)
{
	const rl_lock_policy *policy = acquire->policy;

	if (votes < policy->quorum && rl_outcomes_scripts_refused(outcomes, policy->servers, policy->quorum)) {
		acquire->attempts = acquire->attempt;
	}
}

int rl_acquire_stop_if_hopeless(rl_acquire *acquire, unsigned votes, const rl_outcome *outcomes)
{
	const rl_lock_policy *policy = acquire->policy;
	unsigned i;

	for (i = 0; votes < policy->quorum && i < policy->servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_TAKEN && outcomes[i].integer < 0) {
			acquire->attempts = acquire->attempt;
			return 1;
		}
	}
	return 0;
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

int rl_lock_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	int64_t ttl, rl_outcome *outcomes, rl_lock_result *result)
{
	const rl_dialect *dialect = policy->dialect;
	rl_acquire acquire;
	rl_attempt_commands cmds;
	char ttl_text[24];
	size_t ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl); /* ttl >= 1: the caller checks */
	unsigned votes = 0;

	memset(result, 0, sizeof(*result));
	rl_acquire_init(&acquire, policy, ttl);
	if (dialect->attempt_init(&cmds, policy, keys, acquire.token, ttl_text, ttl_len) != 0) {
		return -1;
	}
	for (;;) {
		rl_acquire_step step = rl_acquire_next(&acquire, io->now(io->arg), votes, io->random, io->arg);

		result->attempts = acquire.attempt;
		switch (step) {
		case RL_STEP_SEND_LOCK:
			votes = io->run(io->arg, cmds.lock, policy->quorum, acquire.step_deadline, outcomes);
			rl_acquire_stop_if_refused(&acquire, votes, outcomes);
			result->hopeless |= rl_acquire_stop_if_hopeless(&acquire, votes, outcomes);
			continue;
		case RL_STEP_SEND_RELEASE: {
			rl_writer_mark *mark = policy->writer_mark;
			size_t k;

			memcpy(result->rolled_back, acquire.token, sizeof(result->rolled_back));
			if (mark != NULL && mark->in_rollback) {
				/* the writer's mark rides on the rollback, for the pause that follows (at most
				 * retryDelay, or the caller's own), or is taken back after the last attempt */
				int last = acquire.attempt >= acquire.attempts && mark->then_ms <= 0;
				rl_writer_mark_rollback(mark, io, acquire.token,
					last ? 0 : fmax((double) policy->retry_delay, mark->then_ms) + RL_WRITER_MARK_SLACK_MS);
				continue;
			}
			if (cmds.rollback == NULL) {
				dialect->attempt_rollback(&cmds);
			}
			for (k = 0; k < cmds.rollback_count; k++) {
				io->send(io->arg, &cmds.rollback[k]);
			}
			continue;
		}
		case RL_STEP_PAUSE:
			if (policy->writer_mark != NULL && !policy->writer_mark->in_rollback) {
				rl_writer_mark_send(policy->writer_mark, io, acquire.step_deadline - io->now(io->arg));
			}
			io->pause(io->arg, acquire.step_deadline);
			continue;
		case RL_STEP_WON:
			memcpy(result->token, acquire.token, sizeof(result->token));
			result->validity = acquire.validity;
			dialect->attempt_free(&cmds);
			return 1;
		case RL_STEP_NO_RANDOM:
			result->no_random = 1;
			/* fall through */
		case RL_STEP_LOST:
		default:
			dialect->attempt_free(&cmds);
			return 0;
		}
	}
}

/* --- release, extend, validity: the dialect's commands, the driver's arithmetic -------------- */

int rl_lock_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	return policy->dialect->release(io, policy, keys, token, token_len, outcomes);
}

int rl_lock_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes)
{
	return policy->dialect->force_release(io, policy, keys, outcomes);
}

/* Self-healing (docs/design/renewal.md#self-healing-renewal): called only once this extend's quorum
 * is known and its validity is positive. Where a member answered "not ours" (a restart without
 * persistence, an eviction, a DEL by hand), our key is written again as the acquisition writes
 * it in the policy's dialect: SET NX PX, the all-or-none multi-key script or MSETEX NX, never over
 * any key (another owner's, or ours). Sent without waiting: the validity this call reports counts
 * the yes votes only. A member known to have lost our key (a restart seen, "not ours" or down last
 * time: rl_request.heals) was awaited by the extend within its deadline, so its "not ours" is here;
 * one that nothing said had lost it and answered after the quorum is healed by a later extend. A
 * shared holder is not re-created (its one creating script rewrites our deadline: see the design
 * note); nor a token of another format (the commands are built for ours). Nothing is sent while
 * every member that answered said yes. */
static unsigned char *recreate_where_missing(const rl_lock_io *io, const rl_lock_policy *policy,
	const rl_lock_keys *keys, const char *token, size_t token_len, const char *ttl_text, size_t ttl_len,
	const rl_outcome *outcomes);
/* The heal goes only where our key may be missing: every member but those that said yes (which hold
 * it: a heal there would do nothing, unless it landed late, and its record would then cost that
 * member's vote for nothing). Returns the members it went to (the caller frees), NULL: none. */
static unsigned char *recreate_where_missing(const rl_lock_io *io, const rl_lock_policy *policy,
	const rl_lock_keys *keys, const char *token, size_t token_len, const char *ttl_text, size_t ttl_len,
	const rl_outcome *outcomes)
{
	rl_attempt_commands cmds;
	unsigned char *to;
	size_t i;
	int missing = 0;

	for (i = 0; i < policy->servers && !missing; i++) {
		missing = outcomes[i].kind == RL_OUTCOME_TAKEN;
	}
	if (!missing || policy->token_kind == RL_TOKEN_SHARED || token_len != RL_TOKEN_LEN) {
		return NULL;
	}
	if ((to = calloc(policy->servers, 1)) == NULL) {
		return NULL; /* out of memory: the next extend tries again */
	}
	if (policy->dialect->attempt_init(&cmds, policy, keys, token, ttl_text, ttl_len) != 0) {
		free(to);
		return NULL;
	}
	for (i = 0; i < policy->servers; i++) {
		to[i] = outcomes[i].kind != RL_OUTCOME_YES;
	}
	io->send_to(io->arg, &cmds.lock->command, to);
	policy->dialect->attempt_free(&cmds);
	return to;
}

/* A round trip starting now awaits every answer when this is 1 (rl_lock.h). */
int rl_heals_late(const rl_heal *heals, size_t servers, double now)
{
	size_t i;

	for (i = 0; heals != NULL && i < servers; i++) {
		if (heals[i].until > 0 && heals[i].until < now) {
			return 1;
		}
	}
	return 0;
}

/* A heal that lands late (docs/design/renewal.md#a-heal-that-lands-late): a member an earlier extend
 * healed may hold our key because that heal landed after the extend's promise, when a rival may have
 * held and released the lock. A yes that arrived by then (by now, at the latest) is counted: a heal
 * landing later only adds our key where we held a quorum; a later yes is not. The one rule for
 * extend's votes and validity()'s holders. */
static int yes_may_rest_on_late_heal(const rl_lock_policy *policy, size_t server, double now)
{
	return policy->heals != NULL && server < policy->servers && policy->heals[server].until > 0
		&& now > policy->heals[server].until;
}

static unsigned votes_without_late_heals(const rl_lock_policy *policy, double now, unsigned votes,
	const rl_outcome *outcomes)
{
	size_t i;

	for (i = 0; policy->heals != NULL && i < policy->servers; i++) {
		if (yes_may_rest_on_late_heal(policy, i, now) && outcomes[i].kind == RL_OUTCOME_YES && votes > 0) {
			votes--;
		}
	}
	return votes;
}

/* After the verdict. A member's answer on the stream its heal went on came after the heal landed: the
 * heal is forgotten when the answer came by its promise's end, or under a quorum won without it (the lock
 * held throughout, so no rival can have freed the member for it). An answer on another stream (a
 * reconnect, another connection) shows nothing. A heal sent now to a member (healed[i], where a stream
 * is open: queued there) is due by this promise; the earliest one not known to have landed is kept, and
 * with two streams to watch, no answer can show both landed. */
static void note_heals(const rl_lock_io *io, const rl_lock_policy *policy, double now, double validity,
	const unsigned char *healed, const rl_outcome *outcomes)
{
	size_t i;

	for (i = 0; policy->heals != NULL && i < policy->servers; i++) {
		rl_heal *heal = &policy->heals[i];
		unsigned long long stream = io->stream != NULL ? io->stream(io->arg, i) : 0;
		int answered = outcomes[i].kind == RL_OUTCOME_YES || outcomes[i].kind == RL_OUTCOME_TAKEN;

		if (heal->until > 0 && answered && stream != 0 && stream == heal->stream && (now <= heal->until || validity > 0)) {
			heal->until = 0;
		}
		if (healed == NULL || !healed[i] || stream == 0) {
			continue; /* no stream open to it: the heal was not sent there */
		}
		if (heal->until == 0) {
			heal->until = now + validity;
			heal->stream = stream;
		} else if (heal->stream != stream) {
			heal->stream = 0;
		}
	}
}

double rl_lock_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, rl_outcome *outcomes)
{
	char ttl_text[24];
	size_t ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	double start = io->now(io->arg), deadline = start + fmin((double) ttl, policy->call_bound_ms);
	rl_lock_policy asked = *policy;
	int votes;

	asked.await_every_reply |= rl_heals_late(policy->heals, policy->servers, start);
	/* the compare-the-token extension itself: the new validity when a quorum gave it in time */
	votes = policy->dialect->extend(io, &asked, keys, token, token_len, ttl_text, ttl_len, deadline, outcomes);

	if (votes < 0) {
		return -1;
	}
	return rl_lock_extend_settle(io, policy, keys, token, token_len, ttl, start, io->now(io->arg), (unsigned) votes,
		outcomes);
}

double rl_lock_extend_settle(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, int64_t ttl, double start, double now, unsigned votes,
	const rl_outcome *outcomes)
{
	char ttl_text[24];
	size_t ttl_len = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	double validity = rl_validity_ms(ttl, now - start, policy->drift_factor);
	unsigned char *healed = NULL; /* the members a heal went to */

	votes = votes_without_late_heals(policy, now, votes, outcomes);
	validity = votes >= policy->quorum && validity > 0 ? validity : 0;
	if (validity > 0) {
		healed = recreate_where_missing(io, policy, keys, token, token_len, ttl_text, ttl_len, outcomes);
	}
	note_heals(io, policy, now, validity, healed, outcomes);
	free(healed);
	return validity;
}

int rl_lock_extend_prepare(const rl_lock_policy *policy, const rl_lock_keys *keys, const char *token, size_t token_len,
	int64_t ttl, rl_extend_call *call)
{
	size_t ttl_len;
	int rc;

	if (policy->dialect->extend_prepare == NULL) {
		return 1; /* never one command in this dialect: extended alone */
	}
	ttl_len = rl_resp_decimal(call->ttl_text, (unsigned long long) ttl);
	rc = policy->dialect->extend_prepare(policy, keys, token, token_len, call->ttl_text, ttl_len, call);

	if (rc == 0) {
		call->request.heals = 1; /* the members known to have lost our key are awaited (rl_request.heals) */
		call->request.lost_on = policy->lost_on;
	}
	return rc;
}

/* A call's reply line must be shorter than what the reader keeps of one (RL_EXTEND_MANY_MAX). */
typedef char rl_extend_many_fits_a_line[RL_EXTEND_MANY_MAX < RL_READER_LINE_HEAD ? 1 : -1];

int rl_lock_extend_many_init(rl_extend_many_call *call, const rl_lock_policy *policy, size_t n,
	const rl_lock_keys *const *keys, const char *const *tokens, const size_t *token_lens, const int64_t *ttls,
	const unsigned char *lost_on)
{
	const rl_script *script = &policy->scripts->extend_many;
	size_t j, k, argc = 3, numkeys = 0;
	char *text;

	memset(call, 0, sizeof(*call));
	for (j = 0; j < n; j++) {
		numkeys += keys[j]->count;
	}
	argc += numkeys + 3 * n;
	call->argv = malloc(argc * sizeof(*call->argv));
	call->argvlen = malloc(argc * sizeof(*call->argvlen));
	call->texts = malloc((2 * n + 1) * 24);
	if (n == 0 || n > RL_EXTEND_MANY_MAX || call->argv == NULL || call->argvlen == NULL || call->texts == NULL) {
		rl_lock_extend_many_free(call);
		return -1;
	}
	text = call->texts;
	call->argv[0] = "EVAL", call->argvlen[0] = 4;
	call->argv[1] = script->source, call->argvlen[1] = script->length;
	call->argv[2] = text, call->argvlen[2] = rl_resp_decimal(text, (unsigned long long) numkeys);
	text += 24;
	argc = 3;
	for (j = 0; j < n; j++) {
		for (k = 0; k < keys[j]->count; k++, argc++) {
			call->argv[argc] = keys[j]->keys[k], call->argvlen[argc] = keys[j]->lens[k];
		}
	}
	for (j = 0; j < n; j++, argc += 3, text += 48) {
		call->argv[argc] = text, call->argvlen[argc] = rl_resp_decimal(text, (unsigned long long) keys[j]->count);
		call->argv[argc + 1] = tokens[j], call->argvlen[argc + 1] = token_lens[j];
		call->argv[argc + 2] = text + 24, call->argvlen[argc + 2] = rl_resp_decimal(text + 24, (unsigned long long) ttls[j]);
	}
	call->request.command = (rl_command) {(int) argc, call->argv, call->argvlen, NULL, 0, 0};
	call->request.expect = RL_EXPECT_POSITIVE_INT; /* each character read as RL_SCRIPT_EXTEND's reply */
	call->request.spread = (unsigned) n;
	call->request.heals = 1; /* the members known to have lost a key of one of them are awaited (rl_request.heals) */
	call->request.lost_on = lost_on;
	return 0;
}

void rl_lock_extend_many_free(rl_extend_many_call *call)
{
	RL_FREE_CLEAR(call->argv);
	RL_FREE_CLEAR(call->argvlen);
	RL_FREE_CLEAR(call->texts);
}

void rl_lock_extend_call_free(rl_extend_call *call)
{
	if (call->scripted) {
		rl_script_call_free(&call->script);
		call->scripted = 0;
	}
}

double rl_lock_validity(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, size_t servers, rl_outcome *outcomes)
{
	int64_t *remaining;
	int64_t quorum_pttl;
	double start, elapsed, validity;
	size_t i, holders = 0;
	rl_lock_policy asked = *policy; /* every answer awaited when one may not count */

	remaining = malloc((servers ? servers : 1) * sizeof(*remaining));
	if (remaining == NULL) {
		return -1;
	}
	start = io->now(io->arg);
	asked.await_every_reply |= rl_heals_late(policy->heals, policy->servers, start);
	if (policy->dialect->held(io, &asked, keys, token, token_len, start + policy->call_bound_ms, outcomes) < 0) {
		free(remaining);
		return -1;
	}
	elapsed = io->now(io->arg) - start;
	for (i = 0; i < servers; i++) {
		/* a key there only by a late heal is not counted, as extend() does not count it (policy->heals) */
		if (outcomes[i].kind == RL_OUTCOME_YES && !yes_may_rest_on_late_heal(policy, i, start + elapsed)) {
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
