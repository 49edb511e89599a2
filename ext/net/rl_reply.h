/* What a server's reply means for a vote. Plain C over rl_reader's replies: no zvals, no I/O,
 * so the fuzzer can drive it with arbitrary bytes. */
#ifndef RL_REPLY_H
#define RL_REPLY_H

#include <stddef.h>

#include "net/rl_hiredis_reader.h"
#include "net/rl_request.h" /* rl_expect, rl_outcome */

typedef enum {
	RL_VERDICT_DONE = 0, /* outcome filled in */
	RL_VERDICT_RESEND    /* NOSCRIPT: send the fallback command and wait again */
} rl_verdict;

rl_verdict rl_reply_classify(const rl_reply *reply, rl_expect expect, int can_resend, rl_outcome *out);

void rl_outcome_set(rl_outcome *out, rl_outcome_kind kind, const char *message);

/* PENDING, with no integer and no message. */
static inline void rl_outcome_reset(rl_outcome *out)
{
	out->kind = RL_OUTCOME_PENDING;
	out->integer = 0;
	out->message[0] = '\0';
}
void rl_outcome_set_bytes(rl_outcome *out, rl_outcome_kind kind, const char *bytes, size_t len);

#endif
