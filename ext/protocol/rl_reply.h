/* What a server's reply means for a vote. Plain C over rl_reader's replies: no zvals, no I/O,
 * so the fuzzer can drive it with arbitrary bytes. */
#ifndef RL_REPLY_H
#define RL_REPLY_H

#include <stddef.h>

#include "protocol/rl_hiredis_reader.h"
#include "protocol/rl_request.h" /* rl_expect, rl_outcome */

/* rl_reply_classify beyond a yes vote. */
void rl_reply_classify_any(const rl_reply *reply, rl_expect expect, rl_outcome *out);

/* Fills *out with what reply means for a vote of expect: YES, TAKEN, or ERROR with a message.
 * Inline: its common case, a yes (+OK, or an integer > 0), is a few tests on every reply. */
static inline void rl_reply_classify(const rl_reply *reply, rl_expect expect, rl_outcome *out)
{
	if (expect == RL_EXPECT_OK ? reply->type == RL_REPLY_STATUS && reply->len == 2 && reply->str[0] == 'O'
			&& reply->str[1] == 'K'
		: expect == RL_EXPECT_POSITIVE_INT && reply->type == RL_REPLY_INTEGER && reply->integer > 0) {
		out->integer = expect == RL_EXPECT_OK ? 0 : reply->integer;
		out->kind = RL_OUTCOME_YES;
		out->message[0] = '\0';
		return;
	}
	rl_reply_classify_any(reply, expect, out);
}

/* Row row's vote of a reply that answers for rows requests (rl_request.spread): a status line of
 * exactly rows characters, its row-th '1' or '0' classified as the integer 1 or 0 would be for
 * expect; any other reply (an error, a line of another length) classified whole, the same for every
 * row; another character: an ERROR. */
void rl_reply_classify_row(const rl_reply *reply, rl_expect expect, unsigned rows, unsigned row, rl_outcome *out);

/* RL_EXPECT_HELD: EXEC's reply to MULTI; GET key; PTTL key; EXEC. YES with the key's ms left in
 * out->integer when it holds token (a string equal to it) with an expiry; TAKEN when it holds
 * something else or nothing; ERROR otherwise (the transaction's error, or an element's). */
void rl_reply_classify_held(const rl_reply *reply, const char *token, size_t token_len, rl_outcome *out);

/* RL_EXPECT_INSPECT: EXEC's reply to MULTI; TYPE key; PTTL key; HKEYS key; GET key:fence; GET key; ZCARD key:fair;
 * MGET slot keys...; EXEC (core/rl_inspect.c), into *inspected (GET key's string: the holder's token; the
 * readers' tokens (HKEYS) and the slots' (MGET) from the nested strings of a reader that nests:
 * rl_reader_nest). YES (out->integer the key's PTTL) where the key or a slot exists, TAKEN ("free")
 * where nothing does, ERROR for the transaction's error or TYPE's or PTTL's (HKEYS' WRONGTYPE on a
 * string is expected). *inspected starts from zeroes or a previous reply's (its tokens freed). */
void rl_reply_classify_inspect(const rl_reply *reply, rl_outcome *out, rl_inspected *inspected);

void rl_outcome_set(rl_outcome *out, rl_outcome_kind kind, const char *message);

/* PENDING, with no integer and no message. */
static inline void rl_outcome_reset(rl_outcome *out)
{
	out->kind = RL_OUTCOME_PENDING;
	out->integer = 0;
	out->message[0] = '\0';
	out->latency_ms = -1;
}
void rl_outcome_set_bytes(rl_outcome *out, rl_outcome_kind kind, const char *bytes, size_t len);

/* Whether the servers that refused scripts to this user (NOPERM for 'eval') leave too few for a
 * quorum without them: then, and only then, an object goes on without scripts (docs/guide/
 * script-free.md). A minority refusing, whatever the others answered (a yes, a "not ours", a
 * timeout), does not: those servers are a minority like a server down. */
int rl_outcomes_scripts_refused(const rl_outcome *outcomes, size_t count, unsigned quorum);

/* Whether the servers that said a clean "no" (RL_OUTCOME_TAKEN: another owner, or not ours) alone
 * leave no quorum possible: no retry can win it. Timeouts and errors are not refusals. */
int rl_outcomes_quorum_refused(const rl_outcome *outcomes, size_t count, unsigned quorum);

/* A server's maxmemory-policy, as its reply to CONFIG GET maxmemory-policy or INFO memory names it
 * (docs/guide/eviction.md). NOT_LEARNT: not asked yet, or no reply yet; UNKNOWN: the server refused
 * both; OTHER: a name this build does not know. Every policy but noeviction can evict a lock key:
 * allkeys-* any key, volatile-* keys with a ttl, which every lock key has. */
typedef enum {
	RL_POLICY_NOT_LEARNT = 0,
	RL_POLICY_NOEVICTION,
	RL_POLICY_ALLKEYS_LRU,
	RL_POLICY_ALLKEYS_LFU,
	RL_POLICY_ALLKEYS_RANDOM,
	RL_POLICY_VOLATILE_LRU,
	RL_POLICY_VOLATILE_LFU,
	RL_POLICY_VOLATILE_RANDOM,
	RL_POLICY_VOLATILE_TTL,
	RL_POLICY_OTHER,
	RL_POLICY_UNKNOWN,
	RL_POLICY_COUNT
} rl_eviction_policy;

/* The field of INFO memory that names the policy. */
#define RL_POLICY_INFO_FIELD "maxmemory_policy:"

/* The policy a name means (OTHER for a name this build does not know). */
rl_eviction_policy rl_eviction_policy_parse(const char *name, size_t len);

/* "noeviction", "allkeys-lru", ...; "other", "unknown"; NULL for NOT_LEARNT. */
const char *rl_eviction_policy_name(rl_eviction_policy policy);

/* Whether the policy can evict a lock key: every learnt one but noeviction (OTHER included: an
 * unknown name is not assumed safe). UNKNOWN is not: nothing says it evicts. */
static inline int rl_eviction_policy_evicts(rl_eviction_policy policy)
{
	return policy > RL_POLICY_NOEVICTION && policy <= RL_POLICY_OTHER;
}

/* The warning a policy gives (getServerWarnings(), the observer, phpinfo()): NULL for noeviction
 * and NOT_LEARNT; "maxmemory-policy allkeys-lru can evict lock keys", or for UNKNOWN
 * "maxmemory-policy unknown: CONFIG GET and INFO refused". Into out (size >= 64). */
const char *rl_eviction_policy_warning(rl_eviction_policy policy, char *out, size_t size);

#endif
