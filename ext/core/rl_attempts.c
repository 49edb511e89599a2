/* rl_lock_acquire()'s loop for acquisitions whose attempt is more than one SET: a semaphore's
 * slot tally, fencing's write-back. The state machine (rl_acquire_next) is the lock's own, so the
 * same rules hold: a fresh token per attempt, a rollback carrying that token only, no pause after
 * the last attempt, validity reckoned from the attempt's start. See rl_lock.h. */
#include <string.h>

#include "core/rl_lock.h"

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
			continue;
		case RL_STEP_SEND_RELEASE:
			ops->rollback(ops->arg, io, acquire);
			continue;
		case RL_STEP_PAUSE:
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
