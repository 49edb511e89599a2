/* Lock tokens. See rl_token.h. */
#include "core/rl_token.h"

#define MARK_SHARED 's'
#define MARK_SEMAPHORE 'm'

void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind,
	char out[RL_TOKEN_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < RL_TOKEN_BYTES; i++) {
		out[2 * i] = hex[random_bytes[i] >> 4];
		out[2 * i + 1] = hex[random_bytes[i] & 0x0f];
	}
	out[RL_TOKEN_LEN] = '\0';
	if (kind == RL_TOKEN_SHARED) {
		out[0] = MARK_SHARED;
	} else if (kind == RL_TOKEN_SEMAPHORE) {
		out[0] = MARK_SEMAPHORE;
	}
}

rl_token_kind rl_token_kind_of(const char *token, size_t len)
{
	size_t i;

	if (len != RL_TOKEN_LEN || (token[0] != MARK_SHARED && token[0] != MARK_SEMAPHORE)) {
		return RL_TOKEN_EXCLUSIVE;
	}
	for (i = 1; i < RL_TOKEN_LEN; i++) {
		if (!((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f'))) {
			return RL_TOKEN_EXCLUSIVE;
		}
	}
	return token[0] == MARK_SHARED ? RL_TOKEN_SHARED : RL_TOKEN_SEMAPHORE;
}
