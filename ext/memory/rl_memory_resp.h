/* The RESP of memory:// servers' side (and the simulation's): a growing byte buffer, and one
 * command parsed from the front of what a client sent. Plain C, no I/O. */
#ifndef RL_MEMORY_RESP_H
#define RL_MEMORY_RESP_H

#include <stddef.h>

/* A growing buffer of bytes (a client's input or the replies for it). */
typedef struct rl_memory_buf {
	char *bytes;
	size_t len, cap;
} rl_memory_buf;

/* 0, or -1 when out of memory. */
int rl_memory_buf_add(rl_memory_buf *b, const char *bytes, size_t len);
void rl_memory_buf_drop(rl_memory_buf *b, size_t n);
void rl_memory_buf_free(rl_memory_buf *b);

/* Parses one RESP command (an array of bulk strings) at the front of bytes: the bytes it takes,
 * 0 when incomplete, -1 when it is not one or has more than max arguments. argv points into bytes. */
long rl_memory_parse_command(const char *bytes, size_t len, int max, int *argc, const char **argv, size_t *lens);

#endif
