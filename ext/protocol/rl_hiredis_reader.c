/* The reply reader over hiredis' redisReader. See rl_hiredis_reader.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>
#include <hiredis/sds.h>

#include "protocol/rl_hiredis_reader.h"

/* hiredis 1.x passes an array's length as size_t and knows RESP3's doubles and booleans. */
#if HIREDIS_MAJOR >= 1
typedef size_t array_length;
#else
typedef int array_length;
#endif

/* What the object functions keep of the top-level reply; every task's privdata points here. */
struct rl_reader_kept {
	redisReader *parser;
	/* sdsalloc(parser->buf), kept where that buffer may move. The sds header's own length is
	 * brought up to parser->len (sync_length) only before something reads it: sdsMakeRoomFor,
	 * redisReaderFeed, and GetReply's trim of what it parsed, which hiredis 0.13 to 1.3 do once
	 * pos >= 1024 (HIREDIS_TRIM_AT). Keeping it current on every read cost two switches on the
	 * sds type per reply. */
	size_t capacity;
	rl_reply top;
	/* Why the stream is refused though hiredis parsed it, or NULL (one test per reply): a
	 * RESP3-only type (we never send HELLO 3), or an array at the 9th level (hiredis 1.x would
	 * grow its stack for it). */
	const char *refused;
	const char *watch; /* rl_reader_watch: the field looked up in the next top-level bulk string */
	char **capture;    /* rl_reader_capture: where the next top-level bulk string is copied whole */
	size_t *capture_len;
	int nest;                 /* rl_reader_nest */
	rl_reply_nested *nested;  /* the strings one level down of the reply being read (nest on) */
	size_t nested_cap;
	char head[RL_READER_LINE_HEAD];
	rl_reply_item items[RL_REPLY_ITEMS];
	char item_head[RL_REPLY_ITEMS][RL_REPLY_ITEM_HEAD];
};

#define REFUSED_FOREIGN "a RESP3 reply (the connection never asked for RESP3)"
#define REFUSED_TOO_DEEP "No support for nested multi bulk replies with depth > 7"
#define REFUSED_TOO_MANY "more than 16384 nested strings in one reply"

#define HIREDIS_TRIM_AT 1024

static void sync_length(redisReader *parser)
{
	sdssetlen(parser->buf, parser->len);
}

static struct rl_reader_kept *kept_of(const redisReadTask *task)
{
	return task->privdata;
}

/* An element of the top-level array that is kept (EXEC's), else NULL. */
static rl_reply_item *item_of(const redisReadTask *task)
{
	if (task->parent == NULL || task->parent->parent != NULL || task->idx < 0 || task->idx >= RL_REPLY_ITEMS) {
		return NULL;
	}
	return &kept_of(task)->items[task->idx];
}

/* A RESP3-only type: refused, unless the reply is already refused as too deep (said first). */
static void *foreign(const redisReadTask *task)
{
	struct rl_reader_kept *kept = kept_of(task);

	if (kept->refused == NULL) {
		kept->refused = REFUSED_FOREIGN;
	}
	return kept;
}

/* An element of a top-level array (EXEC's): off the path of a lock's one-line replies. */
static void keep_item(const redisReadTask *task, rl_reply_type type, long long integer)
{
	rl_reply_item *item = item_of(task);

	if (item != NULL) {
		item->type = type;
		item->integer = integer;
		item->str = NULL;
		item->len = 0;
	}
}

static inline void *keep(const redisReadTask *task, rl_reply_type type, long long integer)
{
	struct rl_reader_kept *kept = kept_of(task);

	if (task->parent == NULL) {
		kept->top.type = type;
		kept->top.integer = integer;
		kept->top.str = NULL;
		kept->top.len = 0;
		kept->top.items = kept->items;
		kept->top.nested = kept->nested;
		kept->top.nested_count = 0;
	} else {
		keep_item(task, type, integer);
	}
	return kept; /* any non-NULL object: NULL tells hiredis it ran out of memory */
}

