/* libFuzzer harness: arbitrary bytes as a server's reply stream, through rl_reader (the
 * extension's reply reader: hiredis' redisReader with our object functions) fed byte by byte, in whole rooms, in random chunks and in chunks of
 * 1 to 7 bytes (the random sizes are drawn from a hash of the input, so they change with it),
 * and through hiredis' reader in one go. The replies must be the same in every chunking, each
 * given out as soon as its last byte arrived, and the same as hiredis' own reply objects
 * (see reader_compare.h); every reply goes through rl_reply_classify() for
 * each rl_expect: a "yes" only for +OK / a positive integer, a bounded printable message.
 * Any difference aborts with the input escaped. Build and run: verify/fuzz/run.sh.
 *
 * hiredis is driven with reply-object functions that allocate only for top-level replies, so
 * a header announcing a huge array ("*888888882\r\n", which made hiredis' own createArrayObject
 * calloc 7 GB) is parsed like any other and need not be skipped. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "reader_compare.h"

static rc_stats stats;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t hash = 1469598103934665603ULL; /* FNV-1a of the input: the chunk sizes */
	rc_run bytewise, hiredis;
	size_t i;

	for (i = 0; i < size; i++) {
		hash = (hash ^ data[i]) * 1099511628211ULL;
	}
	if (rc_check_stream(data, size, hash, &stats, &bytewise, &hiredis)) {
		fprintf(stderr, "reply_fuzz: MISMATCH: %s\n%s  input (%zu bytes): ", rc_why, rc_detail, size);
		rc_escape(stderr, data, size, 8192);
		fputc('\n', stderr);
		abort();
	}
	rc_run_free(&bytewise);
	rc_run_free(&hiredis);
	return 0;
}
