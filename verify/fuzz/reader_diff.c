/* Differential test of ext/protocol/rl_hiredis_reader.c (hiredis' reader behind our object functions)
 * against hiredis' reader with reply objects, deterministic, for CI.
 *
 *   reader_diff [SEED [COUNT]] [--stream INDEX] [--dump FILE] [--quiet]
 *
 * Generates COUNT RESP2 streams from SEED (each from its own seed, so that one stream can be
 * replayed with --stream): 40% are valid sequences of every kind of reply (status and error
 * lines short and longer than a socket read, integers up to LLONG_MIN/MAX, nil bulk strings
 * and arrays, bulk strings of 0 to 5000 arbitrary bytes with CRLFs inside, arrays nested up to
 * and beyond 8 levels), the rest short ones of the same, mutated (byte flips, insertions, deletions,
 * truncation, duplicated slices, tampered numbers and type bytes). Each stream goes through
 * rl_reader fed byte by byte, in whole rooms and in two random chunkings, and through hiredis in
 * one go; see reader_compare.h for what is compared. The valid streams are also checked against what the generator wrote. Prints one
 * summary line; exits 1 on any mismatch, with the stream (escaped), its seed and index.
 *
 * Build: verify/fuzz/reader_diff.sh (gcc), verify/fuzz/reader_diff.sh --sanitize (clang, ASan + UBSan), or
 *   gcc -O1 -g -Wall -Wextra -Iext -o reader_diff verify/fuzz/reader_diff.c ext/protocol/rl_hiredis_reader.c ext/protocol/rl_reply.c -lhiredis */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_compare.h"
#include "../common/bytes.h"

#define DEFAULT_SEED 20240601ULL
#define DEFAULT_COUNT 20000
#define STREAM_BUDGET 40000 /* bytes: generation stops adding replies past this */
#define MAX_REPORTS 3

/* ---------------------------------------------------------------------------------------- */
/* Generator */

typedef struct gen {
	uint64_t rng;
	unsigned char *buf;
	size_t len, cap;
	int deep_full;  /* the current top-level reply has a non-empty array at level 9: refused */
	int deep_empty; /* ... an empty or nil one: refused too (hiredis checks the '*' byte alone) */
	rc_run expected; /* the top-level replies written, with their end offsets */
	size_t rl_fails_at;      /* index of the first reply with 'D', or SIZE_MAX */
	size_t hiredis_fails_at; /* index of the first reply with 'D' or 'e', or SIZE_MAX */
} gen;

static void put(gen *g, const void *bytes, size_t len)
{
	g->buf = bytes_room(g->buf, &g->cap, g->len + len);
	memcpy(g->buf + g->len, bytes, len);
	g->len += len;
}

static void put_str(gen *g, const char *s)
{
	put(g, s, strlen(s));
}

static size_t below(gen *g, size_t n)
{
	return rc_below(&g->rng, n);
}

static int chance(gen *g, unsigned percent)
{
	return below(g, 100) < percent;
}

static const char *const status_words[] = {"OK", "QUEUED", "PONG", "", "O", "OKK", "ok", "OK ", "Background saving started"};
static const char *const error_words[] = {
	"NOSCRIPT No matching script. Please use EVAL.",
	"NOSCRIPT",
	"NOSCRIP",
	"NOSCRIPTS",
	"noscript No matching script",
	"ERR wrong number of arguments for 'set' command",
	"WRONGTYPE Operation against a key holding the wrong kind of value",
	"LOADING Redis is loading the dataset in memory",
	"READONLY You can't write against a read only replica.",
	"MOVED 3999 127.0.0.1:6381",
	"ERR",
	"",
};

/* Text for a status or error line: anything but a CR followed by LF. */
static size_t line_text(gen *g, unsigned char *out, size_t cap)
{
	size_t len, i;

	switch (below(g, 8)) {
		case 0: /* around where the line no longer fits in rl_reader's buffer */
			len = RL_READER_BUFFER - 10 + below(g, 20);
			break;
		case 1:
			len = RL_READER_BUFFER + below(g, 5000 - RL_READER_BUFFER);
			break;
		case 2:
			len = RL_READER_LINE_HEAD - 3 + below(g, 6);
			break;
		case 3:
			len = 19 + below(g, 6); /* around rl_reader_next's inline limit of 22 bytes */
			break;
		default:
			len = below(g, 40);
	}
	if (len > cap) {
		len = cap;
	}
	for (i = 0; i < len; i++) {
		switch (below(g, 10)) {
			case 0: out[i] = (unsigned char) below(g, 256); break;
			case 1: out[i] = "\r\n\0\x7f\x1b"[below(g, 5)]; break;
			default: out[i] = (unsigned char) (0x20 + below(g, 0x5f)); break;
		}
		if (i > 0 && out[i] == '\n' && out[i - 1] == '\r') {
			out[i] = 'n';
		}
	}
	return len;
}

