/* Lock tokens, written and read here only: 128 random bits as 32 lowercase hex characters, then
 * the ttl the lock was taken with as 16 more (docs/design/acquisition-path.md#what-a-lock-array-carries).
 * The ttl travels with the token wherever the lock array goes (another object, another process,
 * serialize, json_encode), so that any holder extending without scripts keeps the lock's one ttl;
 * forging it gains nothing, as the servers compare the whole token. The first character of a shared
 * or semaphore token is replaced by the kind's mark, so that a lock array whose fields were changed
 * is recognised (an exclusive token is plain hex, and any token not of our exact shape is read as an
 * exclusive one without a ttl: what other clients or an older version sent us). */
#ifndef RL_TOKEN_H
#define RL_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#define RL_TOKEN_BYTES 16                  /* 128 bits from the CSPRNG */
#define RL_TOKEN_RANDOM_LEN (RL_TOKEN_BYTES * 2) /* printed as lowercase hex */
#define RL_TOKEN_TTL_LEN 16                /* the ttl, 64 bits as lowercase hex */
#define RL_TOKEN_LEN (RL_TOKEN_RANDOM_LEN + RL_TOKEN_TTL_LEN)

typedef enum {
	RL_TOKEN_EXCLUSIVE = 0, /* lock(), fenced or not, one resource or several */
	RL_TOKEN_SHARED,        /* lockShared() */
	RL_TOKEN_SEMAPHORE      /* lockSemaphore() */
} rl_token_kind;

/* Hex-encodes RL_TOKEN_BYTES random bytes and ttl into out (RL_TOKEN_LEN chars + NUL), marked as kind. */
void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind, int64_t ttl,
	char out[RL_TOKEN_LEN + 1]);

/* The kind a token was written for. */
rl_token_kind rl_token_kind_of(const char *token, size_t len);

/* Whether a token is a shared or semaphore one of an older version (32 characters, no ttl): its
 * array is refused with a ValueError saying so. */
int rl_token_older_kind(const char *token, size_t len);

/* The ttl a token was written with; -1 when it is not of our shape (another client's, an older
 * version's: 32 characters). */
int64_t rl_token_ttl(const char *token, size_t len);

#endif
