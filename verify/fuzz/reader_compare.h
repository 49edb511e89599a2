/* Shared by verify/fuzz/reader_diff.c (deterministic, for CI) and verify/fuzz/reply_fuzz.c (libFuzzer): runs
 * a byte stream through rl_reader in a given chunking and through hiredis' reader in one go,
 * and compares the top-level replies; also checks rl_reply_classify() on every reply.
 * Header-only (static functions): include it once per program, build with -Iext, link
 * ext/protocol/rl_hiredis_reader.c, ext/protocol/rl_reply.c and -lhiredis.
 *
 * rl_reader is hiredis' redisReader with object functions that keep only what a vote needs
 * (ext/protocol/rl_hiredis_reader.h). What this checks is that wrapper: the same replies as hiredis' own
 * objects in every chunking, each given out in the chunk where its last byte arrived, a status
 * or error text cut to RL_READER_LINE_HEAD bytes, the idle state, a sticky error. hiredis
 * refuses an array at the 9th level even when empty or nil ("depth > 7"); rl_reader does too,
 * under every hiredis version. The leniency counters below (stricter, hiredis_*) date from the
 * reader we wrote before hiredis parsed every reply; they must stay 0 now.
 * The reference hiredis run uses reply-object functions that allocate only for the top-level
 * reply: hiredis.c's createArrayObject() callocs the announced element count
 * ("*2147483647\r\n": 16 GB), which would stop the comparison on mutated inputs for a reason
 * that is not about parsing. */
#ifndef RL_READER_COMPARE_H
#define RL_READER_COMPARE_H

#include <hiredis/read.h>

#include "reader_runs.h"

/* ---------------------------------------------------------------------------------------- */
/* hiredis' reader in one go */

typedef struct rc_hobj {
	int type;
	long long integer;
	char *text;
	size_t len;
} rc_hobj;

static char rc_hchild; /* nested elements: hiredis only needs a non-NULL pointer for them */

static rc_hobj *rc_hnew(const redisReadTask *task, int type, long long integer)
{
	rc_hobj *obj;

	if (task->parent != NULL) {
		return (rc_hobj *) (void *) &rc_hchild;
	}
	obj = calloc(1, sizeof(*obj));
	if (obj == NULL) {
		abort();
	}
	obj->type = type;
	obj->integer = integer;
	return obj;
}

static void *rc_hstring(const redisReadTask *task, char *str, size_t len)
{
	int type = task->type == REDIS_REPLY_STATUS ? RL_REPLY_STATUS
		: task->type == REDIS_REPLY_ERROR ? RL_REPLY_ERROR : RL_REPLY_STRING;
	rc_hobj *obj = rc_hnew(task, type, (long long) len);

	if (obj != (void *) &rc_hchild && type != RL_REPLY_STRING) {
		obj->text = malloc(len ? len : 1);
		if (obj->text == NULL) {
			abort();
		}
		if (len) {
			memcpy(obj->text, str, len);
		}
		obj->len = len;
	}
	return obj;
}

static void *rc_harray(const redisReadTask *task, int elements)
{
	return rc_hnew(task, RL_REPLY_ARRAY, elements);
}

static void *rc_hinteger(const redisReadTask *task, long long value)
{
	return rc_hnew(task, RL_REPLY_INTEGER, value);
}

static void *rc_hnil(const redisReadTask *task)
{
	return rc_hnew(task, RL_REPLY_NIL, -1);
}

static void rc_hfree(void *ptr)
{
	if (ptr != NULL && ptr != (void *) &rc_hchild) {
		free(((rc_hobj *) ptr)->text);
		free(ptr);
	}
}

static redisReplyObjectFunctions rc_hfunctions = {rc_hstring, rc_harray, rc_hinteger, rc_hnil, rc_hfree};