/* A status ('+') or error ('-') line: half the time a familiar word, else line_text(). Writes it
 * and returns its text's length; the text is left in t. */
static size_t gen_line(gen *g, const char *kind, const char *const *words, size_t word_count,
	unsigned char *t, size_t cap)
{
	size_t n;

	if (chance(g, 50)) {
		const char *word = words[below(g, word_count)];
		n = strlen(word);
		memcpy(t, word, n);
	} else {
		n = line_text(g, t, cap);
	}
	put_str(g, kind);
	put(g, t, n);
	put_str(g, "\r\n");
	return n;
}

static long long some_integer(gen *g)
{
	static const long long table[] = {
		0, 1, -1, 2, 5, LLONG_MAX, LLONG_MIN, LLONG_MAX - 1, LLONG_MIN + 1,
		999999999999999999LL, 1000000000000000000LL, -999999999999999999LL, -1000000000000000000LL,
		99999999999999999LL, 123456789012345678LL, 4294967296LL, 2147483648LL, -2147483649LL,
	};
	switch (below(g, 4)) {
		case 0: return table[below(g, sizeof(table) / sizeof(table[0]))];
		case 1: return (long long) rc_rand(&g->rng);
		case 2: return (long long) rc_rand(&g->rng) >> below(g, 64);
		default: return (long long) below(g, 2000) - 1000;
	}
}

static void put_number(gen *g, char type, long long value)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%c%lld\r\n", type, value);
	put(g, line, (size_t) n);
}

static void gen_item(gen *g, int level, int *type, long long *integer, unsigned char *text, size_t *len);

static void gen_array(gen *g, int level, long long count)
{
	long long i;

	if (level == 8) {
		*(count > 0 ? &g->deep_full : &g->deep_empty) = 1;
	}
	put_number(g, '*', count);
	for (i = 0; i < count; i++) {
		int type;
		long long integer;
		size_t len;
		gen_item(g, level + 1, &type, &integer, NULL, &len);
	}
}

/* One reply at the given nesting level (0: top level). Fills what a top-level reply is to
 * compare as; text may be NULL for nested items. */
static void gen_item(gen *g, int level, int *type, long long *integer, unsigned char *text, size_t *len)
{
	static unsigned char scratch[5000];
	unsigned char *t = text ? text : scratch;
	size_t pick = below(g, 100), i;
	size_t array_odds = level < 3 ? 15 : level < 8 ? 8 : 3;

	*len = 0;
	*integer = 0;
	if (pick < array_odds) {
		long long count;
		switch (below(g, 6)) {
			case 0: count = 0; break;
			case 1: count = 1; break;
			default: count = (long long) below(g, 5); break;
		}
		*type = RL_REPLY_ARRAY;
		*integer = count;
		gen_array(g, level, count);
		return;
	}
	if (pick < array_odds + 2 && level < 8) { /* a chain of single-element arrays, 1 to 11 deep */
		size_t depth = 1 + below(g, 11);
		int inner_type;
		long long inner_integer;
		size_t inner_len;

		*type = RL_REPLY_ARRAY;
		*integer = 1;
		for (i = 0; i < depth; i++) {
			if (level + (int) i == 8) {
				g->deep_full = 1;
			}
			put_str(g, "*1\r\n");
		}
		if (level + (int) depth == 8 && chance(g, 60)) {
			/* the innermost item sits at level 9: an array there, empty, nil or not */
			if (chance(g, 30)) {
				put_str(g, "*-1\r\n");
				g->deep_empty = 1;
			} else {
				gen_array(g, 8, chance(g, 50) ? 0 : 1 + (long long) below(g, 3));
			}
			return;
		}
		gen_item(g, level + (int) depth, &inner_type, &inner_integer, NULL, &inner_len);
		return;
	}
	pick = below(g, 100);
	if (pick < 14) {
		*type = RL_REPLY_STATUS;
		*len = gen_line(g, "+", status_words, sizeof(status_words) / sizeof(status_words[0]), t, sizeof(scratch));
	} else if (pick < 28) {
		*type = RL_REPLY_ERROR;
		*len = gen_line(g, "-", error_words, sizeof(error_words) / sizeof(error_words[0]), t, sizeof(scratch));
	} else if (pick < 48) {
		*type = RL_REPLY_INTEGER;
		*integer = some_integer(g);
		put_number(g, ':', *integer);
	} else if (pick < 58) {
		*type = RL_REPLY_NIL;
		*integer = -1;
		if (chance(g, 70)) {
			put_str(g, "$-1\r\n");
		} else {
			put_str(g, "*-1\r\n");
			if (level == 8) {
				g->deep_empty = 1; /* hiredis refuses even a nil array at level 9 */
			}
		}
	} else {
		size_t size;
		switch (below(g, 6)) {
			case 0: size = below(g, 3); break;
			case 1: size = below(g, 20); break;
			case 2: size = below(g, 300); break;
			case 3: size = RL_READER_BUFFER - 8 + below(g, 16); break;
			default: size = below(g, 5001); break;
		}
		*type = RL_REPLY_STRING;
		*integer = (long long) size;
		put_number(g, '$', (long long) size);
		switch (below(g, 4)) {
			case 0: /* RESP look-alikes, CRLFs included */
				for (i = 0; i < size; i++) {
					scratch[i] = (unsigned char) "+OK\r\n:1\r\n$-1\r\n*2\r\n-ERR\r\n"[i % 25];
				}
				break;
			case 1:
				for (i = 0; i < size; i++) {
					scratch[i] = i % 2 ? '\n' : '\r';
				}
				break;
			default:
				for (i = 0; i < size; i++) {
					scratch[i] = (unsigned char) below(g, 256);
				}
		}
		put(g, scratch, size);
		put_str(g, "\r\n");
	}
}

