/* Lock tokens: 128 random bits as 32 lowercase hex characters, written and read here only. The
 * first character of a shared or semaphore token is replaced by the kind's mark, so that a lock
 * array whose fields were changed is recognised (an exclusive token is plain hex, and any token
 * not of our exact shape is read as an exclusive one: what other clients sent us). */
#ifndef RL_TOKEN_H
#define RL_TOKEN_H

#include <stddef.h>

#define RL_TOKEN_BYTES 16                 /* 128 bits from the CSPRNG */
#define RL_TOKEN_LEN (RL_TOKEN_BYTES * 2) /* printed as lowercase hex */

typedef enum {
	RL_TOKEN_EXCLUSIVE = 0, /* lock(), fenced or not, one resource or several */
	RL_TOKEN_SHARED,        /* lockShared() */
	RL_TOKEN_SEMAPHORE      /* lockSemaphore() */
} rl_token_kind;

/* Hex-encodes RL_TOKEN_BYTES random bytes into out (RL_TOKEN_LEN chars + NUL), marked as kind. */
void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind,
	char out[RL_TOKEN_LEN + 1]);

/* The kind a token was written for. */
rl_token_kind rl_token_kind_of(const char *token, size_t len);

#endif
