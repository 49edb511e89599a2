/* lockSemaphore(), lockShared() and fencing over N independent masters, in plain C over an
 * rl_lock_io like the lock itself (rl_lock.h), so that a simulation can drive them. The arguments
 * for their safety are in docs/primitives.md. */
#ifndef RL_PRIMITIVES_H
#define RL_PRIMITIVES_H

#include <stddef.h>
#include <stdint.h>

#include "core/rl_lock.h"

/* The first character of the tokens of each kind: an exclusive token is 32 hex characters, a
 * shared or semaphore one has this in place of its first, so that an array whose flags were
 * changed is recognised. */
#define RL_MARK_SHARED 's'
#define RL_MARK_SEMAPHORE 'm'

/* The largest $limit: the scripts walk the slots, at most this many per server and call. */
#define RL_SEMAPHORE_MAX_LIMIT 1024

/* --- semaphore (rl_semaphore.c) ----------------------------------------------------------- */

/* One lockSemaphore() call on the resource key: 1 when a slot was won (result and *slot filled),
 * 0 when not, -1 when out of memory. servers: the length of outcomes. policy->token_mark must
 * be RL_MARK_SEMAPHORE. */
int rl_semaphore_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const char *key, size_t key_len,
	int64_t limit, int64_t ttl, size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *slot);

/* The key of a slot: key + RL_SLOT_SUFFIX + slot, into out (NUL-terminated); its length. */
size_t rl_semaphore_slot_key(char *out, size_t size, const char *key, size_t key_len, int64_t slot);

/* --- shared (rl_shared.c) ----------------------------------------------------------------- */

/* The policy of shared holders: base with the shared scripts in place of the exclusive ones and
 * RL_MARK_SHARED tokens. rl_lock_acquire() (keys with multi set), rl_lock_release(),
 * rl_lock_extend() and rl_lock_validity() under it act on our holder in the key's hash only.
 * scripts is where the substituted set lives: keep it with the policy. */
void rl_shared_policy(const rl_lock_policy *base, rl_script_set *scripts, rl_lock_policy *policy);

/* --- fencing (rl_fence.c) ----------------------------------------------------------------- */

/* lock() with fencing: SET NX PX and INCR of each key's counter, then the largest counter written
 * back where our keys still hold our token; won only when that write-back has a quorum in time.
 * 1 with result and *fence filled, 0 when not, -1 when out of memory. */
int rl_fence_acquire(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t ttl,
	size_t servers, rl_outcome *outcomes, rl_lock_result *result, int64_t *fence);

#endif