static void rc_run_hiredis(const unsigned char *data, size_t size, rc_run *run)
{
	redisReader *reader = redisReaderCreateWithFunctions(&rc_hfunctions);

	memset(run, 0, sizeof(*run));
	if (reader == NULL || (size > 0 && redisReaderFeed(reader, (const char *) data, size) != REDIS_OK)) {
		abort(); /* out of memory */
	}
	for (;;) {
		void *obj = NULL;
		rc_hobj *reply;
		size_t end;

		if (redisReaderGetReply(reader, &obj) != REDIS_OK) {
			run->failed = 1;
			snprintf(run->error, sizeof(run->error), "%s", reader->errstr);
			break;
		}
		if (obj == NULL) {
			break;
		}
		reply = obj;
		end = size - (reader->len - reader->pos); /* hiredis drops consumed bytes now and then */
		rc_push(run, reply->type, reply->integer, reply->text, reply->len, end, end);
		rc_hfree(obj);
	}
	/* idle: every byte consumed and no reply begun (ridx 0 with no type yet is "waiting for
	 * the next type byte") */
	run->idle = !run->failed && reader->pos == reader->len
		&& (reader->ridx == -1 || (reader->ridx == 0 && reader->rstack[0].type < 0));
	redisReaderFree(reader);
}

/* ---------------------------------------------------------------------------------------- */
/* Comparisons */

typedef struct rc_stats {
	unsigned long long compared;        /* rl_reader replies found equal in hiredis' */
	unsigned long long stricter;        /* rl_reader refused bytes hiredis accepted or was still reading */
	unsigned long long both_refused;    /* both refused at the same reply */
	unsigned long long hiredis_numbers; /* hiredis refused a reply for a "-0" / leading-zero number */
	unsigned long long hiredis_depth;   /* hiredis refused a reply for an empty or nil array at level 9 */
	unsigned long long hiredis_early;   /* hiredis refused bytes rl_reader was still reading */
	unsigned long long truncated;       /* long status/error lines compared as a prefix */
} rc_stats;

/* rl_reader's text for a line whose full text is full: equal, or for a line longer than
 * RL_READER_LINE_HEAD, its first RL_READER_LINE_HEAD bytes. */
static int rc_text_ok(const char *text, size_t len, const char *full, size_t full_len, int *truncated)
{
	*truncated = 0;
	if (full_len <= RL_READER_LINE_HEAD) {
		return len == full_len && (len == 0 || memcmp(text, full, len) == 0);
	}
	*truncated = 1;
	return len == RL_READER_LINE_HEAD && memcmp(text, full, len) == 0;
}

/* An rl_reader reply against hiredis' (or the generator's) for the same bytes. */
static int rc_item_match(const rc_item *rl, const rc_item *full, int *truncated)
{
	*truncated = 0;
	if (rl->type != full->type) {
		return 0;
	}
	switch (rl->type) {
		case RL_REPLY_STATUS:
		case RL_REPLY_ERROR:
			return rc_text_ok(rl->text, rl->len, full->text, full->len, truncated);
		case RL_REPLY_NIL:
			return 1;
		default:
			return rl->integer == full->integer;
	}
}

/* Two rl_reader replies: identical. */
static int rc_item_same(const rc_item *a, const rc_item *b)
{
	return a->type == b->type && a->integer == b->integer && a->len == b->len
		&& (a->len == 0 || memcmp(a->text, b->text, a->len) == 0);
}

/* rl_reader in another chunking against rl_reader fed byte by byte (whose "to" is the exact
 * end of each reply): the same replies and outcome, each given out during the chunk in which
 * its last byte arrived. */
static int rc_same_run(const rc_run *bytewise, const rc_run *other, const char *label)
{
	size_t i;

	for (i = 0; i < bytewise->count && i < other->count; i++) {
		const rc_item *a = &bytewise->items[i], *b = &other->items[i];
		if (!rc_item_same(a, b)) {
			rc_note_item("byte by byte", a);
			rc_note_item(label, b);
			return rc_fail("rl_reader: reply %zu differs fed byte by byte and %s", i, label);
		}
		if (!(b->from < a->to && a->to <= b->to)) {
			return rc_fail("rl_reader: reply %zu ends at byte %zu but %s gave it out in the chunk (%zu, %zu]",
				i, a->to, label, b->from, b->to);
		}
	}
	if (bytewise->count != other->count) {
		return rc_fail("rl_reader: %zu replies fed byte by byte, %zu %s", bytewise->count, other->count, label);
	}
	if (bytewise->failed != other->failed || strcmp(bytewise->error, other->error) != 0) {
		return rc_fail("rl_reader: after %zu replies, byte by byte: %s; %s: %s", bytewise->count,
			bytewise->failed ? bytewise->error : "no error", label, other->failed ? other->error : "no error");
	}
	if (bytewise->failed && !(other->fail_from < bytewise->fail_to && bytewise->fail_to <= other->fail_to)) {
		return rc_fail("rl_reader: error at byte %zu byte by byte, in the chunk (%zu, %zu] %s", bytewise->fail_to,
			other->fail_from, other->fail_to, label);
	}
	if (bytewise->idle != other->idle) {
		return rc_fail("rl_reader: idle at the end %d byte by byte, %d %s", bytewise->idle, other->idle, label);
	}
	return 0;
}

