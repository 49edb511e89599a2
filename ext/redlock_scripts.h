/* The Lua scripts of rl_scripts.h with their SHA1s (for EVALSHA), and the SCRIPT LOAD greeting
 * sent on every new connection. */
#ifndef REDLOCK_SCRIPTS_H
#define REDLOCK_SCRIPTS_H

#include <stddef.h>
#include "rl_fanout.h"

typedef struct {
	const char *source;
	size_t length;
	char sha[41]; /* lowercase hex, filled by redlock_scripts_init() */
} redlock_script;

extern redlock_script redlock_script_lock_multi;
extern redlock_script redlock_script_unlock_multi;
extern redlock_script redlock_script_extend;
extern redlock_script redlock_script_validity;

/* Computes the SHA1s; called once from MINIT. */
void redlock_scripts_init(void);

/* SCRIPT LOAD of every script: loaded on each new connection so that an EVALSHA whose reply we
 * stop waiting for still runs. */
const rl_command *redlock_scripts_greeting(size_t *count);

#endif
