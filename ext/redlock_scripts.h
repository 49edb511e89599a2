/* The Lua scripts of rl_scripts.h with their SHA1s (for EVALSHA), and the SCRIPT LOAD greeting
 * sent on every new connection. */
#ifndef REDLOCK_SCRIPTS_H
#define REDLOCK_SCRIPTS_H

#include <stddef.h>
#include "net/rl_fanout.h"
#include "core/rl_lock.h"

/* Computes the SHA1s; called once from MINIT. */
void redlock_scripts_init(void);

/* The scripts with their SHA1s, for the driver (rl_lock.c). */
const rl_script_set *redlock_scripts(void);

/* SCRIPT LOAD of every script: loaded on each new connection so that an EVALSHA whose reply we
 * stop waiting for still runs. */
const rl_command *redlock_scripts_greeting(size_t *count);

#endif
