/* What a server's reply means for a vote. Plain C over rl_reader's replies: no zvals, no I/O,
 * so the fuzzer can drive it with arbitrary bytes. */
#ifndef RL_REPLY_H
#define RL_REPLY_H

#include <stddef.h>

#include "net/rl_hiredis_reader.h"
#include "net/rl_request.h" /* rl_expect, rl_outcome */

/* Fills *out with what reply means for a vote of expect: YES, TAKEN, or ERROR with a message. */
void rl_reply_classify(const rl_reply *reply, rl_expect expect, rl_outcome *out);

/* RL_EXPECT_HELD: EXEC's reply to MULTI; GET key; PTTL key; EXEC. YES with the key's ms left in
 * out->integer when it holds token (a string equal to it) with an expiry; TAKEN when it holds
 * something else or nothing; ERROR otherwise (the transaction's error, or an element's). */
void rl_reply_classify_held(const rl_reply *reply, const char *token, size_t token_len, rl_outcome *out);

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

/* Whether a server refused scripts to this user (NOPERM for 'eval') and none ran the script (a yes
 * or a "not ours" is a script that ran): then, and only then, an object goes on without them. One
 * misconfigured server beside others that ran the script does not switch it for good; a decision
 * made before every refusal arrived (the quorum lost early) still does. */
int rl_outcomes_scripts_refused(const rl_outcome *outcomes, size_t count);

#endif
