/* Script SHA1s and the connect greeting. See redlock_scripts.h. */
#include "php.h"
#include "ext/standard/sha1.h"

#include "redlock_scripts.h"
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"

static char sha_unlock[41], sha_lock_multi[41], sha_unlock_multi[41], sha_extend[41], sha_validity[41];

#define SCRIPT(source, sha) {source, sizeof(source) - 1, sha}

static const rl_script_set scripts = {
	SCRIPT(RL_SCRIPT_UNLOCK, sha_unlock),
	SCRIPT(RL_SCRIPT_LOCK_MULTI, sha_lock_multi),
	SCRIPT(RL_SCRIPT_UNLOCK_MULTI, sha_unlock_multi),
	SCRIPT(RL_SCRIPT_EXTEND, sha_extend),
	SCRIPT(RL_SCRIPT_VALIDITY, sha_validity),
	/* The primitives' scripts go as EVAL, always (sha NULL): not in the greeting, so that a lock()
	 * user's new connection loads only the lock's 5; and never EVALSHA, whose NOSCRIPT from a server
	 * the call no longer waits for would be dropped, and the release or rollback never run there. */
	SCRIPT(RL_SCRIPT_SHARED_LOCK, NULL),
	SCRIPT(RL_SCRIPT_SHARED_UNLOCK, NULL),
	SCRIPT(RL_SCRIPT_SHARED_EXTEND, NULL),
	SCRIPT(RL_SCRIPT_SHARED_VALIDITY, NULL),
	SCRIPT(RL_SCRIPT_SEMAPHORE_LOCK, NULL),
	SCRIPT(RL_SCRIPT_SEMAPHORE_RELEASE, NULL),
	SCRIPT(RL_SCRIPT_LOCK_FENCED, NULL),
	SCRIPT(RL_SCRIPT_FENCE_WRITEBACK, NULL),
};

#define GREETING_LOAD(name, source) \
	static const char *name##_argv[] = {"SCRIPT", "LOAD", source}; \
	static const size_t name##_argvlen[] = {6, 4, sizeof(source) - 1};

GREETING_LOAD(unlock, RL_SCRIPT_UNLOCK)
GREETING_LOAD(lock_multi, RL_SCRIPT_LOCK_MULTI)
GREETING_LOAD(unlock_multi, RL_SCRIPT_UNLOCK_MULTI)
GREETING_LOAD(extend, RL_SCRIPT_EXTEND)
GREETING_LOAD(validity, RL_SCRIPT_VALIDITY)

/* Only the lock's own scripts: a new connection of a lock() user pays for nothing else (the
 * primitives' scripts are sent as EVAL, see above). */
static const rl_command greeting[] = {
	{3, unlock_argv, unlock_argvlen},
	{3, lock_multi_argv, lock_multi_argvlen},
	{3, unlock_multi_argv, unlock_multi_argvlen},
	{3, extend_argv, extend_argvlen},
	{3, validity_argv, validity_argvlen},
};

static void compute_sha(const char *source, size_t length, char *sha)
{
	PHP_SHA1_CTX context;
	unsigned char digest[20];

	PHP_SHA1Init(&context);
	PHP_SHA1Update(&context, (const unsigned char *) source, length);
	PHP_SHA1Final(digest, &context);
	make_sha1_digest(sha, digest);
}

void redlock_scripts_init(void)
{
	compute_sha(RL_SCRIPT_UNLOCK, sizeof(RL_SCRIPT_UNLOCK) - 1, sha_unlock);
	compute_sha(RL_SCRIPT_LOCK_MULTI, sizeof(RL_SCRIPT_LOCK_MULTI) - 1, sha_lock_multi);
	compute_sha(RL_SCRIPT_UNLOCK_MULTI, sizeof(RL_SCRIPT_UNLOCK_MULTI) - 1, sha_unlock_multi);
	compute_sha(RL_SCRIPT_EXTEND, sizeof(RL_SCRIPT_EXTEND) - 1, sha_extend);
	compute_sha(RL_SCRIPT_VALIDITY, sizeof(RL_SCRIPT_VALIDITY) - 1, sha_validity);
}

const rl_script_set *redlock_scripts(void)
{
	return &scripts;
}

const rl_command *redlock_scripts_greeting(size_t *count)
{
	*count = sizeof(greeting) / sizeof(greeting[0]);
	return greeting;
}
