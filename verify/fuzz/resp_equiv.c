/* The request encoder (ext/protocol/rl_resp.h) against hiredis' redisFormatCommandArgv, byte for
 * byte, deterministic, for CI. hiredis parses every reply; requests are encoded by rl_resp_format
 * because hiredis' encoder costs about 4,000 instructions a command (docs/evidence/benchmark.md), so this
 * checks that ours writes exactly what hiredis would. Commands: 0 to 40 arguments of 0 to 3000
 * arbitrary bytes (CR, LF and NUL included), lengths around every power of ten, the extension's
 * own commands (SET NX PX, EVAL with a script, AUTH, SELECT, DELIFEQ); each also with its first
 * arguments as an encoded head (rl_resp_format_command, as the fan-out sends a script). Prints one summary line;
 * exits 1 on the first difference. Run: verify/fuzz/resp_equiv.sh [SEED [COUNT]]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "protocol/rl_resp.h"

static uint64_t state;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static size_t below(size_t n)
{
	return n == 0 ? 0 : (size_t) (next() % n);
}

static size_t some_length(void)
{
	static const size_t edges[] = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 2999};

	switch (below(3)) {
		case 0:
			return edges[below(sizeof(edges) / sizeof(edges[0]))];
		case 1:
			return below(20);
		default:
			return below(3000);
	}
}

static int compare(int argc, const char **argv, const size_t *argvlen, unsigned long long index)
{
	char *theirs = NULL;
	int their_len = redisFormatCommandArgv(&theirs, argc, argv, argvlen);
	size_t size = rl_resp_size(argc, argvlen);
	char *ours = malloc(size + 1);
	int same;

	if (their_len < 0 || ours == NULL) {
		fprintf(stderr, "resp_equiv: out of memory\n");
		exit(2);
	}
	/* the one-pass encoder (net/rl_fanout.c) takes the size from where the writing ended, and
	 * trusts rl_resp_bound not to be below it */
	same = rl_resp_format(ours, argc, argv, argvlen) == ours + size && rl_resp_bound(argc, argvlen) >= size
		&& (size_t) their_len == size && memcmp(ours, theirs, size) == 0;
	if (same && argc > 0) {
		/* the same command with its first arguments as an encoded head (rl_command.head): the same bytes */
		rl_command command = {argc, argv, argvlen, NULL, 0, (int) (index % (unsigned long long) (argc + 1))};
		char *head = malloc(size + 1), *headed = malloc(size + 1);

		if (head == NULL || headed == NULL) {
			fprintf(stderr, "resp_equiv: out of memory\n");
			exit(2);
		}
		command.head_len = (size_t) (rl_resp_put_args(head, command.head_argc, argv, argvlen) - head);
		command.head = head;
		same = rl_resp_format_command(headed, &command) == headed + size && memcmp(headed, theirs, size) == 0;
		free(head);
		free(headed);
	}
	if (!same) {
		fprintf(stderr, "resp_equiv: command %llu (%d arguments) differs: ours %zu bytes, hiredis %d bytes\n", index,
			argc, size, their_len);
	}
	free(ours);
	free(theirs);
	return same;
}

int main(int argc, char **argv)
{
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 20261124ULL;
	unsigned long long count = argc > 2 ? strtoull(argv[2], NULL, 10) : 200000ULL, i;
	static char pool[64 * 3000];
	const char *args[40];
	size_t lens[40], bytes = 0;
	size_t k;
	static const char *ours[][5] = {
		{"SET", "redlock:resource", "0123456789abcdef0123456789abcdef", "NX", "PX"},
		{"EVAL", "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end",
			"1", "k", "t"},
		{"AUTH", "user", "p\r\nass\0word", NULL, NULL},
		{"SELECT", "15", NULL, NULL, NULL},
		{"DELIFEQ", "k", "t", NULL, NULL},
	};

	state = seed * 2654435761ULL + 1;
	for (k = 0; k < sizeof(pool); k++) {
		pool[k] = (char) next();
	}
	for (k = 0; k < sizeof(ours) / sizeof(ours[0]); k++) {
		int n = 0;
		while (n < 5 && ours[k][n] != NULL) {
			args[n] = ours[k][n];
			lens[n] = k == 2 && n == 2 ? 11 : strlen(ours[k][n]);
			n++;
		}
		if (!compare(n, args, lens, k)) {
			return 1;
		}
	}
	for (i = 0; i < count; i++) {
		int n = (int) below(41);
		int a;

		for (a = 0; a < n; a++) {
			lens[a] = some_length();
			args[a] = pool + below(sizeof(pool) - lens[a]);
			bytes += lens[a];
		}
		if (!compare(n, args, lens, i)) {
			fprintf(stderr, "  replay: resp_equiv %llu %llu\n", seed, i + 1);
			return 1;
		}
	}
	printf("resp_equiv: seed %llu: %llu commands (%zu argument bytes) encoded identically by rl_resp_format, "
		"rl_resp_format_command with a head, and redisFormatCommandArgv\n", seed, count + (unsigned long long) (sizeof(ours) / sizeof(ours[0])), bytes);
	return 0;
}
