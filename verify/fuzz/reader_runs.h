/* The rl_reader side of verify/fuzz/reader_compare.h: small utilities, the record of a run (its
 * top-level replies with their offsets), the chunkers, and a run of a byte stream through
 * rl_reader in a given chunking. Header-only; included by reader_compare.h. */
#ifndef RL_READER_RUNS_H
#define RL_READER_RUNS_H

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/rl_hiredis_reader.h"
#include "protocol/rl_reply.h"

/* ---------------------------------------------------------------------------------------- */
/* Small utilities */

static uint64_t rc_rand(uint64_t *state) /* splitmix64 */
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the bias is irrelevant here). */
static size_t rc_below(uint64_t *state, size_t n)
{
	return (size_t) (rc_rand(state) % n);
}

static char rc_why[1024];    /* what the last failed check found */
static char rc_detail[4096]; /* the replies it was about, if any */
static size_t rc_detail_len;

static void rc_vappend(char *buf, size_t cap, size_t *len, const char *fmt, va_list ap)
{
	int n;
	if (*len + 1 >= cap) {
		return;
	}
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	if (n > 0) {
		*len += (size_t) n < cap - *len ? (size_t) n : cap - *len - 1;
	}
}

static int rc_fail(const char *fmt, ...)
{
	size_t len = 0;
	va_list ap;
	va_start(ap, fmt);
	rc_vappend(rc_why, sizeof(rc_why), &len, fmt, ap);
	va_end(ap);
	return 1;
}

static void rc_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rc_vappend(rc_detail, sizeof(rc_detail), &rc_detail_len, fmt, ap);
	va_end(ap);
}

static void rc_reset_notes(void)
{
	rc_detail[0] = '\0';
	rc_detail_len = 0;
	rc_why[0] = '\0';
}

/* Bytes as the body of a C string literal, at most max bytes of them, through note() or to a
 * file. */
static void rc_escape(FILE *to, const void *bytes, size_t len, size_t max)
{
	const unsigned char *p = bytes;
	size_t i;

#define RC_OUT(...) (to ? (void) fprintf(to, __VA_ARGS__) : rc_note(__VA_ARGS__))
	RC_OUT("\"");
	for (i = 0; i < len && i < max; i++) {
		unsigned char ch = p[i];
		if (ch == '\r') {
			RC_OUT("\\r");
		} else if (ch == '\n') {
			RC_OUT("\\n");
		} else if (ch == '\\' || ch == '"') {
			RC_OUT("\\%c", ch);
		} else if (ch >= 0x20 && ch < 0x7f) {
			RC_OUT("%c", ch);
		} else {
			RC_OUT("\\x%02x", ch);
			/* a hex digit next would extend the escape: close and reopen the literal */
			if (i + 1 < len && i + 1 < max && p[i + 1] != 0 && strchr("0123456789abcdefABCDEF", p[i + 1]) != NULL) {
				RC_OUT("\"\"");
			}
		}
	}
	RC_OUT("\"");
	if (len > max) {
		RC_OUT(" ... (%zu bytes in all)", len);
	}
#undef RC_OUT
}

static const char *rc_type_name(int type)
{
	switch (type) {
		case RL_REPLY_STATUS: return "STATUS";
		case RL_REPLY_ERROR: return "ERROR";
		case RL_REPLY_INTEGER: return "INTEGER";
		case RL_REPLY_NIL: return "NIL";
		case RL_REPLY_STRING: return "STRING";
		case RL_REPLY_ARRAY: return "ARRAY";
		default: return "?";
	}
}

/* ---------------------------------------------------------------------------------------- */
/* A run: the top-level replies one reader gave for one stream */

typedef struct rc_item {
	int type;          /* rl_reply_type */
	long long integer; /* INTEGER: the value; STRING: the length; ARRAY: the count; NIL: -1 */
	char *text;        /* STATUS and ERROR: a copy of exactly len bytes (no NUL), else NULL */
	size_t len;
	size_t from, to;   /* rl_reader: bytes fed before and after the chunk during which it came
	                      out; hiredis and the generator: both are the reply's end offset */
} rc_item;

typedef struct rc_run {
	rc_item *items;
	size_t count, cap;
	int failed;                 /* rl_reader returned -1, or hiredis reported an error */
	char error[128];
	size_t fail_from, fail_to;  /* like from/to, for the error */
	int idle;                   /* after the last byte: nothing buffered and no reply begun */
} rc_run;

static void rc_run_free(rc_run *run)
{
	size_t i;
	for (i = 0; i < run->count; i++) {
		free(run->items[i].text);
	}
	free(run->items);
	memset(run, 0, sizeof(*run));
}

static rc_item *rc_push(rc_run *run, int type, long long integer, const char *text, size_t len, size_t from, size_t to)
{
	rc_item *item;

	if (run->count == run->cap) {
		run->cap = run->cap ? run->cap * 2 : 16;
		run->items = realloc(run->items, run->cap * sizeof(*run->items));
		if (run->items == NULL) {
			abort();
		}
	}
	item = &run->items[run->count++];
	item->type = type;
	/* what a type does not define is left out of comparisons */
	item->integer = type == RL_REPLY_STATUS || type == RL_REPLY_ERROR ? 0 : type == RL_REPLY_NIL ? -1 : integer;
	item->text = NULL;
	item->len = 0;
	if (type == RL_REPLY_STATUS || type == RL_REPLY_ERROR) {
		item->text = malloc(len ? len : 1); /* exactly len: ASan sees any read past the text */
		if (item->text == NULL) {
			abort();
		}
		if (len) {
			memcpy(item->text, text, len);
		}
		item->len = len;
	}
	item->from = from;
	item->to = to;
	return item;
}

