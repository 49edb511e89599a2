/* The reply reader: hiredis' redisReader parses every reply. Its object functions build no
 * reply tree: they keep what a vote needs of the top-level reply (its type, an integer or a
 * length, the head of a status or error line) in this struct, so a reply costs no allocation.
 * A socket read lands in hiredis' buffer directly (rl_reader_space). A reply still incomplete
 * after RL_READER_MAX_PENDING bytes fails the stream: a lock's replies are a few bytes, and
 * hiredis would otherwise buffer a hostile server's bulk string whole. Plain C, no I/O, so the
 * fuzzers drive it (verify/fuzz/reader_diff.c compares it with hiredis' own reply objects). */
#ifndef RL_HIREDIS_READER_H
#define RL_HIREDIS_READER_H

#include <stddef.h>

#define RL_READER_BUFFER 1024          /* one socket read */
#define RL_READER_LINE_HEAD 160        /* what is kept of a status or error line */
#define RL_READER_MAX_PENDING 65536    /* bytes of one reply hiredis may hold */
#define RL_READER_ERROR_MAX 160
#define RL_REPLY_ITEMS 7               /* elements kept of a top-level array (EXEC's [GET, PTTL], inspect()'s 7) */
#define RL_REPLY_ITEM_HEAD 64          /* what is kept of such an element's string (a token is 48) */
#define RL_REPLY_NESTED_MAX 16384      /* strings kept one level down (rl_reader_nest); more fail the stream */

typedef enum {
	RL_REPLY_STATUS = 1,
	RL_REPLY_ERROR,
	RL_REPLY_INTEGER,
	RL_REPLY_NIL,    /* $-1 or *-1 */
	RL_REPLY_STRING, /* a bulk string: its length only */
	RL_REPLY_ARRAY   /* its element count only */
} rl_reply_type;

/* One element of a top-level array, as the reply itself is kept: no deeper level is kept. */
typedef struct rl_reply_item {
	rl_reply_type type;
	long long integer; /* as rl_reply's */
	const char *str;   /* STATUS, ERROR and STRING: the head, at most RL_REPLY_ITEM_HEAD bytes */
	size_t len;        /* of the head */
} rl_reply_item;

/* A string of an array that is itself an element of the top-level array (EXEC's reply to HKEYS or
 * MGET: a shared lock's readers, a semaphore's slot tokens), kept when the reader nests
 * (rl_reader_nest). Nil elements are not kept. */
typedef struct rl_reply_nested {
	int item;       /* the index of its array in the top-level array */
	int at;         /* its index in that array */
	long long whole; /* its whole length */
	size_t len;     /* of the head kept */
	char head[RL_REPLY_ITEM_HEAD];
} rl_reply_nested;

typedef struct rl_reply {
	rl_reply_type type;
	long long integer; /* INTEGER: the value; STRING: the length; ARRAY: the count */
	const char *str;   /* STATUS and ERROR: the text's head, valid until the reader is used again;
	                    * STRING: a watched field's value (rl_reader_watch), else NULL */
	size_t len;
	/* ARRAY: its first elements (min(count, RL_REPLY_ITEMS)), valid as str is */
	const rl_reply_item *items;
	/* ARRAY, when the reader nests: the strings one level down, in order, valid as str is */
	const rl_reply_nested *nested;
	size_t nested_count;
} rl_reply;

struct rl_reader_kept;

/* Movable: rl_conn structs are copied into and out of the pool, so nothing here points into
 * the struct itself; what hiredis' callbacks write to lives on the heap with its reader. */
typedef struct rl_reader {
	struct rl_reader_kept *kept; /* hiredis' reader and the last reply; made on the first bytes */
	int failed;                  /* sticky; error_text says why */
	int staged;                  /* the last rl_reader_space was buf: rl_reader_fed copies it over */
	int busy;                    /* bytes buffered or a reply begun: kept by fed and next, for rl_reader_idle and rl_reader_next */
	int nesting;                 /* rl_reader_nest's last word */
	/* hiredis' buffer's free end and the bytes free there, and its length (all on the heap, with
	 * the parser), kept current by every function here: rl_reader_space and rl_reader_fed are then
	 * a few inline instructions per read. room 0: the slow way (no parser yet, an error). */
	char *write_at;
	size_t room;
	size_t *buffered;
	char error_text[RL_READER_ERROR_MAX];
	char buf[RL_READER_BUFFER]; /* where a read goes when hiredis' buffer cannot grow */
} rl_reader;

