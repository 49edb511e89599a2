/* lockSemaphore(): $limit slots, each an ordinary Redlock key "<key>:slot:<i>". One script per
 * server takes the first free slot, in an order that the attempt's token picks (so that servers
 * in the same state give the same slot), and answers slot + 1. The attempt wins when one slot has
 * a quorum of votes within validity: that slot is then an exclusive Redlock lock, so at most
 * $limit holders exist at once with the lock's own fault tolerance. See rl_kinds.h. */
#include <stdio.h>
#include <string.h>

#include "core/rl_kinds.h"
#include "protocol/rl_resp.h"
#include "core/rl_scripts_kinds.h"

typedef struct semaphore_attempt {
	size_t servers;
	unsigned quorum;
	rl_script_call lock_call;    /* token, ttl, limit */
	rl_script_call release_call; /* token, limit, keep (and a fair waiter's id) */
	size_t keep_at;              /* keep's place in release_call's arguments */
	char keep_text[24];          /* "-1" for a rollback, the won slot for the trim */
	int64_t slot;                /* the slot with the most votes in the last attempt */
} semaphore_attempt;

/* The slot with the most yes votes (votes are slot + 1) and how many it has. O(servers^2): the
 * servers are few, the slots may be many. */
static unsigned best_slot(const rl_outcome *outcomes, size_t count, long long *slot)
{
	unsigned best = 0;
	size_t i, j;

	*slot = 0;
	for (i = 0; i < count; i++) {
		unsigned same = 0;

		if (outcomes[i].kind != RL_OUTCOME_YES) {
			continue;
		}
		for (j = 0; j < count; j++) {
			if (outcomes[j].kind == RL_OUTCOME_YES && outcomes[j].integer == outcomes[i].integer) {
				same++;
			}
		}
		if (same > best) {
			best = same;
			*slot = outcomes[i].integer;
		}
	}
	return best;
}

/* Waits while no slot has a quorum and the servers still out could give one. */
static int slots_undecided(const rl_outcome *outcomes, size_t count, unsigned quorum)
{
	long long slot;
	unsigned best = best_slot(outcomes, count, &slot);
	unsigned pending = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		pending += outcomes[i].kind == RL_OUTCOME_PENDING;
	}
	return best < quorum && best + pending >= quorum;
}

static unsigned semaphore_lock(void *arg, const rl_lock_io *io, const rl_acquire *acquire, rl_outcome *outcomes)
{
	semaphore_attempt *attempt = arg;
	long long slot;
	unsigned votes;

	io->run(io->arg, &attempt->lock_call.request, attempt->quorum, acquire->step_deadline, outcomes);
	votes = best_slot(outcomes, attempt->servers, &slot);
	attempt->slot = (int64_t) slot - 1;
	return votes;
}

static void send_release(semaphore_attempt *attempt, const rl_lock_io *io, int64_t keep)
{
	size_t len = (size_t) snprintf(attempt->keep_text, sizeof(attempt->keep_text), "%lld", (long long) keep);
	rl_script_call *call = &attempt->release_call;

	/* keep's length follows the text */
	call->argvlen[attempt->keep_at] = len;
	io->send(io->arg, &call->request.command);
}

static void semaphore_rollback(void *arg, const rl_lock_io *io, const rl_acquire *acquire)
{
	(void) acquire;
	send_release(arg, io, -1);
}

size_t rl_semaphore_slot_key(char *out, size_t size, const char *key, size_t key_len, int64_t slot)
{
	char digits[24];
	size_t digits_len = rl_resp_decimal(digits, (unsigned long long) slot); /* slot >= 0 */
	size_t suffix_len = sizeof(RL_SLOT_SUFFIX) - 1;
	size_t len = key_len + suffix_len + digits_len;

	/* memcpy, not %.*s: a resource may hold NUL bytes, as the script's KEYS[1] .. suffix does. */
	if (len < size) {
		memcpy(out, key, key_len);
		memcpy(out + key_len, RL_SLOT_SUFFIX, suffix_len);
		memcpy(out + key_len + suffix_len, digits, digits_len);
		out[len] = '\0';
	}
	return len;
}