/* rl_reader's documented grammar for a number, written again here: an optional '-', 1 to 19
 * digits, within long long; for a length also -1 to 2^62. */
static int rc_rl_number(const unsigned char *p, size_t len, int is_length, long long *value)
{
	unsigned long long magnitude = 0, limit;
	size_t i = 0, digits;
	int negative = len > 0 && p[0] == '-';

	i = (size_t) negative;
	digits = len - i;
	if (digits < 1 || digits > 19) {
		return 0;
	}
	for (; i < len; i++) {
		if (p[i] < '0' || p[i] > '9') {
			return 0;
		}
		magnitude = magnitude * 10 + (unsigned) (p[i] - '0'); /* 19 digits fit in 64 bits */
	}
	limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
	if (magnitude > limit) {
		return 0;
	}
	*value = negative ? (magnitude == limit ? LLONG_MIN : -(long long) magnitude) : (long long) magnitude;
	return !is_length || (*value >= -1 && *value <= (1LL << 62));
}

/* What string2ll() in hiredis 0.14.1 takes: "0" or -?[1-9][0-9]* (range aside). */
static int rc_canonical(const unsigned char *p, size_t len)
{
	size_t i = len > 0 && p[0] == '-';
	if (len == 1 && p[0] == '0') {
		return 1;
	}
	return i < len && p[i] >= '1' && p[i] <= '9';
}

/* Walks one reply rl_reader accepted, in its bytes; returns what hiredis 0.14.1 refuses in it
 * first: 'n' a number of rl_reader's grammar that string2ll() refuses (leading zero, "-0"),
 * 'd' an array at the 9th level; or 'x' something rl_reader's own grammar refuses (it should
 * not have accepted it); 0 nothing. */
static int rc_walk(const unsigned char *p, size_t len, size_t *pos, int level)
{
	const unsigned char *line, *cr;
	size_t line_len;
	long long value = 0;
	unsigned char type;
	int found;

	if (*pos >= len) {
		return 'x'; /* the reply ends before its elements */
	}
	type = p[*pos];
	if (type == '*' && level == 8) {
		return 'd'; /* hiredis checks the depth before it reads the count */
	}
	line = p + *pos + 1;
	for (cr = line; cr + 1 < p + len && !(cr[0] == '\r' && cr[1] == '\n'); cr++) {
	}
	if (cr + 1 >= p + len) {
		return 'x';
	}
	line_len = (size_t) (cr - line);
	*pos = (size_t) (cr - p) + 2;
	if (type == '+' || type == '-') {
		return 0;
	}
	if (type != ':' && type != '$' && type != '*') {
		return 'x';
	}
	if (!rc_rl_number(line, line_len, type != ':', &value)) {
		return 'x';
	}
	if (!rc_canonical(line, line_len)) {
		return 'n';
	}
	if (type == '$' && value >= 0) {
		if ((unsigned long long) value + 2 > len - *pos) {
			return 'x';
		}
		*pos += (size_t) value + 2;
	} else if (type == '*') {
		long long i;
		for (i = 0; i < value; i++) {
			if ((found = rc_walk(p, len, pos, level + 1)) != 0) {
				return found;
			}
		}
	}
	return 0;
}

static int rc_hiredis_rejects(const unsigned char *p, size_t len)
{
	size_t pos = 0;
	int found = rc_walk(p, len, &pos, 0);
	return found == 0 && pos != len ? 'x' : found;
}

