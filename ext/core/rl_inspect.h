/* inspect() and isLocked(): a quorum read of a resource with no acquisition, no script and one
 * round trip per key, on any kind of lock. Advisory: the answer can change the moment after. The
 * argument (why plain reads in a MULTI, what each field means): docs/design/primitives.md#inspect. */
#ifndef RL_INSPECT_H
#define RL_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_kinds.h"

typedef enum {
	RL_INSPECT_FREE = 0,
	RL_INSPECT_EXCLUSIVE, /* lock(), fenced or not */
	RL_INSPECT_SHARED,    /* lockShared() readers */
	RL_INSPECT_SEMAPHORE  /* lockSemaphore() slots (only looked for with a limit) */
} rl_inspect_kind;

typedef struct rl_inspection {
	int held;              /* a quorum of servers keep a holder's token (the key's, a reader's, a slot's) */
	rl_inspect_kind kind;  /* of the deciding quorum; FREE when not held */
	int64_t holders;       /* tokens a quorum keeps: exclusive 1; shared: readers; semaphore: slot holders; free: 0 */
	double ttl_ms;         /* held: ms the deciding quorum still holds it, drift and the read's time
	                        * taken off (as validity()); < 0 when unknown (semaphore); 0 when free */
	int64_t fence;         /* the largest fence counter answered, -1 when there is none */
	unsigned answered;     /* servers that answered */
	unsigned holding;      /* of them, the ones that hold it */
	int64_t waiters;       /* fair waiting's queue ('fair'; with a limit the semaphore's): its length on a quorum of the answers
	                        * (several keys: the longest); a dead waiter counts until removed */
} rl_inspection;

/* Reads keys (each one round trip: MULTI; TYPE; PTTL; HKEYS; GET <key>:fence; GET; ZCARD <key>:fair; [MGET its limit
 * slot keys]; EXEC) and decides: 1 with *out filled, 0 when fewer than a quorum answered (or a
 * server decided nothing either way), -1 when out of memory. Several keys: held when any is
 * (another lock may take one of them), the least ttl of those held, the largest fence.
 * servers: the length of outcomes. limit > 0: the semaphore's slots are read too. */
int rl_inspect(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t limit,
	size_t servers, rl_outcome *outcomes, rl_inspection *out);

#endif