/* A reader with nothing buffered; allocates nothing. */
void rl_reader_init(rl_reader *reader);

/* Frees hiredis' reader and starts again as rl_reader_init does (a new connection). */
void rl_reader_reset(rl_reader *reader);

/* rl_reader_space and rl_reader_fed beyond their common case: hiredis' buffer must be made or
 * grown first; the bytes went to buf. */
char *rl_reader_space_slow(rl_reader *reader, size_t *room);
void rl_reader_fed_staged(rl_reader *reader, size_t bytes);

/* Where the next bytes go, and how many fit (never 0): the free end of hiredis' own buffer, so
 * that bytes are not copied again; buf when that buffer cannot grow (out of memory). */
static inline char *rl_reader_space(rl_reader *reader, size_t *room)
{
	/* What redisReaderFeed() does with a copy: the bytes go at the end of hiredis' buffer (which
	 * nearly always has the room already). */
	if (reader->room >= RL_READER_BUFFER) {
		*room = RL_READER_BUFFER;
		reader->staged = 0;
		return reader->write_at;
	}
	return rl_reader_space_slow(reader, room);
}

/* Hands the bytes just read into rl_reader_space to hiredis. */
static inline void rl_reader_fed(rl_reader *reader, size_t bytes)
{
	if (!reader->staged) { /* rl_reader_space gave hiredis' buffer */
		*reader->buffered += bytes; /* the sds header's length follows before hiredis reads it */
		reader->write_at += bytes;
		*reader->write_at = '\0'; /* as sdsIncrLen() keeps it: an sds always has room for it */
		reader->room -= bytes;
		reader->busy |= bytes > 0;
		return;
	}
	rl_reader_fed_staged(reader, bytes);
}

/* rl_reader_next with something buffered (busy, not failed): hiredis parses it. */
int rl_reader_next_buffered(rl_reader *reader, rl_reply *reply);

/* 1: *reply holds the next top-level reply. 0: more bytes are needed. -1: the stream failed
 * (rl_reader_error tells why); the reader stays failed. Inline: after each reply the caller asks
 * once more, and nothing is buffered then. */
static inline int rl_reader_next(rl_reader *reader, rl_reply *reply)
{
	if (!reader->busy || reader->failed) {
		return -reader->failed;
	}
	return rl_reader_next_buffered(reader, reply);
}

/* Until the next top-level bulk string: that string's value of field (a line "field" + value, as
 * INFO's are) is kept as the reply's str and len, str NULL when no line has it; the watch then
 * ends. field: a string that outlives the watch; NULL ends it. No other reply is scanned: what a
 * lock's replies cost is unchanged. 0, or -1 when out of memory (the reader failed). */
int rl_reader_watch(rl_reader *reader, const char *field);

/* Until the next top-level bulk string (not watched): that string is copied whole, NUL-terminated,
 * into *into (malloc'd, for the caller to free) with its length in *len; the capture then ends. For
 * CLUSTER NODES' text (net/rl_shards.c), off every lock's path. into NULL ends it. 0, or -1 when
 * out of memory. */
int rl_reader_capture(rl_reader *reader, char **into, size_t *len);

/* on: from now on, the strings of arrays nested one level in a top-level array are kept (rl_reply's
 * nested, at most RL_REPLY_NESTED_MAX of one reply, beyond which the stream fails: a hostile reply
 * costs a bounded memory). For inspect()'s HKEYS and MGET (core/rl_inspect.c); off: a lock's replies
 * keep nothing more. 0, or -1 when out of memory (the reader failed). */
int rl_reader_nest_slow(rl_reader *reader, int on);

/* Inline: asked before every vote is read; it costs a test unless the word changes. */
static inline int rl_reader_nest(rl_reader *reader, int on)
{
	return reader->nesting == on ? 0 : rl_reader_nest_slow(reader, on);
}

/* True with no byte buffered and no reply begun. Inline: it is asked of every server before each
 * command (a call cost as much as the test). */
static inline int rl_reader_idle(const rl_reader *reader)
{
	return !reader->failed && !reader->busy;
}

static inline const char *rl_reader_error(const rl_reader *reader)
{
	return reader->failed ? reader->error_text : NULL;
}

#endif
