/* Fair waiting ('fair' => true): a queue of waiters per resource on every server, ordered by
 * tickets from a per-resource counter, admitted at its head only, woken one at a time by the
 * release. The lock itself stays the plain one (SET PX on a quorum, validity from our own clock,
 * a fresh token per attempt); the queue only decides who may try. Why this order is one order on
 * a majority, and what it costs: docs/design/fair.md. */
#include <string.h>

#include "core/rl_kinds.h"
#include "core/rl_scripts_kinds.h"
#include "protocol/rl_resp.h"

int rl_fair_waiter_init(rl_fair_waiter *waiter, int (*random)(void *arg, void *into, size_t len), void *random_arg)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char bytes[RL_FAIR_ID_LEN / 2];
	size_t i;

	memset(waiter, 0, sizeof(*waiter));
	if (random(random_arg, bytes, sizeof(bytes)) != 0) {
		return -1;
	}
	for (i = 0; i < sizeof(bytes); i++) {
		waiter->id[2 * i] = hex[bytes[i] >> 4];
		waiter->id[2 * i + 1] = hex[bytes[i] & 15];
	}
	waiter->id[RL_FAIR_ID_LEN] = '\0';
	return 0;
}

/* the heartbeat carries the limit as the scripts read it */
typedef char rl_fair_limit_text[sizeof(RL_SEMAPHORE_MAX_LIMIT_TEXT) == 5 && RL_SEMAPHORE_MAX_LIMIT == 1024 ? 1 : -1];
typedef char rl_fair_channel_room[sizeof(RL_FAIR_SEM_WAITER_SUFFIX) + RL_FAIR_ID_LEN <= RL_FAIR_CHANNEL_EXTRA ? 1 : -1];

size_t rl_fair_channel_key(char *out, const char *key, size_t key_len, const rl_fair_waiter *waiter)
{
	const char *text = waiter->limit > 0 ? RL_FAIR_SEM_WAITER_SUFFIX : RL_FAIR_WAITER_SUFFIX;
	size_t suffix = strlen(text);

	memcpy(out, key, key_len);
	memcpy(out + key_len, text, suffix);
	memcpy(out + key_len + suffix, waiter->id, RL_FAIR_ID_LEN);
	out[key_len + suffix + RL_FAIR_ID_LEN] = '\0';
	return key_len + suffix + RL_FAIR_ID_LEN;
}

/* The largest counter over a quorum of answers, 0 without one. Any quorum's largest is above the
 * ticket of every waiter whose first queued attempt (the write-back) was answered by a quorum
 * before ours began: the two quorums share a server, whose counter that write-back raised. */
int64_t rl_fair_ticket(const rl_lock_io *io, const rl_lock_policy *policy, const rl_script *script,
	const rl_lock_keys *keys, size_t servers, rl_outcome *outcomes)
{
	rl_script_call call;
	int64_t ticket = 0;
	unsigned votes;
	size_t i;

	if (rl_script_call_init(&call, script, keys, 0, NULL, NULL, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	votes = io->run(io->arg, &call.request, policy->quorum, io->now(io->arg) + policy->call_bound_ms, outcomes);
	rl_script_call_free(&call);
	if (votes < policy->quorum) {
		return 0;
	}
	for (i = 0; i < servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_YES && outcomes[i].integer > ticket) {
			ticket = outcomes[i].integer;
		}
	}
	return ticket;
}

int rl_fair_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	rl_fair_waiter *waiter, size_t servers, rl_outcome *outcomes, rl_lock_result *result)
{
	rl_acquire acquire;
	char ttl_text[24], ticket_text[24], heartbeat_text[24];
	const char *args[] = {acquire.token, ttl_text, waiter->id, ticket_text, heartbeat_text};
	size_t lens[] = {RL_TOKEN_LEN, 0, 0, 0, 0};
	/* the rollback (RL_SCRIPT_FAIR_UNLOCK) names the waiter: it wakes the head unless that is us */
	const char *rollback_args[] = {acquire.token, waiter->id};
	size_t rollback_lens[] = {RL_TOKEN_LEN, 0};
	/* RL_SCRIPT_FAIR_LOCK sets the key only where it answers 1: a refused attempt needs no rollback */
	rl_scripted_attempt spec = {&policy->scripts->fair_lock, &policy->scripts->unlock, NULL, args, lens, 5, 2, 1,
		rollback_args, rollback_lens};

	memset(result, 0, sizeof(*result));
	if (waiter->enqueue && waiter->ticket == 0) {
		int64_t ticket = rl_fair_ticket(io, policy, &policy->scripts->fair_ticket, keys, servers, outcomes);
		if (ticket <= 0) {
			return ticket < 0 ? -1 : 0; /* no quorum answered: tried again on the next attempt */
		}
		waiter->ticket = ticket;
	}
	lens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	lens[2] = rollback_lens[1] = waiter->enqueue ? RL_FAIR_ID_LEN : 0;
	lens[3] = rl_resp_decimal(ticket_text, (unsigned long long) waiter->ticket);
	lens[4] = rl_resp_decimal(heartbeat_text, (unsigned long long) RL_FAIR_HEARTBEAT_KEY_MS);
	if (waiter->enqueue) {
		waiter->queued = 1;
	}
	rl_acquire_init(&acquire, policy, ttl);
	return rl_scripted_attempts_run(io, &acquire, &spec, keys, servers, outcomes, result, NULL);
}

void rl_fair_leave(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_fair_waiter *waiter)
{
	rl_script_call call;
	char limit_text[24];
	const char *args[] = {waiter->id, limit_text};
	size_t lens[] = {RL_FAIR_ID_LEN, 0};
	int semaphore = waiter->limit > 0;

	lens[1] = rl_resp_decimal(limit_text, (unsigned long long) (semaphore ? waiter->limit : 0));
	if (!waiter->queued
		|| rl_script_call_init(&call, semaphore ? &policy->scripts->fair_semaphore_leave : &policy->scripts->fair_leave,
			keys, semaphore ? 2 : 1, args, lens, RL_EXPECT_POSITIVE_INT) != 0) {
		return;
	}
	io->send(io->arg, &call.request.command);
	rl_script_call_free(&call);
	waiter->queued = 0;
}
