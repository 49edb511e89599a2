/* Lock tokens. See rl_token.h. */
#include <string.h>

#include "core/rl_token.h"

#define MARK_SHARED 's'
#define MARK_SEMAPHORE 'm'

void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind,
	char out[RL_TOKEN_LEN + 1])
{
	/* Both hex digits of a byte from one table entry: half the work of a digit at a time, on
	 * every lock() (a tenth of the request's preparation). */
#define ROW(high) high "0" high "1" high "2" high "3" high "4" high "5" high "6" high "7" \
	high "8" high "9" high "a" high "b" high "c" high "d" high "e" high "f"
	static const char pairs[] = ROW("0") ROW("1") ROW("2") ROW("3") ROW("4") ROW("5") ROW("6") ROW("7")
		ROW("8") ROW("9") ROW("a") ROW("b") ROW("c") ROW("d") ROW("e") ROW("f");
#undef ROW
	size_t i;

	for (i = 0; i < RL_TOKEN_BYTES; i++) {
		memcpy(out + 2 * i, pairs + 2 * random_bytes[i], 2);
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