size_t rl_semaphore_key_max(int64_t limit)
{
	/* every slot key at its longest: the name, the suffix, the last slot's digits */
	size_t around = rl_semaphore_slot_key(NULL, 0, "", 0, limit - 1);
	size_t each = RL_SLOT_KEYS_MAX_BYTES / (size_t) limit;

	return each > around ? each - around : 0;
}

int rl_semaphore_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const char *key, size_t key_len,
	int64_t limit, int64_t ttl, size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *slot,
	rl_fair_waiter *waiter)
{
	semaphore_attempt attempt;
	rl_acquire acquire;
	rl_attempt_ops ops = {&attempt, semaphore_lock, semaphore_rollback};
	const rl_lock_keys keys = {1, &key, &key_len, 1};
	char ttl_text[24], limit_text[24], ticket_text[24], heartbeat_text[24];
	/* a fair waiter's: its id ('' on its first attempt, not queued), ticket and heartbeat */
	const char *lock_args[] = {acquire.token, ttl_text, limit_text, waiter ? waiter->id : "", ticket_text, heartbeat_text};
	size_t lock_lens[] = {RL_TOKEN_LEN, 0, 0, 0, 0, 0};
	/* a fair waiter's id last: its own rollback and trim do not wake it (RL_SCRIPT_FAIR_SEMAPHORE_RELEASE) */
	const char *release_args[] = {acquire.token, limit_text, attempt.keep_text, waiter ? waiter->id : ""};
	size_t release_lens[] = {RL_TOKEN_LEN, 0, 2, 0};
	size_t i;
	int won;

	memset(result, 0, sizeof(*result));
	if (waiter != NULL && waiter->enqueue && waiter->ticket == 0) {
		int64_t ticket = rl_fair_ticket(io, policy, &policy->scripts->fair_semaphore_ticket, &keys, servers, outcomes);

		if (ticket <= 0) {
			return ticket < 0 ? -1 : 0; /* no quorum answered: tried again on the next attempt */
		}
		waiter->ticket = ticket;
	}
	if (waiter != NULL) {
		lock_lens[3] = release_lens[3] = waiter->enqueue ? RL_FAIR_ID_LEN : 0;
		lock_lens[4] = rl_resp_decimal(ticket_text, (unsigned long long) waiter->ticket);
		lock_lens[5] = rl_resp_decimal(heartbeat_text, (unsigned long long) RL_FAIR_HEARTBEAT_KEY_MS);
		waiter->queued |= waiter->enqueue;
	}
	lock_lens[1] = rl_resp_decimal(ttl_text, (unsigned long long) ttl);
	lock_lens[2] = release_lens[1] = rl_resp_decimal(limit_text, (unsigned long long) limit);
	memcpy(attempt.keep_text, "-1", 3);
	attempt.servers = servers;
	attempt.quorum = policy->quorum;
	attempt.slot = -1;
	rl_acquire_init(&acquire, policy, ttl);
	if (rl_script_call_init(&attempt.lock_call,
			waiter != NULL ? &policy->scripts->fair_semaphore_lock : &policy->scripts->semaphore_lock, &keys,
			waiter != NULL ? 6 : 3, lock_args, lock_lens, RL_EXPECT_POSITIVE_INT) != 0) {
		return -1;
	}
	attempt.lock_call.request.undecided = slots_undecided;
	if (rl_script_call_init(&attempt.release_call, &policy->scripts->semaphore_release, &keys, waiter != NULL ? 4 : 3,
			release_args, release_lens, RL_EXPECT_POSITIVE_INT) != 0) {
		rl_script_call_free(&attempt.lock_call);
		return -1;
	}
	attempt.keep_at = (size_t) attempt.release_call.request.command.argc - (waiter != NULL ? 2 : 1);
	won = rl_attempts_run(io, &acquire, &ops, outcomes, result);
	if (won) {
		*slot = attempt.slot;
		/* Servers that gave this attempt another slot, or did not answer in time, may hold one
		 * with our token: free it now rather than at its expiry. */
		for (i = 0; i < servers; i++) {
			if (outcomes[i].kind != RL_OUTCOME_YES || outcomes[i].integer != attempt.slot + 1) {
				send_release(&attempt, io, attempt.slot);
				break;
			}
		}
	}
	rl_script_call_free(&attempt.lock_call);
	rl_script_call_free(&attempt.release_call);
	return won;
}