/* A valid stream of top-level replies into g->buf, and what each should read as. Streams to be
 * mutated are kept short, so that more of the mutations land in lines rather than payloads. */
static void gen_stream(gen *g, int to_mutate)
{
	size_t replies = 1 + below(g, to_mutate ? 6 : chance(g, 20) ? 200 : 30), i;
	unsigned char text[5000];

	g->len = 0;
	g->rl_fails_at = SIZE_MAX;
	g->hiredis_fails_at = SIZE_MAX;
	rc_run_free(&g->expected);
	for (i = 0; i < replies && g->len < (to_mutate ? STREAM_BUDGET / 8 : STREAM_BUDGET); i++) {
		int type;
		long long integer;
		size_t len;

		g->deep_full = g->deep_empty = 0;
		gen_item(g, 0, &type, &integer, text, &len);
		rc_push(&g->expected, type, integer, (const char *) text, len, g->len, g->len);
		if ((g->deep_full || g->deep_empty) && g->rl_fails_at == SIZE_MAX) { /* rl_reader is hiredis */
			g->rl_fails_at = i;
		}
		if ((g->deep_full || g->deep_empty) && g->hiredis_fails_at == SIZE_MAX) {
			g->hiredis_fails_at = i;
		}
	}
}

/* A line start: 0 or just after a LF. */
static size_t some_line_start(gen *g)
{
	size_t tries, at;
	for (tries = 0; tries < 16; tries++) {
		at = below(g, g->len);
		while (at > 0 && g->buf[at - 1] != '\n') {
			at--;
		}
		if (at < g->len) {
			return at;
		}
	}
	return 0;
}

static void insert(gen *g, size_t at, const void *bytes, size_t n)
{
	put(g, bytes, n); /* grow */
	memmove(g->buf + at + n, g->buf + at, g->len - n - at);
	memcpy(g->buf + at, bytes, n);
}