/* The head of an element's string, kept as the top-level line's is. */
static void keep_item_head(const redisReadTask *task, const char *str, size_t len)
{
	rl_reply_item *item = item_of(task);
	struct rl_reader_kept *kept = kept_of(task);

	if (item != NULL) {
		item->len = len < RL_REPLY_ITEM_HEAD ? len : RL_REPLY_ITEM_HEAD;
		memcpy(kept->item_head[task->idx], str, item->len);
		item->str = kept->item_head[task->idx];
	}
}

/* The watched field's value in a top-level bulk string (INFO's "name:value" lines), kept as a
 * status line's head; once: the watch ends with the string it looked at. */
#if defined(__GNUC__)
__attribute__((noinline)) /* off the path of a lock's one-line replies */
#endif
static void keep_field(struct rl_reader_kept *kept, const char *str, size_t len)
{
	size_t field_len = strlen(kept->watch), at = 0;

	kept->top.str = NULL;
	while (at + field_len <= len) {
		const char *line = str + at, *end = memchr(line, '\n', len - at);
		size_t line_len = end != NULL ? (size_t) (end - line) : len - at;

		if (line_len >= field_len && memcmp(line, kept->watch, field_len) == 0) {
			size_t value_len = line_len - field_len;

			if (value_len > 0 && line[line_len - 1] == '\r') {
				value_len--;
			}
			kept->top.len = value_len < sizeof(kept->head) ? value_len : sizeof(kept->head);
			memcpy(kept->head, line + field_len, kept->top.len);
			kept->top.str = kept->head;
			break;
		}
		at += line_len + 1;
	}
	kept->watch = NULL;
}

/* A string one level down (nest on): kept in order, for inspect(). NULL when out of memory. */
#if defined(__GNUC__)
__attribute__((noinline)) /* off the path of a lock's one-line replies */
#endif
static void *keep_nested(const redisReadTask *task, const char *str, size_t len)
{
	struct rl_reader_kept *kept = kept_of(task);
	rl_reply_nested *one;

	if (kept->top.nested_count >= RL_REPLY_NESTED_MAX) {
		if (kept->refused == NULL) {
			kept->refused = REFUSED_TOO_MANY;
		}
		return kept;
	}
	if (kept->top.nested_count == kept->nested_cap) {
		size_t cap = kept->nested_cap ? kept->nested_cap * 2 : 16;
		rl_reply_nested *grown = realloc(kept->nested, cap * sizeof(*grown));

		if (grown == NULL) {
			return NULL;
		}
		kept->nested = grown, kept->nested_cap = cap;
	}
	kept->top.nested = kept->nested;
	one = &kept->nested[kept->top.nested_count++];
	one->item = task->parent->idx;
	one->at = task->idx;
	one->whole = (long long) len;
	one->len = len < RL_REPLY_ITEM_HEAD ? len : RL_REPLY_ITEM_HEAD;
	memcpy(one->head, str, one->len);
	return kept;
}

static void *create_string(const redisReadTask *task, char *str, size_t len)
{
	struct rl_reader_kept *kept = kept_of(task);

	switch (task->type) {
		case REDIS_REPLY_STRING:
			if (kept->nest && task->parent != NULL && task->parent->parent != NULL
				&& task->parent->parent->parent == NULL) {
				return keep_nested(task, str, len);
			}
			keep(task, RL_REPLY_STRING, (long long) len);
			if (task->parent != NULL) {
				keep_item_head(task, str, len);
			} else if (kept->watch != NULL) {
				keep_field(kept, str, len);
			} else if (kept->capture != NULL) {
				if ((*kept->capture = malloc(len + 1)) == NULL) {
					return NULL; /* out of memory: the stream fails */
				}
				memcpy(*kept->capture, str, len);
				(*kept->capture)[len] = '\0';
				*kept->capture_len = len;
				kept->capture = NULL;
			}
			return kept;
		case REDIS_REPLY_STATUS:
		case REDIS_REPLY_ERROR:
			keep(task, task->type == REDIS_REPLY_STATUS ? RL_REPLY_STATUS : RL_REPLY_ERROR, 0);
			if (task->parent == NULL) {
				kept->top.len = len < sizeof(kept->head) ? len : sizeof(kept->head);
				if (len == 2) {
					/* "OK": one 4-byte move instead of a call to memcpy(). Safe: the line
					 * hiredis found is followed by its "\r\n" in the same buffer. */
					memcpy(kept->head, str, 4);
				} else {
					memcpy(kept->head, str, kept->top.len);
				}
				kept->top.str = kept->head;
			} else {
				keep_item_head(task, str, len);
			}
			return kept;
		default: /* RESP3's verbatim strings and big numbers */
			return foreign(task);
	}
}

