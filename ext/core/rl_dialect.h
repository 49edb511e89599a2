/* The command dialect: which commands a lock's operations take on the servers, Lua scripts or
 * the servers' own commands ('scripts' => false, or NOPERM learnt). Both dialects sit side by side
 * in one table (rl_dialect.c): per kind and operation, the dialect's own form, the scripts' form
 * still sent, or none (refused). A policy points at its dialect (rl_lock_policy.dialect), chosen
 * once per object and switched only by rl_dialect_learn(); the driver (rl_lock.c) asks the dialect
 * for commands and never tests which one it is. The scripted builders are in rl_dialect_scripts.c,
 * the native ones in rl_dialect_native.c. The argument:
 * docs/design/acquisition-path.md#one-table-of-dialects. */
#ifndef RL_DIALECT_H
#define RL_DIALECT_H

#include "core/rl_kinds.h"

typedef enum {
	RL_OP_ACQUIRE = 0, /* lock(), lockShared(), lockSemaphore() */
	RL_OP_CONVERT,     /* promote(), demote() */
	RL_OP_RELEASE,     /* unlock(), and an attempt's rollback */
	RL_OP_EXTEND,      /* extend(), the renewals, and their self-healing */
	RL_OP_VALIDITY,    /* validity() */
	RL_OP_FORCE,       /* forceUnlock() */
	RL_OP_COUNT
} rl_dialect_op;

#define RL_KIND_COUNT 4 /* the columns of the table: every rl_lock_kind */
/* a new lock kind needs its column in rl_dialect.c: the build fails here until RL_KIND_COUNT counts it */
typedef char rl_dialect_kind_columns[RL_KIND_SEMAPHORE + 1 == RL_KIND_COUNT ? 1 : -1];

typedef enum {
	RL_FORM_NONE = 0, /* no form: refused (nothing is sent) */
	RL_FORM_OWN,      /* this dialect's commands */
	RL_FORM_SCRIPTS   /* a held lock of a kind only scripts act on, where scripts were refused after it
	                   * was taken: its scripts are still sent, and the servers that allow them answer */
} rl_dialect_form;

/* One attempt's commands, built once per lock() call (they point at the token each attempt
 * overwrites in place): the lock request and the rollback, rollback_count commands sent without
 * waiting. A single key's rollback is built only when an attempt fails (rollback NULL until
 * attempt_rollback): the drop-in cycle never needs it. The storage is the dialects'. */
typedef struct rl_attempt_commands {
	const rl_request *lock;
	const rl_command *rollback;
	size_t rollback_count;
	const rl_lock_policy *policy;
	const rl_lock_keys *keys;
	const char *token;
	/* single key: SET NX PX, and its rollback (the unlock script, or DELEX then DELIFEQ: a
	 * fire-and-forget cannot ask which the server has; the one it lacks is an unknown command,
	 * answered and dropped) */
	const char *set_argv[6];
	size_t set_argvlen[6];
	rl_request set_request;
	const char *rollback_argv[7];
	size_t rollback_argvlen[7];
	rl_command single_rollback[2];
	/* several keys with scripts: the all-or-none script and its rollback */
	rl_script_call lock_call, unlock_call;
	/* several keys without: MSETEX n k1 token k2 token ... NX PX ttl, and per key the two rollbacks
	 * (heap arrays) */
	const char **msetex_argv;
	size_t *msetex_argvlen;
	char numkeys[24];
	rl_request msetex_request;
	rl_command *key_rollbacks;  /* 2 per key */
	const char **keys_argv;     /* 7 per key */
	size_t *keys_argvlen;
} rl_attempt_commands;

/* The types of a dialect's builders, written once: the struct below points at them, and each
 * dialect's file (rl_dialect_scripts.c, rl_dialect_native.c) defines one of each. */
typedef int rl_attempt_init_fn(rl_attempt_commands *cmds, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, const char *ttl_text, size_t ttl_len);
typedef void rl_attempt_rollback_fn(rl_attempt_commands *cmds);
typedef void rl_attempt_free_fn(rl_attempt_commands *cmds);
typedef int rl_release_fn(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes);
typedef int rl_extend_fn(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, const char *ttl_text, size_t ttl_len, double deadline, rl_outcome *outcomes);
typedef int rl_held_fn(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, double deadline, rl_outcome *outcomes);
typedef int rl_force_release_fn(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes);
typedef int rl_extend_prepare_fn(const rl_lock_policy *policy, const rl_lock_keys *keys, const char *token,
	size_t token_len, const char *ttl_text, size_t ttl_len, rl_extend_call *call);

struct rl_dialect {
	/* forms[op][kind]: what this dialect does for a kind's operation */
	unsigned char forms[RL_OP_COUNT][RL_KIND_COUNT];
	/* release needs to know which of DELEX and DELIFEQ each server has (the client's probe) */
	int probes_release;
	/* extend sets the ttl outright, shorter or longer (SET IFEQ PX): every command for a lock must
	 * then carry the ttl its token carries (client/rl_client_held.c) */
	int extend_sets_ttl;

