/* Script SHA1s and the connect greeting. See redlock_scripts.h. */
#include "php.h"
#include "ext/standard/sha1.h"

#include "redlock_scripts.h"
#include "rl_scripts.h"

#define SCRIPT(source) {source, sizeof(source) - 1, {0}}

redlock_script redlock_script_lock_multi = SCRIPT(RL_SCRIPT_LOCK_MULTI);
redlock_script redlock_script_unlock_multi = SCRIPT(RL_SCRIPT_UNLOCK_MULTI);
redlock_script redlock_script_extend = SCRIPT(RL_SCRIPT_EXTEND);
redlock_script redlock_script_validity = SCRIPT(RL_SCRIPT_VALIDITY);

#define GREETING_LOAD(name, source) \
	static const char *name##_argv[] = {"SCRIPT", "LOAD", source}; \
	static const size_t name##_argvlen[] = {6, 4, sizeof(source) - 1};

GREETING_LOAD(unlock, RL_SCRIPT_UNLOCK)
GREETING_LOAD(lock_multi, RL_SCRIPT_LOCK_MULTI)
GREETING_LOAD(unlock_multi, RL_SCRIPT_UNLOCK_MULTI)
GREETING_LOAD(extend, RL_SCRIPT_EXTEND)
GREETING_LOAD(validity, RL_SCRIPT_VALIDITY)

static const rl_command greeting[] = {
	{3, unlock_argv, unlock_argvlen},
	{3, lock_multi_argv, lock_multi_argvlen},
	{3, unlock_multi_argv, unlock_multi_argvlen},
	{3, extend_argv, extend_argvlen},
	{3, validity_argv, validity_argvlen},
};

static void compute_sha(redlock_script *script)
{
	PHP_SHA1_CTX context;
	unsigned char digest[20];

	PHP_SHA1Init(&context);
	PHP_SHA1Update(&context, (const unsigned char *) script->source, script->length);
	PHP_SHA1Final(digest, &context);
	make_sha1_digest(script->sha, digest);
}

void redlock_scripts_init(void)
{
	compute_sha(&redlock_script_lock_multi);
	compute_sha(&redlock_script_unlock_multi);
	compute_sha(&redlock_script_extend);
	compute_sha(&redlock_script_validity);
}

const rl_command *redlock_scripts_greeting(size_t *count)
{
	*count = sizeof(greeting) / sizeof(greeting[0]);
	return greeting;
}
