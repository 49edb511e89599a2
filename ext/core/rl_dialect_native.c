/* The native dialect: the servers' own commands, no script ('scripts' => false, or NOPERM learnt;
 * docs/design/acquisition-path.md#locks-without-scripts). See rl_dialect.h. */
#include <stdlib.h>
#include <string.h>

#include "core/rl_dialect.h"
#include "protocol/rl_resp.h"

/* Without scripts, several keys take one command each (nothing compares-and-deletes or
 * compares-and-extends them together). Each key's command goes to every server, and waits for
 * every reply (a vote left out by an early quorum would be missing from the merge); a server's
 * vote is yes when every key's was (need_all), or any key's. The votes; -1 when out of memory. */
typedef void (*key_request_fn)(rl_request *request, size_t key, void *arg);

static int per_key_run(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	key_request_fn request_of, void *arg, int need_all, double deadline, rl_outcome *outcomes)
{
	size_t n = policy->servers, k, i;
	unsigned *yes = calloc(n ? n : 1, sizeof(*yes));
	rl_outcome *refusal = calloc(n ? n : 1, sizeof(*refusal)); /* the first no of each server */
	long long *least = calloc(n ? n : 1, sizeof(*least)); /* the least integer of its yes votes */
	int votes = 0;

	if (yes == NULL || refusal == NULL || least == NULL) {
		free(yes);
		free(refusal);
		free(least);
		return -1;
	}
	for (k = 0; k < keys->count; k++) {
		rl_request request;

		memset(&request, 0, sizeof(request));
		request_of(&request, k, arg);
		request.undecided = rl_request_every_reply;
		io->run(io->arg, &request, policy->quorum, deadline, outcomes);
		for (i = 0; i < n; i++) {
			if (outcomes[i].kind == RL_OUTCOME_YES) {
				least[i] = yes[i]++ == 0 || outcomes[i].integer < least[i] ? outcomes[i].integer : least[i];
			} else if (refusal[i].kind == RL_OUTCOME_PENDING) {
				refusal[i] = outcomes[i];
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (need_all ? yes[i] == keys->count : yes[i] > 0) {
			outcomes[i].kind = RL_OUTCOME_YES;
			outcomes[i].integer = least[i];
			outcomes[i].message[0] = '\0';
			votes++;
		} else {
			outcomes[i] = refusal[i];
		}
	}
	free(yes);
	free(refusal);
	free(least);
	return votes;
}

typedef struct key_args {
	const rl_lock_keys *keys;
	const char *token;
	size_t token_len;
	const char *ttl_text;
	size_t ttl_len;
	const char *argv[7];
	size_t argvlen[7];
} key_args;

/* DELEX key IFEQ token, or DELIFEQ key token: whichever the server has, never a script. */
static void release_request(rl_request *request, size_t key, void *arg)
{
	key_args *a = arg;

	a->argv[0] = "DELEX", a->argvlen[0] = 5, a->argv[1] = a->keys->keys[key], a->argvlen[1] = a->keys->lens[key];
	a->argv[2] = "IFEQ", a->argvlen[2] = 4, a->argv[3] = a->token, a->argvlen[3] = a->token_len;
	a->argv[4] = "DELIFEQ", a->argvlen[4] = 7, a->argv[5] = a->keys->keys[key], a->argvlen[5] = a->keys->lens[key];
	a->argv[6] = a->token, a->argvlen[6] = a->token_len;
	request->command = (rl_command) {4, a->argv, a->argvlen}; /* never sent: lua_forbidden */
	request->expect = RL_EXPECT_POSITIVE_INT;
	request->native[0] = (rl_command) {4, a->argv, a->argvlen};
	request->native[1] = (rl_command) {3, a->argv + 4, a->argvlen + 4};
	request->lua_forbidden = 1;
}

/* SET key token IFEQ token PX ttl. */
static void extend_request(rl_request *request, size_t key, void *arg)
{
	key_args *a = arg;

	a->argv[0] = "SET", a->argvlen[0] = 3, a->argv[1] = a->keys->keys[key], a->argvlen[1] = a->keys->lens[key];
	a->argv[2] = a->token, a->argvlen[2] = a->token_len, a->argv[3] = "IFEQ", a->argvlen[3] = 4;
	a->argv[4] = a->token, a->argvlen[4] = a->token_len, a->argv[5] = "PX", a->argvlen[5] = 2;
	a->argv[6] = a->ttl_text, a->argvlen[6] = a->ttl_len;
	request->command = (rl_command) {7, a->argv, a->argvlen};
	request->expect = RL_EXPECT_OK;
}

/* validity() without scripts: MULTI; GET key; PTTL key; EXEC reads the key's token and its ms
 * left at one instant (@transaction and @read, not @scripting), judged by rl_reply_classify_held
 * (docs/design/acquisition-path.md#validity-without-scripts). */
typedef struct held_batch {
	const rl_lock_keys *keys;
	const char *token;
	size_t token_len;
	const char *argv[6];
	size_t argvlen[6];
	rl_command batch[4];
} held_batch;

static void held_request(rl_request *request, size_t key, void *arg)
{
	held_batch *h = arg;

	h->argv[0] = "MULTI", h->argvlen[0] = 5;
	h->argv[1] = "GET", h->argvlen[1] = 3, h->argv[2] = h->keys->keys[key], h->argvlen[2] = h->keys->lens[key];
	h->argv[3] = "PTTL", h->argvlen[3] = 4, h->argv[4] = h->keys->keys[key], h->argvlen[4] = h->keys->lens[key];
	h->argv[5] = "EXEC", h->argvlen[5] = 4;
	h->batch[0] = (rl_command) {1, h->argv, h->argvlen};
	h->batch[1] = (rl_command) {2, h->argv + 1, h->argvlen + 1};
	h->batch[2] = (rl_command) {2, h->argv + 3, h->argvlen + 3};
	h->batch[3] = (rl_command) {1, h->argv + 5, h->argvlen + 5};
	request->command = h->batch[3]; /* never sent alone: the batch is */
	request->expect = RL_EXPECT_HELD;
	request->batch = h->batch;
	request->batch_len = 4;
	request->held_token = h->token;
	request->held_token_len = h->token_len;
}

/* --- the acquisition --------------------------------------------------------------------- */

int rl_native_attempt_init(rl_attempt_commands *cmds, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, const char *ttl_text, size_t ttl_len)
{
	size_t n = keys->count, i, argc = 2 + 2 * n + 3;

	cmds->msetex_argv = NULL;
	cmds->msetex_argvlen = NULL;
	cmds->key_rollbacks = NULL;
	cmds->keys_argv = NULL;
	cmds->keys_argvlen = NULL;
	if (!keys->multi) {
		rl_attempt_set_nx(cmds, policy, keys, token, ttl_text, ttl_len);
		return 0;
	}
	cmds->msetex_argv = malloc(argc * sizeof(*cmds->msetex_argv));
	cmds->msetex_argvlen = malloc(argc * sizeof(*cmds->msetex_argvlen));
	cmds->key_rollbacks = malloc(2 * n * sizeof(*cmds->key_rollbacks));
	cmds->keys_argv = malloc(7 * n * sizeof(*cmds->keys_argv));
	cmds->keys_argvlen = malloc(7 * n * sizeof(*cmds->keys_argvlen));
	if (!cmds->msetex_argv || !cmds->msetex_argvlen || !cmds->key_rollbacks || !cmds->keys_argv
		|| !cmds->keys_argvlen) {
		rl_native_attempt_free(cmds);
		return -1;
	}
	cmds->msetex_argv[0] = "MSETEX";
	cmds->msetex_argvlen[0] = 6;
	cmds->msetex_argv[1] = cmds->numkeys;
	cmds->msetex_argvlen[1] = rl_resp_decimal(cmds->numkeys, (unsigned long long) n);
	for (i = 0; i < n; i++) {
		const char **r = cmds->keys_argv + 7 * i;
		size_t *rl = cmds->keys_argvlen + 7 * i;

		cmds->msetex_argv[2 + 2 * i] = keys->keys[i];
		cmds->msetex_argvlen[2 + 2 * i] = keys->lens[i];
		cmds->msetex_argv[3 + 2 * i] = token;
		cmds->msetex_argvlen[3 + 2 * i] = RL_TOKEN_LEN;
		r[0] = "DELEX", rl[0] = 5, r[1] = keys->keys[i], rl[1] = keys->lens[i], r[2] = "IFEQ", rl[2] = 4;
		r[3] = token, rl[3] = RL_TOKEN_LEN;
		r[4] = "DELIFEQ", rl[4] = 7, r[5] = keys->keys[i], rl[5] = keys->lens[i], r[6] = token, rl[6] = RL_TOKEN_LEN;
		cmds->key_rollbacks[2 * i] = (rl_command) {4, r, rl};
		cmds->key_rollbacks[2 * i + 1] = (rl_command) {3, r + 4, rl + 4};
	}
	cmds->msetex_argv[2 + 2 * n] = "NX", cmds->msetex_argvlen[2 + 2 * n] = 2;
	cmds->msetex_argv[3 + 2 * n] = "PX", cmds->msetex_argvlen[3 + 2 * n] = 2;
	cmds->msetex_argv[4 + 2 * n] = ttl_text, cmds->msetex_argvlen[4 + 2 * n] = ttl_len;
	memset(&cmds->msetex_request, 0, sizeof(cmds->msetex_request));
	cmds->msetex_request.command = (rl_command) {(int) argc, cmds->msetex_argv, cmds->msetex_argvlen};
	cmds->msetex_request.expect = RL_EXPECT_POSITIVE_INT; /* 1 when every key was set, 0 when none */
	cmds->lock = &cmds->msetex_request;
	cmds->rollback = cmds->key_rollbacks;
	cmds->rollback_count = 2 * n;
	return 0;
}

/* A single key's rollback: DELEX, then DELIFEQ, with this attempt's token. */
void rl_native_attempt_rollback(rl_attempt_commands *cmds)
{
	const char *key = cmds->keys->keys[0], *token = cmds->token;
	size_t key_len = cmds->keys->lens[0];
	const char *native_argv[] = {"DELEX", key, "IFEQ", token, "DELIFEQ", key, token};
	const size_t native_argvlen[] = {5, key_len, 4, RL_TOKEN_LEN, 7, key_len, RL_TOKEN_LEN};

	memcpy(cmds->rollback_argv, native_argv, sizeof(native_argv));
	memcpy(cmds->rollback_argvlen, native_argvlen, sizeof(native_argvlen));
	cmds->single_rollback[0] = (rl_command) {4, cmds->rollback_argv, cmds->rollback_argvlen};
	cmds->single_rollback[1] = (rl_command) {3, cmds->rollback_argv + 4, cmds->rollback_argvlen + 4};
	cmds->rollback = cmds->single_rollback;
	cmds->rollback_count = 2;
}

void rl_native_attempt_free(rl_attempt_commands *cmds)
{
	RL_FREE_CLEAR(cmds->msetex_argv);
	RL_FREE_CLEAR(cmds->msetex_argvlen);
	RL_FREE_CLEAR(cmds->key_rollbacks);
	RL_FREE_CLEAR(cmds->keys_argv);
	RL_FREE_CLEAR(cmds->keys_argvlen);
}

/* --- a held lock ---------------------------------------------------------------------------- */

/* One key: DELEX key IFEQ token where the connection's probes found DELEX, DELIFEQ key token where
 * DELIFEQ; several: that once per key to every server, a server's vote yes when every key's was
 * (as the scripted RL_SCRIPT_UNLOCK_MULTI: a lock released where all of it was still ours). */
int rl_native_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, rl_outcome *outcomes)
{
	key_args a = {keys, token, token_len, NULL, 0, {0}, {0}};
	rl_request request;
	double deadline = io->now(io->arg) + policy->call_bound_ms;

	if (keys->multi) {
		return per_key_run(io, policy, keys, release_request, &a, 1, deadline, outcomes);
	}
	memset(&request, 0, sizeof(request));
	release_request(&request, 0, &a);
	return (int) io->run(io->arg, &request, policy->quorum, deadline, outcomes);
}

/* The longest our key has left on a server the read before an extension reached, when that is
 * longer than ttl (another holder extended the lock with a script and a longer ttl, on a quorum or
 * on a few servers only); else ttl. */
static int64_t longest_left(const rl_lock_policy *policy, int64_t ttl, const rl_outcome *outcomes)
{
	size_t i;
	int64_t longest = ttl;

	for (i = 0; i < policy->servers; i++) {
		if (outcomes[i].kind == RL_OUTCOME_YES && outcomes[i].integer > longest) {
			longest = (int64_t) outcomes[i].integer;
		}
	}
	return longest;
}

/* An extension never shortens a key (docs/guide/script-free.md): SET IFEQ PX sets the expiry
 * outright, so the keys are read first (MULTI GET PTTL EXEC, as validity()), every server's answer
 * awaited within the call's bound, and written for the longest of ttl and what ours has left on any
 * of them (longest_left): a longer extension is seen wherever it landed, the server that answers last
 * included, and is kept; one that reached a few servers only never stops the others being extended (nothing
 * written there would leave the lock to expire on them). Then SET key token IFEQ token PX ttl:
 * the key set again to our token, only where it holds it (the client keeps the lock's ttl the same:
 * rl_dialect.extend_sets_ttl); several keys: once per key, a server's vote yes when every key's
 * was. The validity the caller reckons is the ttl asked's. */
int rl_native_extend(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, const char *ttl_text, size_t ttl_len, double deadline, rl_outcome *outcomes)
{
	key_args a = {keys, token, token_len, ttl_text, ttl_len, {0}, {0}};
	rl_request request;
	char longer_text[24];
	rl_lock_policy every;
	int64_t ttl = 0, longest;
	size_t i;

	for (i = 0; i < ttl_len; i++) {
		ttl = ttl * 10 + (ttl_text[i] - '0'); /* rl_resp_decimal's digits */
	}
	/* every server's answer, not the first quorum's: a longer key of ours on the one server that
	 * answered last must be seen, or the write below would shorten it */
	every = *policy;
	every.await_every_reply = 1;
	if (rl_native_held(io, &every, keys, token, token_len, deadline, outcomes) < 0) {
		return -1;
	}
	longest = longest_left(policy, ttl, outcomes);
	if (longest > ttl) {
		a.ttl_len = rl_resp_decimal(longer_text, (unsigned long long) longest);
		a.ttl_text = longer_text;
	}
	if (keys->multi) {
		return per_key_run(io, policy, keys, extend_request, &a, 1, deadline, outcomes);
	}
	memset(&request, 0, sizeof(request));
	extend_request(&request, 0, &a);
	request.undecided = policy->await_every_reply ? rl_request_every_reply : NULL; /* rl_lock_policy */
	request.heals = 1; /* the members known to have lost our key are awaited (rl_request.heals) */
	request.lost_on = policy->lost_on;
	return (int) io->run(io->arg, &request, policy->quorum, deadline, outcomes);
}

int rl_native_held(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, double deadline, rl_outcome *outcomes)
{
	held_batch h = {keys, token, token_len, {0}, {0}, {{0, NULL, NULL}}};
	rl_request request;

	if (keys->count > 1) {
		return per_key_run(io, policy, keys, held_request, &h, 1, deadline, outcomes) < 0 ? -1 : 0;
	}
	memset(&request, 0, sizeof(request));
	held_request(&request, 0, &h);
	request.undecided = policy->await_every_reply ? rl_request_every_reply : NULL; /* rl_lock_policy */
	io->run(io->arg, &request, policy->quorum, deadline, outcomes);
	return 0;
}

int rl_native_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	rl_outcome *outcomes)
{
	/* DEL of every key at once, whoever holds them: what the script does but announce it to
	 * waiters (who wake by their retry pause instead) */
	const char **argv = malloc((keys->count + 1) * sizeof(*argv));
	size_t *argvlen = malloc((keys->count + 1) * sizeof(*argvlen)), k;
	rl_request request;
	unsigned votes;

	if (argv == NULL || argvlen == NULL) {
		free(argv);
		free(argvlen);
		return -1;
	}
	argv[0] = "DEL", argvlen[0] = 3;
	for (k = 0; k < keys->count; k++) {
		argv[k + 1] = keys->keys[k], argvlen[k + 1] = keys->lens[k];
	}
	memset(&request, 0, sizeof(request));
	request.command = (rl_command) {(int) keys->count + 1, argv, argvlen};
	request.expect = RL_EXPECT_INT;
	votes = io->run(io->arg, &request, policy->quorum, io->now(io->arg) + policy->call_bound_ms, outcomes);
	free(argv);
	free(argvlen);
	return (int) votes;
}

