/* A RESP2 reply reader that allocates nothing. See rl_reader.h. */
#include <string.h>

#include "net/rl_reader.h"

void rl_reader_init(rl_reader *reader)
{
	reader->start = 0;
	reader->end = 0;
	reader->skip = 0;
	reader->depth = 0;
	reader->long_kind = 0;
	reader->long_cr = 0;
	reader->head_len = 0;
	reader->error = NULL;
	reader->midway = 0;
}

char *rl_reader_compact(rl_reader *reader, size_t *room)
{
	if (reader->start > 0) {
		size_t pending = reader->end - reader->start;
		if (pending > 0) {
			memmove(reader->buf, reader->buf + reader->start, pending);
		}
		reader->start = 0;
		reader->end = pending;
	}
	if (reader->end == sizeof(reader->buf)) {
		/* Not reached when callers parse before reading again, as rl_conn does: rl_reader_next
		 * consumes complete replies and drops a line that fills the buffer (long-line mode).
		 * A guard: the stream fails rather than overruns. */
		reader->end = 0;
		reader->error = "protocol error: reply line too long";
		reader->midway = 1;
	}
	*room = sizeof(reader->buf) - reader->end;
	return reader->buf + reader->end;
}

static int fail(rl_reader *reader, const char *why)
{
	reader->error = why;
	return -1;
}

/* Strict: an optional '-' and 1 to 19 digits, nothing else. */
static int parse_integer(const char *p, size_t len, long long *value)
{
	unsigned long long magnitude = 0;
	int negative = 0;
	size_t i = 0;

	if (len > 0 && p[0] == '-') {
		negative = 1;
		i = 1;
	}
	if (i == len || len - i > 19) {
		return -1;
	}
	for (; i < len; i++) {
		unsigned digit = (unsigned) (unsigned char) p[i] - '0';
		if (digit > 9) {
			return -1;
		}
		magnitude = magnitude * 10 + digit;
	}
	if (magnitude > (unsigned long long) 9223372036854775807LL + (unsigned) negative) {
		return -1;
	}
	*value = negative ? (long long) (0 - magnitude) : (long long) magnitude;
	return 0;
}

/* One item is complete: closes the arrays it completes. 1 when a top-level reply is complete. */
static int item_done(rl_reader *reader)
{
	while (reader->depth > 0) {
		if (--reader->left[reader->depth - 1] > 0) {
			return 0;
		}
		reader->depth--;
	}
	return 1;
}

/* Drops the rest of a status or error line that did not fit in the buffer. 1 when its end was
 * found, 0 when more bytes are needed. */
static int drop_long_line(rl_reader *reader)
{
	while (reader->start < reader->end) {
		char ch = reader->buf[reader->start++];
		if (ch == '\n' && reader->long_cr) {
			return 1;
		}
		reader->long_cr = ch == '\r';
	}
	return 0;
}

/* Starts long-line mode for a line with no end in a full buffer. -1 when its kind has no
 * business being that long. */
static int begin_long_line(rl_reader *reader)
{
	const char *line = reader->buf + reader->start;
	size_t len = reader->end - reader->start;

	if (line[0] != '+' && line[0] != '-') {
		return fail(reader, "protocol error: reply line too long");
	}
	reader->long_kind = line[0];
	reader->head_len = len - 1 < sizeof(reader->head) ? len - 1 : sizeof(reader->head);
	memcpy(reader->head, line + 1, reader->head_len);
	reader->long_cr = line[len - 1] == '\r';
	reader->start = reader->end;
	return 0;
}

/* A line item: fills *item and returns 1, or 0 (needs bytes), or -1. */
static int take_line(rl_reader *reader, rl_reply *item)
{
	const char *line = reader->buf + reader->start;
	size_t avail = reader->end - reader->start, len;
	const char *cr;
	long long value;

	if (reader->long_kind) {
		if (!drop_long_line(reader)) {
			return 0;
		}
		item->type = reader->long_kind == '+' ? RL_REPLY_STATUS : RL_REPLY_ERROR;
		item->str = reader->head;
		item->len = reader->head_len;
		reader->long_kind = 0;
		return 1;
	}
	cr = avail > 1 ? memchr(line, '\r', avail - 1) : NULL;
	while (cr != NULL && cr[1] != '\n') {
		size_t used = (size_t) (cr - line) + 1;
		cr = used < avail - 1 ? memchr(cr + 1, '\r', avail - 1 - used) : NULL;
	}
	if (cr == NULL) {
		if (reader->start == 0 && reader->end == sizeof(reader->buf)) {
			return begin_long_line(reader) < 0 ? -1 : take_line(reader, item);
		}
		return 0;
	}
	len = (size_t) (cr - line);
	reader->start += len + 2;
	switch (line[0]) {
		case '+':
		case '-':
			item->type = line[0] == '+' ? RL_REPLY_STATUS : RL_REPLY_ERROR;
			item->str = line + 1;
			item->len = len - 1;
			return 1;
		case ':':
			if (parse_integer(line + 1, len - 1, &value) != 0) {
				return fail(reader, "protocol error: bad integer");
			}
			item->type = RL_REPLY_INTEGER;
			item->integer = value;
			return 1;
		case '$':
		case '*':
			/* Bounded so that the skip of a payload and its CRLF cannot overflow. */
			if (parse_integer(line + 1, len - 1, &value) != 0 || value < -1 || value > (1LL << 62)) {
				return fail(reader, "protocol error: bad length");
			}
			item->type = value == -1 ? RL_REPLY_NIL : line[0] == '$' ? RL_REPLY_STRING : RL_REPLY_ARRAY;
			item->integer = value;
			item->str = NULL;
			item->len = 0;
			return 1;
		default:
			return fail(reader, "protocol error: unknown reply type");
	}
}

static int next_any(rl_reader *reader, rl_reply *reply)
{
	if (reader->error != NULL) {
		return -1;
	}
	for (;;) {
		rl_reply item;
		int got;

		if (reader->skip > 0) {
			size_t avail = reader->end - reader->start;
			size_t drop = (unsigned long long) reader->skip < avail ? (size_t) reader->skip : avail;
			reader->start += drop;
			reader->skip -= (long long) drop;
			if (reader->skip > 0) {
				return 0;
			}
			if (item_done(reader)) {
				*reply = reader->top;
				return 1;
			}
			continue;
		}
		got = take_line(reader, &item);
		if (got <= 0) {
			return got;
		}
		if (reader->depth == 0) {
			reader->top = item;
		}
		if (item.type == RL_REPLY_STRING) {
			reader->skip = item.integer + 2; /* the payload and its CRLF */
			continue;
		}
		if (item.type == RL_REPLY_ARRAY && item.integer > 0) {
			if (reader->depth == RL_READER_DEPTH) {
				return fail(reader, "protocol error: arrays nested too deep");
			}
			reader->left[reader->depth++] = item.integer;
			continue;
		}
		if (item_done(reader)) {
			*reply = reader->top;
			return 1;
		}
	}
}

int rl_reader_next_any(rl_reader *reader, rl_reply *reply)
{
	int got = next_any(reader, reply);

	reader->midway = reader->depth != 0 || reader->skip != 0 || reader->long_kind != 0 || reader->error != NULL;
	return got;
}
