/* Lock tokens. See rl_token.h. */
#include <string.h>

#include "core/rl_token.h"

#define MARK_SHARED 's'
#define MARK_SEMAPHORE 'm'

static const char hex[] = "0123456789abcdef";

void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind, int64_t ttl,
	char out[RL_TOKEN_LEN + 1])
{
	uint64_t value = (uint64_t) ttl;
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
	for (i = RL_TOKEN_LEN; i > RL_TOKEN_RANDOM_LEN; i--, value >>= 4) {
		out[i - 1] = hex[value & 0x0f];
	}
	out[RL_TOKEN_LEN] = '\0';
	if (kind == RL_TOKEN_SHARED) {
		out[0] = MARK_SHARED;
	} else if (kind == RL_TOKEN_SEMAPHORE) {
		out[0] = MARK_SEMAPHORE;
	}
}

static int hex_digit(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

rl_token_kind rl_token_kind_of(const char *token, size_t len)
{
	size_t i;

	if (len != RL_TOKEN_LEN || (token[0] != MARK_SHARED && token[0] != MARK_SEMAPHORE)) {
		return RL_TOKEN_EXCLUSIVE;
	}
	for (i = 1; i < RL_TOKEN_LEN; i++) {
		if (hex_digit(token[i]) < 0) {
			return RL_TOKEN_EXCLUSIVE;
		}
	}
	return token[0] == MARK_SHARED ? RL_TOKEN_SHARED : RL_TOKEN_SEMAPHORE;
}

int rl_token_older_kind(const char *token, size_t len)
{
	size_t i;

	if (len != RL_TOKEN_RANDOM_LEN || (token[0] != MARK_SHARED && token[0] != MARK_SEMAPHORE)) {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if (hex_digit(token[i]) < 0) {
			return 0;
		}
	}
	return 1;
}

int64_t rl_token_ttl(const char *token, size_t len)
{
	uint64_t value = 0;
	size_t i;

	if (len != RL_TOKEN_LEN) {
		return -1;
	}
	for (i = RL_TOKEN_RANDOM_LEN; i < RL_TOKEN_LEN; i++) {
		int digit = hex_digit(token[i]);

		if (digit < 0) {
			return -1;
		}
		value = value << 4 | (uint64_t) digit;
	}
	return value >= 1 && value <= (uint64_t) INT64_MAX ? (int64_t) value : -1;
}
