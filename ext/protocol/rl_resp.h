/* Encodes a Redis command (RESP array of bulk strings) into one buffer. hiredis' own encoder
 * (redisFormatSdsCommandArgv) grows an sds with sdscatfmt per argument: about 4,000
 * instructions per command under callgrind, most of a lock+unlock cycle's CPU. This one
 * does the same in about 200. Plain C, header-only. */
#ifndef RL_RESP_H
#define RL_RESP_H

#include <stddef.h>
#include <string.h>

#include "protocol/rl_request.h" /* rl_command */

/* Lengths and counts are nearly always below 1000: no division for those. */
static inline size_t rl_resp_digits(size_t value)
{
	size_t digits = 3;

	if (value < 10) {
		return 1;
	}
	if (value < 100) {
		return 2;
	}
	while (value >= 1000) {
		value /= 10;
		digits++;
	}
	return digits;
}

/* Bytes needed for the encoded command. */
static inline size_t rl_resp_size(int argc, const size_t *argvlen)
{
	size_t size = 1 + rl_resp_digits((size_t) argc) + 2;
	int i;

	for (i = 0; i < argc; i++) {
		size += 1 + rl_resp_digits(argvlen[i]) + 2 + argvlen[i] + 2;
	}
	return size;
}

/* At least rl_resp_size(argc, argvlen), without counting digits: a length's header is at most
 * 1 + 20 + 2 bytes. Cheap enough to decide, before a one-pass rl_resp_format, that a buffer fits. */
static inline size_t rl_resp_bound(int argc, const size_t *argvlen)
{
	size_t bound = (1 + 20 + 2) * (size_t) (argc + 1) + 2 * (size_t) argc;
	int i;

	for (i = 0; i < argc; i++) {
		bound += argvlen[i];
	}
	return bound;
}

static inline char *rl_resp_put_header(char *p, char kind, size_t value)
{
	*p++ = kind;
	if (value < 10) {
		*p++ = (char) ('0' + value);
	} else if (value < 100) {
		p[0] = (char) ('0' + value / 10);
		p[1] = (char) ('0' + value % 10);
		p += 2;
	} else {
		size_t digits = rl_resp_digits(value), k;
		for (k = digits; k > 0; k--) {
			p[k - 1] = (char) ('0' + value % 10);
			value /= 10;
		}
		p += digits;
	}
	*p++ = '\r';
	*p++ = '\n';
	return p;
}

/* A positive integer in decimal, NUL-terminated, into out[21]: snprintf() costs more than the
 * rest of the command's encoding. Returns the digit count. */
static inline size_t rl_resp_decimal(char out[21], unsigned long long value)
{
	char reversed[20];
	size_t digits = 0, k;

	do {
		reversed[digits++] = (char) ('0' + value % 10);
		value /= 10;
	} while (value > 0);
	for (k = 0; k < digits; k++) {
		out[k] = reversed[digits - 1 - k];
	}
	out[digits] = '\0';
	return digits;
}

/* The arguments as bulk strings, without the array's header: what a command's head holds. */
static inline char *rl_resp_put_args(char *p, int argc, const char **argv, const size_t *argvlen)
{
	int i;

	for (i = 0; i < argc; i++) {
		p = rl_resp_put_header(p, '$', argvlen[i]);
		memcpy(p, argv[i], argvlen[i]);
		p += argvlen[i];
		*p++ = '\r';
		*p++ = '\n';
	}
	return p;
}

/* Writes exactly rl_resp_size(argc, argvlen) bytes to out; returns their end. */
static inline char *rl_resp_format(char *out, int argc, const char **argv, const size_t *argvlen)
{
	return rl_resp_put_args(rl_resp_put_header(out, '*', (size_t) argc), argc, argv, argvlen);
}

/* rl_resp_format of the command, its head copied rather than encoded again (rl_command.head):
 * the same bytes. */
static inline char *rl_resp_format_command(char *out, const rl_command *command)
{
	char *p;

	if (command->head == NULL) {
		return rl_resp_format(out, command->argc, command->argv, command->argvlen);
	}
	p = rl_resp_put_header(out, '*', (size_t) command->argc);
	memcpy(p, command->head, command->head_len);
	p += command->head_len;
	return rl_resp_put_args(p, command->argc - command->head_argc, command->argv + command->head_argc,
		command->argvlen + command->head_argc);
}

#endif