static void mutate(gen *g)
{
	static const char interesting[] = "\r\n+-:$*0123456789 x\0\xff";
	size_t rounds = 1 + below(g, 4), r, k;

	for (r = 0; r < rounds && g->len > 0; r++) {
		size_t at = below(g, g->len), n;
		unsigned char bytes[24];

		switch (below(g, 10)) {
			case 9: { /* another number in a line that has one */
				static const char *const numbers[] = {
					"", "-", "-0", "0", "00", "01", "-01", "+1", " 1", "1 ", "-1", "-2", "-3", "1e3", "0x10",
					"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
					"9999999999999999999", "-9999999999999999999", "18446744073709551615", "18446744073709551616",
					"4611686018427387904", "4611686018427387905", "2147483647", "2147483648", "4294967296",
					"0000000000000000001", "00000000000000000001", "999999999999999999", "1000000000000000000",
				};
				const char *s = numbers[below(g, sizeof(numbers) / sizeof(numbers[0]))];
				size_t end;
				at = some_line_start(g);
				if (strchr(":$*", g->buf[at]) == NULL || g->buf[at] == 0) {
					g->buf[at] = (unsigned char) ":$*"[below(g, 3)];
				}
				for (end = at + 1; end < g->len && g->buf[end] != '\r'; end++) {
				}
				memmove(g->buf + at + 1, g->buf + end, g->len - end);
				g->len -= end - (at + 1);
				insert(g, at + 1, s, strlen(s));
				break;
			}
			case 0:
				g->buf[at] ^= (unsigned char) (1u << below(g, 8));
				break;
			case 1:
				g->buf[at] = (unsigned char) interesting[below(g, sizeof(interesting) - 1)];
				break;
			case 2:
				n = 1 + below(g, 3);
				for (k = 0; k < n; k++) {
					bytes[k] = chance(g, 50) ? (unsigned char) interesting[below(g, sizeof(interesting) - 1)]
						: (unsigned char) below(g, 256);
				}
				insert(g, at, bytes, n);
				break;
			case 3:
				n = 1 + below(g, 16);
				if (n > g->len - at) {
					n = g->len - at;
				}
				memmove(g->buf + at, g->buf + at + n, g->len - at - n);
				g->len -= n;
				break;
			case 4:
				g->len = at;
				break;
			case 5: { /* duplicate a slice somewhere */
				unsigned char slice[64];
				n = 1 + below(g, sizeof(slice));
				if (n > g->len - at) {
					n = g->len - at;
				}
				memcpy(slice, g->buf + at, n);
				insert(g, below(g, g->len + 1), slice, n);
				break;
			}
			case 6: { /* tamper with a number: a leading zero or sign, a digit, more digits */
				static const char *const junk[] = {"0", "-", "+", " ", "00", "-0", "9", "99999999999999999999", "4611686018427387904", "2147483648"};
				const char *s = junk[below(g, sizeof(junk) / sizeof(junk[0]))];
				at = some_line_start(g);
				insert(g, at + 1 <= g->len ? at + 1 : at, s, strlen(s));
				break;
			}
			case 7: /* another type byte */
				at = some_line_start(g);
				g->buf[at] = (unsigned char) "+-:$*x\r"[below(g, 7)];
				break;
			default: /* shorten or lengthen a bulk string's announced length */
				at = some_line_start(g);
				if (g->buf[at] == '$' || g->buf[at] == '*') {
					for (n = at + 1; n < g->len && g->buf[n] >= '0' && g->buf[n] <= '9'; n++) {
					}
					if (n > at + 1) {
						g->buf[n - 1] = (unsigned char) ('0' + below(g, 10));
					}
				}
		}
	}
}

/* ---------------------------------------------------------------------------------------- */
/* The valid streams against what the generator wrote */

