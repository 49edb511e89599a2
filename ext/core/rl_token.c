/* Lock tokens. See rl_token.h. */
#include <string.h>

#include "core/rl_token.h"

#define MARK_SHARED 's'
#define MARK_SEMAPHORE 'm'

/* Every byte's two hex characters: a token is written a byte at a time (it is drawn on every
 * attempt, on the drop-in cycle's path). */
static const char hex_pairs[] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_WIN32)
# define TOKEN_LITTLE_ENDIAN 1
#else
# define TOKEN_LITTLE_ENDIAN 0
#endif

static inline uint64_t hex_pair(unsigned byte)
{
	uint16_t pair;

	memcpy(&pair, hex_pairs + 2 * byte, 2);
	return pair;
}

void rl_token_write(const unsigned char random_bytes[RL_TOKEN_BYTES], rl_token_kind kind, int64_t ttl,
	char out[RL_TOKEN_LEN + 1])
{
	uint64_t value = (uint64_t) ttl;
	size_t i;

#if TOKEN_LITTLE_ENDIAN
	/* Four bytes' eight characters in one store (half the instructions of a pair at a time). */
	for (i = 0; i < RL_TOKEN_BYTES; i += 4) {
		const unsigned char *b = random_bytes + i;
		uint64_t chars = hex_pair(b[0]) | hex_pair(b[1]) << 16 | hex_pair(b[2]) << 32 | hex_pair(b[3]) << 48;
		memcpy(out + 2 * i, &chars, 8);
	}
	for (i = 0; i < 2; i++, value <<= 32) { /* the ttl, most significant byte first */
		uint64_t chars = hex_pair((unsigned) (value >> 56)) | hex_pair((unsigned) (value >> 48) & 0xff) << 16
			| hex_pair((unsigned) (value >> 40) & 0xff) << 32 | hex_pair((unsigned) (value >> 32) & 0xff) << 48;
		memcpy(out + RL_TOKEN_RANDOM_LEN + 8 * i, &chars, 8);
	}
#else
	for (i = 0; i < RL_TOKEN_BYTES; i++) {
		memcpy(out + 2 * i, hex_pairs + 2 * random_bytes[i], 2);
	}
	for (i = RL_TOKEN_LEN; i > RL_TOKEN_RANDOM_LEN; i -= 2, value >>= 8) {
		memcpy(out + i - 2, hex_pairs + 2 * (value & 0xff), 2);
	}
#endif
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
