/* See rl_memory_resp.h. */
#include <stdlib.h>
#include <string.h>

#include "memory/rl_memory_resp.h"

int rl_memory_buf_add(rl_memory_buf *b, const char *bytes, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2 + 64;
		char *grown = realloc(b->bytes, cap);
		if (grown == NULL) {
			return -1;
		}
		b->bytes = grown;
		b->cap = cap;
	}
	memcpy(b->bytes + b->len, bytes, len);
	b->len += len;
	return 0;
}

void rl_memory_buf_drop(rl_memory_buf *b, size_t n)
{
	memmove(b->bytes, b->bytes + n, b->len - n);
	b->len -= n;
}

void rl_memory_buf_free(rl_memory_buf *b)
{
	free(b->bytes);
	memset(b, 0, sizeof(*b));
}

long rl_memory_parse_command(const char *bytes, size_t len, int max, int *argc, const char **argv, size_t *lens)
{
	const char *p = bytes, *end = bytes + len;
	long n, i;
	char *stop;

	if (len == 0) {
		return 0;
	}
	if (*p != '*') {
		return -1;
	}
	if (memchr(p, '\n', len) == NULL) {
		return 0;
	}
	n = strtol(p + 1, &stop, 10);
	if (stop + 2 > end) {
		return 0;
	}
	if (n < 1 || n > max || stop[0] != '\r') {
		return -1;
	}
	p = stop + 2;
	for (i = 0; i < n; i++) {
		long blen;
		if (p >= end) {
			return 0;
		}
		if (*p != '$') {
			return -1;
		}
		if (memchr(p, '\n', (size_t) (end - p)) == NULL) {
			return 0;
		}
		blen = strtol(p + 1, &stop, 10);
		if (blen < 0) {
			return -1;
		}
		if (stop + 2 > end || (size_t) (end - (stop + 2)) < (size_t) blen + 2) {
			return 0;
		}
		argv[i] = stop + 2;
		lens[i] = (size_t) blen;
		p = stop + 2 + blen + 2;
	}
	*argc = (int) n;
	return (long) (p - bytes);
}