static int check_expected(const gen *g, const rc_run *rl, const rc_run *hr)
{
	size_t want_rl = g->rl_fails_at == SIZE_MAX ? g->expected.count : g->rl_fails_at;
	size_t want_hr = g->hiredis_fails_at == SIZE_MAX ? g->expected.count : g->hiredis_fails_at;
	size_t i;
	int truncated;

	for (i = 0; i < rl->count && i < g->expected.count; i++) {
		if (!rc_item_match(&rl->items[i], &g->expected.items[i], &truncated) || rl->items[i].to != g->expected.items[i].to) {
			rc_note_item("rl_reader", &rl->items[i]);
			rc_note_item("written", &g->expected.items[i]);
			return rc_fail("valid stream: rl_reader's reply %zu is not what was written", i);
		}
	}
	if (rl->count != want_rl || rl->failed != (g->rl_fails_at != SIZE_MAX)) {
		return rc_fail("valid stream: rl_reader gave %zu replies%s%s, expected %zu%s", rl->count, rl->failed ? " then " : "",
			rl->failed ? rl->error : "", want_rl, g->rl_fails_at != SIZE_MAX ? " then an error (arrays nested too deep)" : "");
	}
	if (rl->failed && strstr(rl->error, "nested") == NULL) {
		return rc_fail("valid stream: rl_reader's error is \"%s\", expected arrays nested too deep", rl->error);
	}
	if (!rl->failed && !rl->idle) {
		return rc_fail("valid stream: rl_reader not idle after every reply was read");
	}
	/* the generator's model of hiredis, which also checks the generator */
	for (i = 0; i < hr->count && i < g->expected.count; i++) {
		const rc_item *a = &hr->items[i], *b = &g->expected.items[i];
		if (!rc_item_same(a, b) || a->to != b->to) {
			rc_note_item("hiredis", a);
			rc_note_item("written", b);
			return rc_fail("valid stream: hiredis' reply %zu is not what was written (generator bug?)", i);
		}
	}
	if (hr->count != want_hr || hr->failed != (g->hiredis_fails_at != SIZE_MAX) || (!hr->failed && !hr->idle)) {
		return rc_fail("valid stream: hiredis gave %zu replies%s%s, expected %zu (generator bug?)", hr->count,
			hr->failed ? " then " : "", hr->failed ? hr->error : "", want_hr);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */

static uint64_t stream_seed(uint64_t seed, uint64_t index)
{
	uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL);
	return rc_rand(&state);
}

int main(int argc, char **argv)
{
	uint64_t seed = DEFAULT_SEED;
	unsigned long long count = DEFAULT_COUNT, first = 0, index;
	unsigned long long mismatches = 0, valid = 0, mutated = 0, bytes = 0, deep_valid = 0;
	const char *dump = NULL;
	int positional = 0, quiet = 0, i;
	rc_stats stats;
	gen g;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--stream") == 0 && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 0);
			count = 1;
			positional = 2;
		} else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
			dump = argv[++i];
		} else if (strcmp(argv[i], "--quiet") == 0) {
			quiet = 1;
		} else if (argv[i][0] != '-' && positional == 0) {
			seed = strtoull(argv[i], NULL, 0);
			positional = 1;
		} else if (argv[i][0] != '-' && positional == 1) {
			count = strtoull(argv[i], NULL, 0);
			positional = 2;
		} else {
			fprintf(stderr, "usage: %s [SEED [COUNT]] [--stream INDEX] [--dump FILE] [--quiet]\n", argv[0]);
			return 2;
		}
	}
	memset(&stats, 0, sizeof(stats));
	memset(&g, 0, sizeof(g));
	for (index = first; index < first + count; index++) {
		rc_run bytewise, hiredis;
		int is_valid, bad;

		g.rng = stream_seed(seed, index);
		is_valid = chance(&g, 40);
		gen_stream(&g, !is_valid);
		if (is_valid) {
			valid++;
			deep_valid += g.hiredis_fails_at != SIZE_MAX;
		} else {
			mutate(&g);
			mutated++;
		}
		bytes += g.len;
		if (dump != NULL) {
			FILE *f = fopen(dump, "wb");
			if (f == NULL || fwrite(g.buf, 1, g.len, f) != g.len || fclose(f) != 0) {
				perror(dump);
				return 2;
			}
		}
		bad = rc_check_stream(g.buf, g.len, rc_rand(&g.rng), &stats, &bytewise, &hiredis);
		if (!bad && is_valid) {
			bad = check_expected(&g, &bytewise, &hiredis);
		}
		if (bad) {
			mismatches++;
			if (mismatches <= MAX_REPORTS) {
				fprintf(stderr, "reader_diff: MISMATCH in %s stream %llu of seed %llu (%zu bytes): %s\n",
					is_valid ? "valid" : "mutated", index, (unsigned long long) seed, g.len, rc_why);
				fprintf(stderr, "%s  replay: reader_diff %llu --stream %llu [--dump FILE]\n  stream: ", rc_detail,
					(unsigned long long) seed, index);
				rc_escape(stderr, g.buf, g.len, 65536);
				fputc('\n', stderr);
			}
		}
		rc_run_free(&bytewise);
		rc_run_free(&hiredis);
	}
	if (!quiet) {
		printf("reader_diff: seed %llu: %llu valid streams (%llu beyond the nesting limit), %llu mutated, %llu bytes; "
			"%llu long lines compared as a prefix; both refused %llu; hiredis alone refused %llu (leading zero or -0: %llu, "
			"empty array at level 9: %llu, before rl_reader had the whole line: %llu)\n",
			(unsigned long long) seed, valid, deep_valid, mutated, bytes, stats.truncated, stats.both_refused,
			stats.hiredis_numbers + stats.hiredis_depth + stats.hiredis_early, stats.hiredis_numbers, stats.hiredis_depth,
			stats.hiredis_early);
	}
	printf("reader_diff: %llu streams, %llu replies compared, %llu stricter-than-hiredis, %llu mismatches\n", count,
		stats.compared, stats.stricter, mismatches);
	rc_run_free(&g.expected);
	free(g.buf);
	return mismatches ? 1 : 0;
}
