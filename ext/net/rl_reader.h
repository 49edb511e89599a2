/* A RESP2 reply reader that allocates nothing: bytes go into a fixed buffer, top-level replies
 * come out as views into it. A lock needs only the type and a short text or an integer of each
 * reply, so bulk payloads and array elements are skipped as they stream past, whatever their
 * size: a hostile server cannot make it allocate. hiredis' reader cost a calloc, a malloc and a
 * copy per reply. Plain C, no I/O, so the fuzzer can drive it. */
#ifndef RL_READER_H
#define RL_READER_H

#include <stddef.h>

#define RL_READER_BUFFER 1024
#define RL_READER_DEPTH 8     /* nested non-empty arrays (hiredis 0.14: 8 levels of any array) */
#define RL_READER_LINE_HEAD 160 /* what is kept of a status or error line longer than the buffer */

typedef enum {
	RL_REPLY_STATUS = 1,
	RL_REPLY_ERROR,
	RL_REPLY_INTEGER,
	RL_REPLY_NIL,    /* $-1 or *-1 */
	RL_REPLY_STRING, /* a bulk string: its length only */
	RL_REPLY_ARRAY   /* its element count only */
} rl_reply_type;

typedef struct rl_reply {
	rl_reply_type type;
	long long integer; /* INTEGER: the value; STRING: the length; ARRAY: the count */
	const char *str;   /* STATUS and ERROR: the text, valid until the reader is fed again */
	size_t len;
} rl_reply;

typedef struct rl_reader {
	size_t start, end;  /* unparsed bytes: buf[start, end) */
	long long skip;     /* payload bytes (and their CRLF) of a bulk string still to drop */
	unsigned depth;     /* arrays open around the next item */
	long long left[RL_READER_DEPTH];
	rl_reply top;       /* an array or bulk string being skipped, returned once it has passed */
	char long_kind;     /* '+' or '-' while dropping the rest of an over-long line, else 0 */
	int long_cr;        /* that line's last byte was '\r' */
	size_t head_len;
	const char *error;  /* sticky once set */
	int midway;         /* any of depth, skip, long_kind, error: the inline path steps aside */
	char head[RL_READER_LINE_HEAD];
	char buf[RL_READER_BUFFER];
} rl_reader;

void rl_reader_init(rl_reader *reader);

/* rl_reader_space when unparsed bytes must move to the front. */
char *rl_reader_compact(rl_reader *reader, size_t *room);

/* Where the next bytes go. *room is never 0. */
static inline char *rl_reader_space(rl_reader *reader, size_t *room)
{
	if (reader->start == reader->end) {
		reader->start = reader->end = 0; /* all parsed: nothing to move */
		*room = sizeof(reader->buf);
		return reader->buf;
	}
	return rl_reader_compact(reader, room);
}
static inline void rl_reader_fed(rl_reader *reader, size_t bytes)
{
	reader->end += bytes;
}

/* 1: *reply holds the next top-level reply. 0: more bytes are needed. -1: the stream is not
 * RESP2 (rl_reader_error tells why); the reader stays failed. */
int rl_reader_next_any(rl_reader *reader, rl_reply *reply);

/* rl_reader_next_any, with the replies a lock gets nearly every time (+OK, :1, $-1, a short
 * error) parsed inline: this runs once per server and call. */
static inline int rl_reader_next(rl_reader *reader, rl_reply *reply)
{
	const char *line = reader->buf + reader->start;
	size_t avail = reader->end - reader->start, cr;

	if (reader->midway || avail < 4) {
		return avail == 0 && !reader->midway ? 0 : rl_reader_next_any(reader, reply);
	}
	if (avail > 22) {
		avail = 22; /* longer lines are rare: left to rl_reader_next_any */
	}
	for (cr = 1; cr + 1 < avail && line[cr] != '\r'; cr++) {
	}
	if (cr + 1 >= avail || line[cr + 1] != '\n') {
		return rl_reader_next_any(reader, reply);
	}
	if (line[0] == '+' || line[0] == '-') {
		reply->type = line[0] == '+' ? RL_REPLY_STATUS : RL_REPLY_ERROR;
		reply->str = line + 1;
		reply->len = cr - 1;
	} else if (line[0] == ':' && cr >= 2 && cr <= 19 && line[1] != '-') {
		long long value = 0; /* 1 to 18 digits: cannot overflow */
		size_t i;
		for (i = 1; i < cr; i++) {
			unsigned digit = (unsigned) (unsigned char) line[i] - '0';
			if (digit > 9) {
				return rl_reader_next_any(reader, reply);
			}
			value = value * 10 + digit;
		}
		reply->type = RL_REPLY_INTEGER;
		reply->integer = value;
	} else if (cr == 3 && line[0] == '$' && line[1] == '-' && line[2] == '1') {
		reply->type = RL_REPLY_NIL;
		reply->integer = -1;
	} else {
		return rl_reader_next_any(reader, reply);
	}
	reader->start += cr + 2;
	return 1;
}

/* True with no byte buffered and no reply begun. */
static inline int rl_reader_idle(const rl_reader *reader)
{
	return reader->start == reader->end && !reader->midway;
}

static inline const char *rl_reader_error(const rl_reader *reader)
{
	return reader->error;
}

#endif