/* "  label: the item\n" into the notes */
static void rc_note_item(const char *label, const rc_item *item)
{
	rc_note("  %s: %s", label, rc_type_name(item->type));
	if (item->type == RL_REPLY_STATUS || item->type == RL_REPLY_ERROR) {
		rc_note(" (%zu bytes) ", item->len);
		rc_escape(NULL, item->text, item->len, 200);
	} else if (item->type != RL_REPLY_NIL) {
		rc_note(" %lld", item->integer);
	}
	rc_note(", given out in (%zu, %zu]\n", item->from, item->to);
}

/* ---------------------------------------------------------------------------------------- */
/* rl_reader in a given chunking */

enum { RC_CHUNK_BYTE, RC_CHUNK_ROOM, RC_CHUNK_RANDOM, RC_CHUNK_SMALL };

typedef struct rc_chunker {
	int mode;
	uint64_t state;
} rc_chunker;

static size_t rc_chunk(rc_chunker *chunker, size_t room)
{
	size_t n;

	switch (chunker->mode) {
		case RC_CHUNK_BYTE:
			return 1;
		case RC_CHUNK_ROOM:
			return room;
		case RC_CHUNK_SMALL:
			n = 1 + rc_below(&chunker->state, 7);
			break;
		default:
			switch (rc_below(&chunker->state, 5)) {
				case 0: n = 1 + rc_below(&chunker->state, 4); break;
				case 1: n = 1 + rc_below(&chunker->state, 40); break;
				case 2: n = 1 + rc_below(&chunker->state, 300); break;
				case 3: n = 1 + rc_below(&chunker->state, room); break;
				default: n = room; break;
			}
	}
	return n < room ? n : room;
}

static int rc_in(const char *p, size_t len, const char *area, size_t size)
{
	return p >= area && p <= area + size && len <= (size_t) (area + size - p);
}

/* Feeds data to a fresh rl_reader in the chunker's sizes, calling rl_reader_next until it says
 * 0 after each chunk, as the extension does. Fills *run. 1 (and rc_why) when the reader broke
 * its own contract on the way. */
static int rc_run_rl(const unsigned char *data, size_t size, rc_chunker *chunker, rc_run *run)
{
	rl_reader *reader = malloc(sizeof(*reader)); /* on the heap: ASan sees a write past it */
	size_t fed = 0;
	int broke = 0;

	memset(run, 0, sizeof(*run));
	if (reader == NULL) {
		abort();
	}
	rl_reader_init(reader);
	if (!rl_reader_idle(reader)) {
		broke = rc_fail("rl_reader: not idle after init");
	}
	while (!broke) {
		size_t before = fed;

		if (fed < size) {
			size_t room = 0, n;
			char *at;

			at = rl_reader_space(reader, &room);
			if (at == NULL || room == 0 || room > RL_READER_BUFFER) {
				broke = rc_fail("rl_reader_space: room %zu", room);
				break;
			}
			n = rc_chunk(chunker, room);
			if (n > size - fed) {
				n = size - fed;
			}
			memcpy(at, data + fed, n);
			rl_reader_fed(reader, n);
			fed += n;
		}
		for (;;) {
			rl_reply reply;
			int got;

			memset(&reply, 0xa5, sizeof(reply));
			got = rl_reader_next(reader, &reply);
			if (got == 0) {
				break;
			}
			if (got == -1) {
				const char *why = rl_reader_error(reader);
				if (why == NULL) {
					broke = rc_fail("rl_reader_next: -1 with no error message (at byte %zu)", fed);
					break;
				}
				run->failed = 1;
				snprintf(run->error, sizeof(run->error), "%s", why);
				run->fail_from = before;
				run->fail_to = fed;
				if (rl_reader_next(reader, &reply) != -1 || rl_reader_error(reader) == NULL || rl_reader_idle(reader)) {
					broke = rc_fail("rl_reader: error not sticky");
				}
				break;
			}
			if (got != 1) {
				broke = rc_fail("rl_reader_next returned %d", got);
				break;
			}
			switch (reply.type) {
				case RL_REPLY_STATUS:
				case RL_REPLY_ERROR:
					if (reply.str == NULL) {
						broke = rc_fail("rl_reader_next: %s text (%zu bytes) outside the reader", rc_type_name(reply.type), reply.len);
					}
					break;
				case RL_REPLY_NIL:
					if (reply.integer != -1) {
						broke = rc_fail("rl_reader_next: NIL with integer %lld", reply.integer);
					}
					break;
				case RL_REPLY_STRING:
				case RL_REPLY_ARRAY:
					if (reply.integer < 0) {
						broke = rc_fail("rl_reader_next: %s of %lld", rc_type_name(reply.type), reply.integer);
					}
					break;
				case RL_REPLY_INTEGER:
					break;
				default:
					broke = rc_fail("rl_reader_next: reply type %d", (int) reply.type);
			}
			if (broke) {
				break;
			}
			rc_push(run, reply.type, reply.integer, reply.str, reply.len, before, fed);
		}
		if (run->failed || fed == size) {
			break;
		}
	}
	run->idle = rl_reader_idle(reader);
	rl_reader_reset(reader);
	free(reader);
	return broke;
}

#endif