/* rl_reader fed byte by byte against hiredis. 1 (and rc_why) on a mismatch. */
static int rc_compare_hiredis(const unsigned char *data, size_t size, const rc_run *rl, const rc_run *hr, rc_stats *stats)
{
	size_t i;

	for (i = 0; i < rl->count; i++) {
		const rc_item *mine = &rl->items[i];
		int truncated;

		if (i < hr->count) {
			if (!rc_item_match(mine, &hr->items[i], &truncated)) {
				rc_note_item("rl_reader", mine);
				rc_note_item("hiredis", &hr->items[i]);
				return rc_fail("reply %zu differs", i);
			}
			if (mine->to != hr->items[i].to) {
				return rc_fail("reply %zu: rl_reader gave it out after byte %zu, hiredis' ends at byte %zu", i,
					mine->to, hr->items[i].to);
			}
			stats->compared++;
			stats->truncated += (unsigned) truncated;
			continue;
		}
		if (hr->failed) {
			size_t start = i > 0 ? rl->items[i - 1].to : 0;
			int why = rc_hiredis_rejects(data + start, mine->to - start);

			if (why == 'n' && (strcmp(hr->error, "Bad integer value") == 0 || strcmp(hr->error, "Bad bulk string length") == 0
					|| strcmp(hr->error, "Bad multi-bulk length") == 0)) {
				stats->hiredis_numbers++;
				return 0;
			}
			if (why == 'd' && strstr(hr->error, "nested multi bulk") != NULL) {
				stats->hiredis_depth++;
				return 0;
			}
			rc_note_item("rl_reader", mine);
			if (why == 'x') {
				return rc_fail("reply %zu: rl_reader gave a reply for bytes outside its own grammar (hiredis: %s)", i, hr->error);
			}
			return rc_fail("reply %zu: rl_reader gave a reply, hiredis refused it: %s", i, hr->error);
		}
		rc_note_item("rl_reader", mine);
		return rc_fail("reply %zu: rl_reader gave a reply for bytes hiredis still reads as incomplete", i);
	}
	if (rl->failed) {
		if (hr->failed && hr->count == rl->count) {
			stats->both_refused++;
		} else {
			stats->stricter++;
		}
		return 0;
	}
	/* rl_reader took every byte without an error */
	if (hr->count > rl->count) {
		rc_note_item("hiredis", &hr->items[rl->count]);
		return rc_fail("reply %zu: hiredis gave it, rl_reader neither gave it nor refused the stream", rl->count);
	}
	if (hr->failed) {
		stats->hiredis_early++; /* e.g. an unknown type byte before its line ends */
		return 0;
	}
	if (rl->idle != hr->idle) {
		return rc_fail("after all %zu bytes: rl_reader idle %d, hiredis idle %d", size, rl->idle, hr->idle);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* rl_reply_classify() on one reply */

static int rc_check_classify(const rc_item *item)
{
	static const rl_expect expects[] = {RL_EXPECT_OK, RL_EXPECT_POSITIVE_INT};
	int is_text = item->type == RL_REPLY_STATUS || item->type == RL_REPLY_ERROR;
	size_t e;

	for (e = 0; e < sizeof(expects) / sizeof(expects[0]); e++) {
		rl_expect expect = expects[e];
		int want_yes = (expect == RL_EXPECT_OK && item->type == RL_REPLY_STATUS && item->len == 2
				&& memcmp(item->text, "OK", 2) == 0)
			|| (expect == RL_EXPECT_POSITIVE_INT && item->type == RL_REPLY_INTEGER && item->integer > 0);
		int may_be_taken = (expect == RL_EXPECT_OK && item->type == RL_REPLY_NIL)
			|| (expect == RL_EXPECT_POSITIVE_INT && item->type == RL_REPLY_INTEGER && item->integer <= 0);

		{
			rl_reply reply;
			rl_outcome out;
			const char *nul;
			size_t i;

			memset(&reply, 0, sizeof(reply));
			reply.type = (rl_reply_type) item->type;
			reply.integer = item->integer;
			reply.str = is_text ? item->text : NULL; /* exactly len bytes, no NUL after them */
			reply.len = is_text ? item->len : 0;
			memset(&out, 0x5a, sizeof(out)); /* classify must fill what it reports */
			rl_reply_classify(&reply, expect, &out);
			nul = memchr(out.message, '\0', sizeof(out.message));
			if (nul == NULL) {
				return rc_fail("classify(expect %d): message not NUL-terminated", (int) expect);
			}
			for (i = 0; out.message + i < nul; i++) {
				unsigned char ch = (unsigned char) out.message[i];
				if (ch < 0x20 || ch == 0x7f) {
					return rc_fail("classify(expect %d): byte 0x%02x in the message", (int) expect,
						ch);
				}
			}
			if (out.kind != RL_OUTCOME_YES && out.kind != RL_OUTCOME_TAKEN && out.kind != RL_OUTCOME_ERROR) {
				return rc_fail("classify(expect %d): outcome kind %d", (int) expect, (int) out.kind);
			}
			if ((out.kind == RL_OUTCOME_YES) != want_yes) {
				return rc_fail("classify(expect %d): kind %d for a %s reply", (int) expect,
					(int) out.kind, rc_type_name(item->type));
			}
			if (out.kind == RL_OUTCOME_TAKEN && !may_be_taken) {
				return rc_fail("classify(expect %d): TAKEN for a %s reply", (int) expect,
					rc_type_name(item->type));
			}
			if (item->type == RL_REPLY_ERROR && out.kind != RL_OUTCOME_ERROR) {
				return rc_fail("classify(expect %d): an error reply gave kind %d", (int) expect,
					(int) out.kind);
			}
			if (expect == RL_EXPECT_POSITIVE_INT && item->type == RL_REPLY_INTEGER && out.integer != item->integer) {
				return rc_fail("classify: integer %lld reported as %lld", item->integer, out.integer);
			}
		}
	}
	/* rl_reply_classify_row(): a status line answering for one row per character (rl_request.spread):
	 * '1' a yes, '0' a clean no, anything else an error, row by row */
	if (item->type == RL_REPLY_STATUS && item->len > 0 && item->len < RL_READER_LINE_HEAD) {
		rl_reply reply;
		rl_outcome out;
		size_t j;

		memset(&reply, 0, sizeof(reply));
		reply.type = RL_REPLY_STATUS;
		reply.str = item->text;
		reply.len = item->len;
		for (j = 0; j < item->len; j++) {
			char c = item->text[j];
			rl_outcome_kind want = c == '1' ? RL_OUTCOME_YES : c == '0' ? RL_OUTCOME_TAKEN : RL_OUTCOME_ERROR;

			memset(&out, 0x5a, sizeof(out));
			rl_reply_classify_row(&reply, RL_EXPECT_POSITIVE_INT, (unsigned) item->len, (unsigned) j, &out);
			if (out.kind != want || memchr(out.message, '\0', sizeof(out.message)) == NULL) {
				return rc_fail("classify_row: row %zu of a %zu-character line: kind %d", j, item->len, (int) out.kind);
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Everything for one stream, as both programs do it: rl_reader byte by byte, in whole rooms
 * and in two chunkings from chunk_seed; hiredis; every reply classified. On success *bytewise
 * and *hiredis are left filled for the caller (free them with rc_run_free). */
static int rc_check_stream(const unsigned char *data, size_t size, uint64_t chunk_seed, rc_stats *stats,
	rc_run *bytewise, rc_run *hiredis)
{
	static const struct { int mode; const char *label; } modes[] = {
		{RC_CHUNK_ROOM, "in whole rooms"},
		{RC_CHUNK_RANDOM, "in random chunks"},
		{RC_CHUNK_SMALL, "in chunks of 1 to 7 bytes"},
	};
	rc_chunker chunker;
	size_t m, i;

	rc_reset_notes();
	memset(hiredis, 0, sizeof(*hiredis));
	chunker.mode = RC_CHUNK_BYTE;
	chunker.state = 0;
	if (rc_run_rl(data, size, &chunker, bytewise)) {
		return 1;
	}
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		rc_run other;
		int bad;

		chunker.mode = modes[m].mode;
		chunker.state = chunk_seed + m;
		bad = rc_run_rl(data, size, &chunker, &other) || rc_same_run(bytewise, &other, modes[m].label);
		rc_run_free(&other);
		if (bad) {
			return 1;
		}
	}
	for (i = 0; i < bytewise->count; i++) {
		if (rc_check_classify(&bytewise->items[i])) {
			size_t n = strlen(rc_why);
			snprintf(rc_why + n, sizeof(rc_why) - n, " (reply %zu)", i);
			return 1;
		}
	}
	rc_run_hiredis(data, size, hiredis);
	return rc_compare_hiredis(data, size, bytewise, hiredis, stats);
}

#endif
