/* libFuzzer harness: arbitrary bytes through hiredis' reply parser, then every parsed reply
 * through rl_reply_classify() for each rl_expect, with and without the NOSCRIPT fallback.
 * Checks the outcome is one the fan-out understands and the message is a bounded, printable C
 * string. Build and run: fuzz/run.sh. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <hiredis/hiredis.h>

#include "rl_reply.h"

static void check_outcome(const rl_outcome *out, rl_verdict verdict, int can_resend)
{
	size_t len, i;

	if (verdict == RL_VERDICT_RESEND) {
		assert(can_resend); /* outcome left for the fallback's reply to fill */
		return;
	}
	len = strnlen(out->message, RL_MESSAGE_MAX);
	assert(len < RL_MESSAGE_MAX);
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char) out->message[i];
		assert(ch >= 0x20 && ch != 0x7f);
	}
	assert(verdict == RL_VERDICT_DONE);
	assert(out->kind == RL_OUTCOME_YES || out->kind == RL_OUTCOME_TAKEN || out->kind == RL_OUTCOME_ERROR);
}

static void classify_all(const redisReply *reply)
{
	static const rl_expect expects[] = {RL_EXPECT_OK, RL_EXPECT_POSITIVE_INT};
	size_t e;
	int can_resend;

	for (e = 0; e < sizeof(expects) / sizeof(expects[0]); e++) {
		for (can_resend = 0; can_resend <= 1; can_resend++) {
			rl_outcome out;
			rl_verdict verdict;

			memset(&out, 0x5a, sizeof(out)); /* classify must fill what it reports */
			verdict = rl_reply_classify(reply, expects[e], can_resend, &out);
			check_outcome(&out, verdict, can_resend);
			if (out.kind == RL_OUTCOME_YES) {
				/* a yes is only ever +OK for SET or a positive integer for a script */
				if (expects[e] == RL_EXPECT_OK) {
					assert(reply->type == REDIS_REPLY_STATUS && reply->len == 2);
				} else {
					assert(reply->type == REDIS_REPLY_INTEGER && reply->integer > 0);
				}
			}
		}
	}
	/* nested elements are replies too: classify them all (the fan-out never sees them, but
	 * a classifier that only works on top-level replies would be a trap) */
	if (reply->type == REDIS_REPLY_ARRAY) {
		size_t i;
		for (i = 0; i < reply->elements; i++) {
			classify_all(reply->element[i]);
		}
	}
}

/* hiredis 0.14 callocs a multi-bulk array of whatever size the header announces before any
 * element arrives ("*888888882\r\n": 7 GB). That is hiredis' behaviour, documented in
 * docs/readme-reliability.md; inputs announcing more than a million elements are skipped so the
 * fuzzer keeps exploring the classifier instead of stopping there. */
static int announces_huge_array(const uint8_t *data, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++) {
		if (data[i] == '*' && (i == 0 || data[i - 1] == '\n')) {
			size_t j = i + 1, digits = 0;
			while (j < size && data[j] == '0') {
				j++;
			}
			while (j < size && data[j] >= '0' && data[j] <= '9') {
				j++;
				digits++;
			}
			if (digits > 6) {
				return 1;
			}
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	redisReader *reader;

	if (announces_huge_array(data, size)) {
		return 0;
	}
	reader = redisReaderCreate();
	size_t offset = 0;
	int rounds = 0;

	if (reader == NULL) {
		return 0;
	}
	/* Feed in uneven chunks (the first byte picks the chunk size) to exercise partial reads. */
	size_t chunk = size ? (size_t) (data[0] % 17) + 1 : 1;
	while (offset < size && rounds++ < 100000) {
		size_t n = size - offset < chunk ? size - offset : chunk;
		void *reply = NULL;

		if (redisReaderFeed(reader, (const char *) data + offset, n) != REDIS_OK) {
			break;
		}
		offset += n;
		while (redisReaderGetReply(reader, &reply) == REDIS_OK && reply != NULL) {
			classify_all(reply);
			freeReplyObject(reply);
			reply = NULL;
		}
		if (reader->err) {
			break;
		}
	}
	redisReaderFree(reader);
	return 0;
}