static void *create_array(const redisReadTask *task, array_length elements)
{
	const redisReadTask *up = task->parent;
	int depth = 0;

	while (up != NULL && depth < 8) {
		up = up->parent;
		depth++;
	}
	if (task->type != REDIS_REPLY_ARRAY) { /* RESP3's maps, sets, attributes, pushes */
		foreign(task);
	}
	if (depth == 8) { /* 0.14's own limit, for every version */
		kept_of(task)->refused = REFUSED_TOO_DEEP;
	}
	return keep(task, RL_REPLY_ARRAY, (long long) elements);
}

static void *create_integer(const redisReadTask *task, long long value)
{
	return keep(task, RL_REPLY_INTEGER, value);
}

static void *create_nil(const redisReadTask *task)
{
	return keep(task, RL_REPLY_NIL, -1);
}

#if HIREDIS_MAJOR >= 1
static void *create_double(const redisReadTask *task, double value, char *str, size_t len)
{
	(void) value, (void) str, (void) len;
	return foreign(task);
}

static void *create_bool(const redisReadTask *task, int value)
{
	(void) value;
	return foreign(task);
}
#endif

static void free_object(void *object)
{
	(void) object; /* the objects are all the one rl_reader_kept */
}

/* hiredis' table of object functions, with the version branches written once: the two tables below
 * differ in what a string and an integer make. */
#if HIREDIS_MAJOR >= 1
#define OBJECT_FUNCTIONS(string, integer) {string, create_array, integer, create_double, create_nil, create_bool, free_object}
#else
#define OBJECT_FUNCTIONS(string, integer) {string, create_array, integer, create_nil, free_object}
#endif

static redisReplyObjectFunctions object_functions = OBJECT_FUNCTIONS(create_string, create_integer);

/* The table for a top-level status line (+OK) or one-digit integer (:1): hiredis parses the line
 * as always, but with no createString or createInteger it calls nothing and returns the line's
 * type as the object (what hiredis does for a NULL function); rl_reader_next_buffered then takes
 * the line from the bytes hiredis just delimited instead of a copy made by create_string.
 * hiredis checks an integer with string2ll() only on its way to createInteger: hence only one
 * digit, whole, for which that check cannot fail. */
static redisReplyObjectFunctions line_functions = OBJECT_FUNCTIONS(NULL, NULL);

static int fail(rl_reader *reader, const char *why)
{
	/* hiredis' own messages may already say so ("Protocol error, got ..."): said once */
	int named = (why[0] == 'P' || why[0] == 'p') && strncmp(why + 1, "rotocol error", 13) == 0;

	snprintf(reader->error_text, sizeof(reader->error_text), "%s%s", named ? "" : "protocol error: ", why);
	reader->failed = 1;
	return -1;
}

void rl_reader_init(rl_reader *reader)
{
	reader->kept = NULL;
	reader->failed = 0;
	reader->staged = 0;
	reader->busy = 0;
	reader->nesting = 0;
	reader->write_at = NULL;
	reader->room = 0;
	reader->buffered = NULL;
	reader->error_text[0] = '\0';
}

