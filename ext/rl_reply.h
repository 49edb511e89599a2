/* What a server's reply means for a vote. Plain C over rl_reader's replies: no zvals, no I/O,
 * so the fuzzer can drive it with arbitrary bytes. */
#ifndef RL_REPLY_H
#define RL_REPLY_H

#include <stddef.h>

#include "rl_reader.h"

typedef enum {
	RL_EXPECT_OK = 0,       /* SET NX PX: +OK wins the key, nil means someone else holds it */
	RL_EXPECT_POSITIVE_INT  /* a script: an integer > 0 means done, 0 means not ours */
} rl_expect;

typedef enum {
	RL_OUTCOME_PENDING = 0,
	RL_OUTCOME_YES,
	RL_OUTCOME_TAKEN,    /* a clean "no": held by another owner, or not held by us */
	RL_OUTCOME_CONNECT,  /* could not connect */
	RL_OUTCOME_TIMEOUT,  /* no answer within the server's timeout or the call's deadline */
	RL_OUTCOME_IO,       /* the connection broke */
	RL_OUTCOME_ERROR     /* the server answered with an error */
} rl_outcome_kind;

#define RL_MESSAGE_MAX 160

typedef struct rl_outcome {
	rl_outcome_kind kind;
	long long integer;            /* an integer reply's value, when there was one */
	char message[RL_MESSAGE_MAX]; /* why it was not a yes, truncated */
} rl_outcome;

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