	/* The builders (their types above). Each returns what the driver's arithmetic needs: the votes, or
	 * fills outcomes (held: a yes vote with the least ms left in outcomes[i].integer); -1 when out of memory. */
	rl_attempt_init_fn *attempt_init;
	rl_attempt_rollback_fn *attempt_rollback; /* fills rollback when it is NULL */
	rl_attempt_free_fn *attempt_free;
	/* release and force_release wait until now + policy->call_bound_ms; the others until deadline */
	rl_release_fn *release;
	rl_extend_fn *extend;
	rl_held_fn *held;
	rl_force_release_fn *force_release;
	/* extend as one command into call, for a batch (rl_lock_extend_prepare): 0, 1 when it is more than
	 * one command, -1 when out of memory; NULL where an extend is never one command (the native
	 * commands read the keys first, so that an extend never shortens one: renewed alone) */
	rl_extend_prepare_fn *extend_prepare;
};

extern const rl_dialect rl_dialect_scripted;
extern const rl_dialect rl_dialect_native;
extern const rl_dialect rl_dialect_learnt;

/* The dialect a config starts with: 'scripts' => false is the native one. */
const rl_dialect *rl_dialect_initial(int no_scripts);

/* The dialect that acts on kind's op under d: d itself, the scripted one (RL_FORM_SCRIPTS), or NULL
 * when the operation has no form there (a kind only scripts can take: refused). */
static inline const rl_dialect *rl_dialect_for(const rl_dialect *d, rl_lock_kind kind, rl_dialect_op op)
{
	switch (d->forms[op][kind]) {
	case RL_FORM_OWN: return d;
	case RL_FORM_SCRIPTS: return &rl_dialect_scripted;
	default: return NULL;
	}
}

/* The one switch: after a round trip whose votes are outcomes (count of them), when the servers that
 * answered NOPERM to a script leave too few for a quorum without them (rl_outcomes_scripts_refused:
 * docs/guide/script-free.md), policy goes on with the learnt dialect, from now. 1 when it moved just
 * now and the learnt dialect has a form of its own for kind's op (the call is then worth making again
 * in it), else 0. The client and the renewal thread (on its own copy of the policy) both learn here. */
int rl_dialect_learn(rl_lock_policy *policy, rl_lock_kind kind, rl_dialect_op op, const rl_outcome *outcomes,
	size_t count, double now);

/* A learnt dialect is what the servers said then (an ACL being changed, a server restarting with
 * another user): RL_DIALECT_RETRY_MS after it was learnt, the next call sends scripts again and
 * learns anew from their answers (a quorum refusing them costs that call one round trip more). Each
 * call of the client, and each renewal round, begins here. A configured dialect never moves. */
#define RL_DIALECT_RETRY_MS 1000.0
void rl_dialect_refresh(rl_lock_policy *policy, double now);

/* --- the builders (rl_dialect_scripts.c, rl_dialect_native.c) ------------------------------- */

rl_attempt_init_fn rl_scripted_attempt_init;
rl_attempt_rollback_fn rl_scripted_attempt_rollback;
rl_attempt_free_fn rl_scripted_attempt_free;
rl_release_fn rl_scripted_release;
rl_extend_fn rl_scripted_extend;
rl_held_fn rl_scripted_held;
rl_extend_prepare_fn rl_scripted_extend_prepare;
rl_force_release_fn rl_scripted_force_release;

/* SET key token NX PX ttl into cmds->set_request: both dialects' single-key acquisition, its
 * rollback left to attempt_rollback. Inline: the drop-in lock()'s one command. */
static inline void rl_attempt_set_nx(rl_attempt_commands *cmds, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, const char *ttl_text, size_t ttl_len)
{
	const char **argv = cmds->set_argv;
	size_t *argvlen = cmds->set_argvlen;

	argv[0] = "SET", argvlen[0] = 3, argv[1] = keys->keys[0], argvlen[1] = keys->lens[0];
	argv[2] = token, argvlen[2] = RL_TOKEN_LEN, argv[3] = "NX", argvlen[3] = 2;
	argv[4] = "PX", argvlen[4] = 2, argv[5] = ttl_text, argvlen[5] = ttl_len;
	cmds->set_request.command = (rl_command) {6, argv, argvlen, "$3\r\nSET\r\n", 9, 1};
	cmds->set_request.expect = RL_EXPECT_OK;
	cmds->set_request.undecided = NULL;
	cmds->set_request.native[0].argc = cmds->set_request.native[1].argc = 0;
	cmds->set_request.lua_forbidden = 0;
	cmds->set_request.batch_len = 0;
	cmds->set_request.heals = 0;
	cmds->set_request.lost_on = NULL;
	cmds->lock = &cmds->set_request;
	cmds->rollback = NULL;
	cmds->rollback_count = 0;
	cmds->policy = policy;
	cmds->keys = keys;
	cmds->token = token;
}

rl_attempt_init_fn rl_native_attempt_init;
rl_attempt_rollback_fn rl_native_attempt_rollback;
rl_attempt_free_fn rl_native_attempt_free;
rl_release_fn rl_native_release;
rl_extend_fn rl_native_extend;
rl_held_fn rl_native_held;
rl_force_release_fn rl_native_force_release;

#endif