/* rl_reader's view of hiredis' buffer, after anything that may have moved or filled it. */
static void view_buffer(rl_reader *reader)
{
	struct rl_reader_kept *kept = reader->kept;

	if (kept == NULL || kept->parser->err) {
		reader->room = 0;
		return;
	}
	reader->write_at = kept->parser->buf + kept->parser->len;
	reader->room = kept->capacity - kept->parser->len;
	reader->buffered = &kept->parser->len;
}

void rl_reader_reset(rl_reader *reader)
{
	if (reader->kept != NULL) {
		redisReaderFree(reader->kept->parser);
		free(reader->kept->nested);
		free(reader->kept);
	}
	rl_reader_init(reader);
}

static struct rl_reader_kept *kept_or_made(rl_reader *reader)
{
	struct rl_reader_kept *kept = reader->kept;

	if (kept == NULL && !reader->failed) {
		kept = calloc(1, sizeof(*kept));
		if (kept == NULL || (kept->parser = redisReaderCreateWithFunctions(&object_functions)) == NULL) {
			free(kept);
			fail(reader, "out of memory");
			return NULL;
		}
		kept->parser->privdata = kept;
		kept->capacity = sdsalloc(kept->parser->buf);
		reader->kept = kept;
		view_buffer(reader);
	}
	return kept;
}

int rl_reader_watch(rl_reader *reader, const char *field)
{
	struct rl_reader_kept *kept = field != NULL ? kept_or_made(reader) : reader->kept;

	if (kept != NULL) {
		kept->watch = field;
	}
	return field == NULL || kept != NULL ? 0 : -1;
}

int rl_reader_capture(rl_reader *reader, char **into, size_t *len)
{
	struct rl_reader_kept *kept = into != NULL ? kept_or_made(reader) : reader->kept;

	if (kept != NULL) {
		kept->capture = into;
		kept->capture_len = len;
	}
	return into == NULL || kept != NULL ? 0 : -1;
}

int rl_reader_nest_slow(rl_reader *reader, int on)
{
	struct rl_reader_kept *kept = on ? kept_or_made(reader) : reader->kept;

	reader->nesting = kept != NULL ? on : 0;
	if (kept != NULL) {
		kept->nest = on;
		if (!on && kept->nested != NULL) { /* what one inspect() grew is not kept for the connection's life */
			free(kept->nested);
			kept->nested = NULL, kept->nested_cap = 0;
			kept->top.nested = NULL, kept->top.nested_count = 0;
		}
	}
	return !on || kept != NULL ? 0 : -1;
}

/* rl_reader_space when hiredis' buffer must be made or grow first, or cannot. */
char *rl_reader_space_slow(rl_reader *reader, size_t *room)
{
	struct rl_reader_kept *kept = kept_or_made(reader);
	sds grown;

	*room = RL_READER_BUFFER;
	reader->staged = 1;
	if (kept == NULL || kept->parser->err) {
		return reader->buf;
	}
	sync_length(kept->parser);
	grown = sdsMakeRoomFor(kept->parser->buf, RL_READER_BUFFER);
	if (grown == NULL) {
		return reader->buf;
	}
	kept->parser->buf = grown;
	kept->capacity = sdsalloc(grown);
	reader->staged = 0;
	view_buffer(reader);
	return grown + kept->parser->len;
}

/* rl_reader_fed when rl_reader_space fell back on buf */
void rl_reader_fed_staged(rl_reader *reader, size_t bytes)
{
	redisReader *parser;

	if (reader->failed || reader->kept == NULL || bytes == 0) {
		return;
	}
	parser = reader->kept->parser;
	reader->busy = 1;
	if (parser->err) {
		return;
	}
	sync_length(parser);
	if (redisReaderFeed(parser, reader->buf, bytes) != REDIS_OK) {
		fail(reader, parser->err ? parser->errstr : "out of memory");
	}
	reader->kept->capacity = sdsalloc(parser->buf);
	view_buffer(reader);
}

/* No reply begun: hiredis' stack is empty, or holds only the task that waits for a type byte
 * (GetReply sets it up whenever bytes are buffered, consumed or not). */
static int no_reply_begun(const redisReader *parser)
{
#if HIREDIS_MAJOR >= 1
	return parser->ridx == -1 || (parser->ridx == 0 && parser->task[0]->type < 0);
#else
	return parser->ridx == -1 || (parser->ridx == 0 && parser->rstack[0].type < 0);
#endif
}

/* GetReply through line_functions for a line rl_reader_next_buffered chose: 1 with *reply when
 * the line was whole, else 0 with *rc and *object as GetReply left them (not whole yet, or a
 * failure: then as any other reply; hiredis kept the line's type, and the call that completes it
 * goes through object_functions). */
static inline int line_reply(rl_reader *reader, redisReader *parser, int *rc, void **object)
{
	parser->fn = &line_functions;
	*rc = redisReaderGetReply(parser, object);
	parser->fn = &object_functions;
	if (*rc != REDIS_OK || *object == NULL) {
		return 0;
	}
	reader->busy = parser->pos != parser->len;
	return 1;
}

int rl_reader_next_buffered(rl_reader *reader, rl_reply *reply)
{
	/* Called by rl_reader_next only, which found the reader busy and not failed: busy is set
	 * only with the parser made (kept), and means bytes not parsed yet or a reply begun. */
	struct rl_reader_kept *kept = reader->kept;
	redisReader *parser = kept->parser;
	void *object = NULL;
	int rc;

	/* A line through line_functions: a status line (+OK), or an integer line of exactly one
	 * digit (":1\r\n", the reply to a release), not begun yet, with fewer than HIREDIS_TRIM_AT
	 * bytes buffered (GetReply cannot trim them away then). (buf[pos] is there: an sds ends in
	 * a NUL; and so are the two bytes after a ':' followed by a digit.) */
	if (parser->ridx == -1 && parser->len < HIREDIS_TRIM_AT) {
		const char *at = parser->buf + parser->pos;

		if (at[0] == '+') {
			if (line_reply(reader, parser, &rc, &object)) {
				/* the text runs from after the '+' to the "\r\n" before pos; it stays in
				 * hiredis' buffer, valid until the reader is used again, as rl_reply says */
				size_t len = (size_t) (parser->buf + parser->pos - at) - 3;

				reply->type = RL_REPLY_STATUS;
				reply->integer = 0;
				reply->str = at + 1;
				reply->len = len < RL_READER_LINE_HEAD ? len : RL_READER_LINE_HEAD;
				reply->items = kept->items;
				reply->nested = NULL;
				reply->nested_count = 0;
				return 1;
			}
			goto parsed;
		}
		if (at[0] == ':' && at[1] >= '0' && at[1] <= '9' && at[2] == '\r' && at[3] == '\n') {
			if (line_reply(reader, parser, &rc, &object)) {
				reply->type = RL_REPLY_INTEGER;
				reply->integer = at[1] - '0';
				reply->str = NULL;
				reply->len = 0;
				reply->items = kept->items;
				reply->nested = NULL;
				reply->nested_count = 0;
				return 1;
			}
			goto parsed;
		}
	}
	if (parser->len >= HIREDIS_TRIM_AT) {
		sync_length(parser); /* GetReply may trim: sdsrange() reads the sds length */
	}
	rc = redisReaderGetReply(parser, &object);
parsed:
	if (rc != REDIS_OK) {
		view_buffer(reader);
		return fail(reader, parser->errstr[0] != '\0' ? parser->errstr : "out of memory");
	}
	if (parser->pos == 0) {
		view_buffer(reader); /* GetReply trimmed what it parsed (or parsed nothing): len moved */
	}
	reader->busy = parser->pos != parser->len || !no_reply_begun(parser);
	if (kept->refused != NULL) {
		return fail(reader, kept->refused);
	}
	if (object == NULL) {
		if (parser->len - parser->pos > RL_READER_MAX_PENDING) {
			return fail(reader, "a reply longer than 64 KiB (a lock's replies are a few bytes)");
		}
		return 0;
	}
	*reply = kept->top;
	return 1;
}
