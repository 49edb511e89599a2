/* The memory:// store's commands and scripts, on its keyspace (rl_memory_keyspace.c): see
 * rl_memory_store.h. Each script below mirrors its Lua source in
 * core/rl_scripts.h or core/rl_scripts_kinds.h, return values included; a script it does not know
 * is an error reply, never a guess. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/rl_memory_keyspace.h"
#include "memory/rl_memory_resp.h"
#include "core/rl_lock.h"
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"

static int reply_int(rl_memory_buf *out, long long n)
{
	char line[32];
	int len = snprintf(line, sizeof(line), ":%lld\r\n", n);
	return rl_memory_buf_add(out, line, (size_t) len);
}

static int reply_text(rl_memory_buf *out, const char *text)
{
	return rl_memory_buf_add(out, text, strlen(text));
}

static int reply_bulk(rl_memory_buf *out, const char *bytes, size_t len)
{
	char head[32];
	int n = snprintf(head, sizeof(head), "$%zu\r\n", len);
	return rl_memory_buf_add(out, head, (size_t) n) || rl_memory_buf_add(out, bytes, len)
		|| rl_memory_buf_add(out, "\r\n", 2) ? -1 : 0;
}

void rl_memory_store_set_delifeq(rl_memory_store *s, int on)
{
	s->delifeq = on;
}

/* A key derived from name (semaphore slots, fence counters), in out (size bytes). Its length. */
static size_t derived(char *out, size_t size, const char *name, size_t len, const char *suffix, long long n)
{
	int written = n >= 0 ? snprintf(out, size, "%.*s%s%lld", (int) len, name, suffix, n)
		: snprintf(out, size, "%.*s%s", (int) len, name, suffix);
	return written < 0 ? 0 : (size_t) written;
}

/* --- commands ----------------------------------------------------------------------------- */

/* arg is word, in any case (the words here are upper case). No strncasecmp: not every platform has it. */
static int is(const char *arg, size_t len, const char *word)
{
	size_t i;

	if (len != strlen(word)) {
		return 0;
	}
	for (i = 0; i < len; i++) {
		char c = arg[i] >= 'a' && arg[i] <= 'z' ? (char) (arg[i] - 'a' + 'A') : arg[i];
		if (c != word[i]) {
			return 0;
		}
	}
	return 1;
}

static int same_script(const char *src, size_t len, const rl_script *script)
{
	return len == script->length && memcmp(src, script->source, len) == 0;
}

#define NOT_OURS "-ERR memory:// runs only the extension's own scripts\r\n"
#define WRONGTYPE "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"

/* One EVAL of a script of ours: KEYS are argv[first .. argi-1], ARGV[j] is argv[argi+j-1]. */
typedef struct {
	rl_memory_store *s;
	int argc, first, argi;
	const char **argv;
	const size_t *lens;
	const char *token; /* ARGV[1], when there is one */
	size_t tlen;
	int64_t now;
	rl_memory_buf *out;
} script_call;

static int has_argv(const script_call *c, int j)
{
	return c->argi + j - 1 < c->argc;
}

static int64_t argv_n(const script_call *c, int j)
{
	return has_argv(c, j) ? rl_mkey_number(c->argv[c->argi + j - 1], c->lens[c->argi + j - 1]) : 0;
}

/* KEYS[1]'s key, when a hash (a shared lock), and the field named name in it; else NULL. */
static rl_mfield *shared_field(const script_call *c, rl_mkey **k, const char *name, size_t len)
{
	*k = rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]);
	return *k != NULL && (*k)->hash ? rl_mkey_field(*k, name, len) : NULL;
}

static int run_force_unlock(const script_call *c, int variant)
{
	int i;

	(void) variant;
	for (i = c->first; i < c->argi; i++) {
		rl_mkey *k = rl_mkey_find(c->s, c->argv[i], c->lens[i]);
		if (k != NULL) {
			rl_mkey_del(c->s, k);
		}
	}
	return reply_int(c->out, 1);
}

static int run_unlock(const script_call *c, int variant)
{
	long long released = 0;
	int i;

	(void) variant;
	for (i = c->first; i < c->argi; i++) {
		if (rl_mkey_holds(c->s, c->argv[i], c->lens[i], c->token, c->tlen)) {
			rl_mkey_del(c->s, rl_mkey_find(c->s, c->argv[i], c->lens[i]));
			released++;
		}
	}
	/* every key, or 0 (RL_SCRIPT_UNLOCK_MULTI) */
	return reply_int(c->out, released == (long long) (c->argi - c->first) ? released : 0);
}

/* lock_multi (variant 0) and lock_fenced (1). */
static int run_lock(const script_call *c, int fenced)
{
	long long fence = 0;
	char key[512];
	int i;

	for (i = c->first; i < c->argi; i++) {
		if (rl_mkey_find(c->s, c->argv[i], c->lens[i]) != NULL) {
			return reply_int(c->out, 0);
		}
	}
	for (i = c->first; i < c->argi; i++) {
		if (rl_mkey_set_string(c->s, c->argv[i], c->lens[i], c->token, c->tlen, argv_n(c, 2)) != 0) {
			return -1;
		}
		if (fenced) {
			size_t klen = derived(key, sizeof(key), c->argv[i], c->lens[i], RL_FENCE_SUFFIX, -1);
			long long n = rl_mkey_incr(c->s, key, klen);

			if (n < 0) {
				return -1;
			}
			fence = n > fence ? n : fence;
		}
	}
	return reply_int(c->out, fenced ? fence : 1);
}

/* fence_writeback: the counter of KEYS[i] raised to ARGV[2]'s value when below. */
static int write_back_fence(const script_call *c, int i, int64_t n)
{
	char key[512];
	size_t klen = derived(key, sizeof(key), c->argv[i], c->lens[i], RL_FENCE_SUFFIX, -1);
	rl_mkey *counter = rl_mkey_find(c->s, key, klen);

	if (counter == NULL || counter->hash || rl_mkey_number(counter->value, counter->value_len) < n) {
		return rl_mkey_set_string(c->s, key, klen, c->argv[c->argi + 1], c->lens[c->argi + 1], -1);
	}
	return 0;
}

/* extend (variant 0) and fence_writeback (1). */
static int run_extend(const script_call *c, int writeback)
{
	int64_t n = argv_n(c, 2);
	int i;

	for (i = c->first; i < c->argi; i++) {
		if (!rl_mkey_holds(c->s, c->argv[i], c->lens[i], c->token, c->tlen)) {
			return reply_int(c->out, 0);
		}
	}
	for (i = c->first; i < c->argi; i++) {
		if (writeback) {
			if (write_back_fence(c, i, n) != 0) {
				return -1;
			}
		} else {
			rl_mkey *k = rl_mkey_find(c->s, c->argv[i], c->lens[i]);
			if (rl_mkey_pttl(c->s, k) < n) {
				k->expire_at = c->now + n;
			}
		}
	}
	return reply_int(c->out, 1);
}

/* extend_many: per lock three ARGV (its key count, token, ttl) over its run of KEYS, each judged as
 * run_extend judges one; a status line of '1' (extended) or '0' (not ours), one per lock. */
static int run_extend_many(const script_call *c, int variant)
{
	int first = c->first, j, i, rc;

	(void) variant;
	rc = rl_memory_buf_add(c->out, "+", 1);
	for (j = c->argi; rc == 0 && j + 2 < c->argc; j += 3) {
		int64_t n = rl_mkey_number(c->argv[j], c->lens[j]), ttl = rl_mkey_number(c->argv[j + 2], c->lens[j + 2]);
		int last = first + (int) n, ours = n >= 0 && last <= c->argi;

		for (i = first; ours && i < last; i++) {
			ours = rl_mkey_holds(c->s, c->argv[i], c->lens[i], c->argv[j + 1], c->lens[j + 1]);
		}
		for (i = first; ours && i < last; i++) {
			rl_mkey *k = rl_mkey_find(c->s, c->argv[i], c->lens[i]);
			if (rl_mkey_pttl(c->s, k) < ttl) {
				k->expire_at = c->now + ttl;
			}
		}
		rc = rl_memory_buf_add(c->out, ours ? "1" : "0", 1);
		first = n >= 0 && last <= c->argi ? last : c->argi;
	}
	return rc != 0 || rl_memory_buf_add(c->out, "\r\n", 2) != 0 ? -1 : 0;
}

static int run_validity(const script_call *c, int variant)
{
	int64_t least = -2;
	int i;

	(void) variant;
	for (i = c->first; i < c->argi; i++) {
		rl_mkey *k;
		if (!rl_mkey_holds(c->s, c->argv[i], c->lens[i], c->token, c->tlen)) {
			return reply_int(c->out, -2);
		}
		k = rl_mkey_find(c->s, c->argv[i], c->lens[i]);
		if (i == c->first || rl_mkey_pttl(c->s, k) < least) {
			least = rl_mkey_pttl(c->s, k);
		}
	}
	return reply_int(c->out, least);
}

/* The live members of KEYS[1]'s set of waiting writers (RL_WRITERS_SUFFIX: a hash member -> expiry here). */
static size_t live_writers(const script_call *c)
{
	char key[512];
	size_t klen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_WRITERS_SUFFIX, -1);
	rl_mkey *w = rl_mkey_find(c->s, key, klen);
	size_t j, n = 0;

	for (j = 0; w != NULL && w->hash && j < w->nfields; j++) {
		n += w->fields[j].number > c->now;
	}
	return n;
}

static int run_shared_lock(const script_call *c, int variant)
{
	rl_mkey *k;
	int64_t deadline = c->now + argv_n(c, 2), latest = deadline;

	(void) variant;
	if (live_writers(c) > 0) {
		return reply_int(c->out, 0); /* a writer waits (RL_SCRIPT_SHARED_LOCK) */
	}
	k = rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]);
	if (k != NULL && !k->hash) {
		return reply_int(c->out, 0);
	}
	if (k == NULL) {
		if ((k = rl_mkey_fresh(c->s, c->argv[c->first], c->lens[c->first])) == NULL) {
			return -1;
		}
		k->hash = 1;
	} else {
		int64_t left = rl_mkey_prune_fields(k, c->now);
		latest = left > latest ? left : latest;
	}
	if (rl_mkey_field_set(k, c->token, c->tlen, deadline) != 0) {
		return -1;
	}
	k->expire_at = latest;
	return reply_int(c->out, 1);
}

static int run_shared_unlock(const script_call *c, int variant)
{
	rl_mkey *k;
	rl_mfield *f = shared_field(c, &k, c->token, c->tlen);
	int64_t mine, latest;

	(void) variant;
	if (f == NULL) {
		return reply_int(c->out, 0);
	}
	mine = f->number;
	rl_mkey_field_del(k, f);
	latest = rl_mkey_prune_fields(k, c->now);
	if (latest <= c->now) {
		rl_mkey_del(c->s, k);
	} else {
		k->expire_at = latest;
	}
	return reply_int(c->out, mine > c->now);
}

static int run_shared_extend(const script_call *c, int variant)
{
	rl_mkey *k;
	rl_mfield *f = shared_field(c, &k, c->token, c->tlen);
	int64_t ttl = argv_n(c, 2);

	(void) variant;
	if (f == NULL || f->number <= c->now) {
		return reply_int(c->out, 0);
	}
	if (c->now + ttl > f->number) {
		f->number = c->now + ttl;
	}
	if (rl_mkey_pttl(c->s, k) < ttl) {
		k->expire_at = c->now + ttl;
	}
	return reply_int(c->out, 1);
}

static int run_shared_validity(const script_call *c, int variant)
{
	rl_mkey *k;
	rl_mfield *f = shared_field(c, &k, c->token, c->tlen);
	int64_t left;

	(void) variant;
	if (f == NULL || f->number <= c->now) {
		return reply_int(c->out, -2);
	}
	left = f->number - c->now;
	if (rl_mkey_pttl(c->s, k) < left) {
		left = rl_mkey_pttl(c->s, k);
	}
	return reply_int(c->out, left);
}

/* Every live reader of the hash k is the one named ours (and there is one). */
static int only_reader(const rl_mkey *k, const char *ours, size_t ours_len, int64_t now)
{
	int mine = 0;
	size_t j;

	for (j = 0; j < k->nfields; j++) {
		if (k->fields[j].number > now) {
			if (k->fields[j].len != ours_len || memcmp(k->fields[j].name, ours, ours_len) != 0) {
				return 0;
			}
			mine = 1;
		}
	}
	return mine;
}

/* Lua's a < b on strings of bytes (the C locale): memcmp, then the shorter first. */
static int bytes_before(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c < 0 || (c == 0 && alen < blen);
}

/* Another live reader of the hash k that is itself a waiting promoter (a live member of writers) with a
 * token below ours: the two would wait for each other (RL_SCRIPT_PROMOTE's -1). */
static int promoter_below(const rl_mkey *k, rl_mkey *writers, const char *ours, size_t ours_len, int64_t now)
{
	size_t j;

	for (j = 0; writers != NULL && writers->hash && j < k->nfields; j++) {
		const rl_mfield *f = &k->fields[j];
		const rl_mfield *w = f->number > now ? rl_mkey_field(writers, f->name, f->len) : NULL;

		if (w != NULL && w->number > now && bytes_before(f->name, f->len, ours, ours_len)) {
			return 1;
		}
	}
	return 0;
}

static int run_promote(const script_call *c, int variant)
{
	rl_mkey *k, *writers;
	char key[512];
	size_t wlen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_WRITERS_SUFFIX, -1);

	(void) variant;
	(void) rl_mkey_find(c->s, key, wlen); /* an expired set goes now: the lookups below move no key */
	k = rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]);
	writers = rl_mkey_find(c->s, key, wlen);
	if (k != NULL && k->hash && promoter_below(k, writers, c->argv[c->argi + 2], c->lens[c->argi + 2], c->now)) {
		return reply_int(c->out, -1);
	}
	if (k == NULL || !k->hash || !only_reader(k, c->argv[c->argi + 2], c->lens[c->argi + 2], c->now)) {
		return reply_int(c->out, 0);
	}
	if (rl_mkey_set_string(c->s, c->argv[c->first], c->lens[c->first], c->token, c->tlen, argv_n(c, 2)) != 0) {
		return -1;
	}
	if (has_argv(c, 4) && is(c->argv[c->argi + 3], c->lens[c->argi + 3], "1")) {
		size_t klen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_FENCE_SUFFIX, -1);
		long long n = rl_mkey_incr(c->s, key, klen);

		return n < 0 ? -1 : reply_int(c->out, n);
	}
	return reply_int(c->out, 1);
}

static int run_demote(const script_call *c, int variant)
{
	int64_t ttl = argv_n(c, 2);
	rl_mkey *k;

	(void) variant;
	if (!rl_mkey_holds(c->s, c->argv[c->first], c->lens[c->first], c->token, c->tlen)) {
		return reply_int(c->out, 0);
	}
	if ((k = rl_mkey_fresh(c->s, c->argv[c->first], c->lens[c->first])) == NULL) {
		return -1;
	}
	k->hash = 1;
	if (rl_mkey_field_set(k, c->argv[c->argi + 2], c->lens[c->argi + 2], c->now + ttl) != 0) {
		return -1;
	}
	k->expire_at = c->now + ttl;
	return reply_int(c->out, 1);
}

static int run_demote_rollback(const script_call *c, int variant)
{
	rl_mkey *k = rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]);
	int gone = 0;

	(void) variant;
	if (k != NULL && !k->hash && k->value_len == c->tlen && memcmp(k->value, c->token, c->tlen) == 0) {
		rl_mkey_del(c->s, k);
		gone = 1;
	} else if (k != NULL && k->hash) {
		rl_mfield *f = rl_mkey_field(k, c->argv[c->argi + 2], c->lens[c->argi + 2]);
		if (f != NULL) {
			rl_mkey_field_del(k, f);
			gone = 1;
		}
		if (k->nfields == 0) {
			rl_mkey_del(c->s, k);
		}
	}
	return reply_int(c->out, gone);
}

static int run_semaphore_lock(const script_call *c, int variant)
{
	long long limit = argv_n(c, 3), start, slot;
	char hex[8], key[512];

	(void) variant;
	if (limit <= 0 || c->tlen < 7) {
		return reply_text(c->out, "-ERR bad semaphore arguments\r\n");
	}
	memcpy(hex, c->token + 1, 6);
	hex[6] = '\0';
	start = strtoll(hex, NULL, 16) % limit;
	for (slot = 0; slot < limit; slot++) {
		long long candidate = (start + slot) % limit;
		size_t klen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_SLOT_SUFFIX, candidate);

		if (rl_mkey_find(c->s, key, klen) == NULL) {
			if (rl_mkey_set_string(c->s, key, klen, c->token, c->tlen, argv_n(c, 2)) != 0) {
				return -1;
			}
			return reply_int(c->out, candidate + 1);
		}
	}
	return reply_int(c->out, 0);
}

static int run_semaphore_release(const script_call *c, int variant)
{
	long long limit = argv_n(c, 2), keep = argv_n(c, 3), released = 0, slot;
	char key[512];

	(void) variant;
	for (slot = 0; slot < limit; slot++) {
		size_t klen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_SLOT_SUFFIX, slot);

		if (slot != keep && rl_mkey_holds(c->s, key, klen, c->token, c->tlen)) {
			rl_mkey_del(c->s, rl_mkey_find(c->s, key, klen));
			released++;
		}
	}
	return reply_int(c->out, released);
}

/* RL_LUA_WRITER_MARK_ONE on the key name: member's mark for ms more (only beside readers, or to renew
 * it), or taken back (ms 0); expired marks dropped, the set living as long as its latest. -1 when out
 * of memory. (No PUBLISH: the memory servers have no subscribers.) */
static int mark_one(rl_memory_store *s, const char *name, size_t len, const char *member, size_t mlen, int64_t ms,
	int64_t now)
{
	char key[512];
	size_t klen = derived(key, sizeof(key), name, len, RL_WRITERS_SUFFIX, -1);
	rl_mkey *k, *writers;
	rl_mfield *f;
	int64_t latest;

	(void) rl_mkey_find(s, key, klen); /* an expired set goes now: the lookups below move no key */
	k = rl_mkey_find(s, name, len);
	writers = rl_mkey_find(s, key, klen);
	f = writers != NULL && writers->hash ? rl_mkey_field(writers, member, mlen) : NULL;
	if (ms > 0 && (f != NULL || (k != NULL && k->hash))) {
		if (writers == NULL || !writers->hash) {
			if ((writers = rl_mkey_fresh(s, key, klen)) == NULL) {
				return -1;
			}
			writers->hash = 1;
		}
		if (rl_mkey_field_set(writers, member, mlen, now + ms) != 0) {
			return -1;
		}
	} else if (ms <= 0 && f != NULL) {
		rl_mkey_field_del(writers, f);
	}
	if (writers == NULL || !writers->hash) {
		return 0;
	}
	latest = rl_mkey_prune_fields(writers, now);
	if (latest <= now) {
		rl_mkey_del(s, writers);
	} else {
		writers->expire_at = latest;
	}
	return 0;
}

/* writer_mark: ARGV[1] member, ARGV[2] ms, on every key. */
static int run_writer_mark(const script_call *c, int variant)
{
	int i;

	(void) variant;
	for (i = c->first; i < c->argi; i++) {
		if (mark_one(c->s, c->argv[i], c->lens[i], c->token, c->tlen, argv_n(c, 2), c->now) != 0) {
			return -1;
		}
	}
	return reply_int(c->out, 1);
}

/* rollback_mark: unlock's release of KEYS[1] for ARGV[1], then ARGV[2]'s mark for ARGV[3] ms. */
static int run_rollback_mark(const script_call *c, int variant)
{
	int released;

	(void) variant;
	if (c->argi <= c->first) {
		return reply_int(c->out, 0);
	}
	released = rl_mkey_holds(c->s, c->argv[c->first], c->lens[c->first], c->token, c->tlen);
	if (released) {
		rl_mkey_del(c->s, rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]));
	}
	if (mark_one(c->s, c->argv[c->first], c->lens[c->first], c->argv[c->argi + 1], c->lens[c->argi + 1],
			argv_n(c, 3), c->now) != 0) {
		return -1;
	}
	return reply_int(c->out, released);
}

/* The scripts this store runs: the script (its place in rl_script_set), how many ARGV it needs (at least,
 * and at most: -1 for any), the handler and the variant it is given. A script it does not know, or one
 * with too few ARGV, is NOT_OURS. */
static const struct {
	size_t script;
	int argv_min, argv_max;
	int (*run)(const script_call *c, int variant);
	int variant;
} scripts[] = {
	{offsetof(rl_script_set, force_unlock), 0, 0, run_force_unlock, 0}, /* the one script without ARGV */
	{offsetof(rl_script_set, unlock), 1, -1, run_unlock, 0},
	{offsetof(rl_script_set, unlock_multi), 1, -1, run_unlock, 0},
	{offsetof(rl_script_set, lock_multi), 1, -1, run_lock, 0},
	{offsetof(rl_script_set, lock_fenced), 1, -1, run_lock, 1},
	{offsetof(rl_script_set, extend), 1, -1, run_extend, 0},
	{offsetof(rl_script_set, fence_writeback), 1, -1, run_extend, 1},
	{offsetof(rl_script_set, extend_many), 3, -1, run_extend_many, 0},
	{offsetof(rl_script_set, validity), 1, -1, run_validity, 0},
	{offsetof(rl_script_set, validity_plain), 1, -1, run_validity, 0},
	{offsetof(rl_script_set, shared_lock), 1, -1, run_shared_lock, 0},
	{offsetof(rl_script_set, shared_unlock), 1, -1, run_shared_unlock, 0},
	{offsetof(rl_script_set, shared_extend), 1, -1, run_shared_extend, 0},
	{offsetof(rl_script_set, shared_validity), 1, -1, run_shared_validity, 0},
	{offsetof(rl_script_set, shared_validity_plain), 1, -1, run_shared_validity, 0},
	{offsetof(rl_script_set, promote), 3, -1, run_promote, 0},
	{offsetof(rl_script_set, demote), 3, -1, run_demote, 0},
	{offsetof(rl_script_set, demote_rollback), 3, -1, run_demote_rollback, 0},
	{offsetof(rl_script_set, semaphore_lock), 3, -1, run_semaphore_lock, 0},
	{offsetof(rl_script_set, semaphore_release), 3, -1, run_semaphore_release, 0},
	{offsetof(rl_script_set, writer_mark), 2, -1, run_writer_mark, 0},
	{offsetof(rl_script_set, rollback_mark), 3, -1, run_rollback_mark, 0},
};

/* EVAL: KEYS are argv[3 .. 3+numkeys-1], ARGV[j] is argv[3+numkeys+j-1]. */
static int eval(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	long long numkeys = rl_mkey_number(argv[2], lens[2]);
	script_call c;
	int nargv;
	size_t i;

	if (numkeys < 0 || 3 + numkeys > argc) {
		return reply_text(out, "-ERR Number of keys can't be greater than number of args\r\n");
	}
	c.s = s;
	c.argc = argc;
	c.argv = argv;
	c.lens = lens;
	c.first = 3;
	c.argi = 3 + (int) numkeys;
	c.token = c.argi < argc ? argv[c.argi] : NULL;
	c.tlen = c.argi < argc ? lens[c.argi] : 0;
	c.now = rl_mkey_now(s);
	c.out = out;
	nargv = argc - c.argi;
	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		const rl_script *script = (const rl_script *) ((const char *) rl_scripts() + scripts[i].script);

		if (nargv >= scripts[i].argv_min && (scripts[i].argv_max < 0 || nargv <= scripts[i].argv_max)
			&& same_script(argv[1], lens[1], script)) {
			return scripts[i].run(&c, scripts[i].variant);
		}
	}
	return reply_text(out, NOT_OURS) != 0 ? -1 : 1;
}

/* SET k v [NX] [PX ms] [IFEQ v] */
static int cmd_set(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	int nx = 0, i, ifeq = 0;
	int64_t ttl = -1;

	for (i = 3; i < argc; i++) {
		if (is(argv[i], lens[i], "NX")) {
			nx = 1;
		} else if (is(argv[i], lens[i], "PX") && i + 1 < argc) {
			ttl = rl_mkey_number(argv[i + 1], lens[i + 1]);
			i++;
		} else if (is(argv[i], lens[i], "IFEQ") && i + 1 < argc) {
			ifeq = ++i; /* Redis >= 8.4, Valkey >= 8.1: only where the value is this one */
		} else {
			return reply_text(out, "-ERR syntax error\r\n");
		}
	}
	if (nx && rl_mkey_find(s, argv[1], lens[1]) != NULL) {
		return reply_text(out, "$-1\r\n");
	}
	if (ifeq && !rl_mkey_holds(s, argv[1], lens[1], argv[ifeq], lens[ifeq])) {
		return reply_text(out, "$-1\r\n");
	}
	return rl_mkey_set_string(s, argv[1], lens[1], argv[2], lens[2], ttl) != 0 ? -1 : reply_text(out, "+OK\r\n");
}

/* MSETEX's options after its pairs, from argument last: NX, XX, PX ms or EX s. 0, or -1 for a syntax
 * error. */
static int msetex_options(int argc, const char **argv, const size_t *lens, int last, int *nx, int *xx,
	int64_t *ttl)
{
	int i, expires = 0;

	for (i = last; i < argc; i++) {
		if (is(argv[i], lens[i], "NX")) {
			*nx = 1;
		} else if (is(argv[i], lens[i], "XX")) {
			*xx = 1;
		} else if ((is(argv[i], lens[i], "PX") || is(argv[i], lens[i], "EX")) && i + 1 < argc) {
			*ttl = rl_mkey_number(argv[i + 1], lens[i + 1]) * (is(argv[i], lens[i], "EX") ? 1000 : 1);
			expires = 1;
			i++;
		} else {
			return -1;
		}
	}
	return (*nx && *xx) || (expires && *ttl <= 0) ? -1 : 0;
}

/* MSETEX n k1 v1 ... [NX|XX] [PX ms|EX s] (Redis >= 8.4, Valkey >= 9): every key or none */
static int cmd_msetex(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	long long n = rl_mkey_number(argv[1], lens[1]);
	int nx = 0, xx = 0, i, last;
	int64_t ttl = -1;

	if (n <= 0 || n > (argc - 2) / 2) {
		return reply_text(out, "-ERR invalid numkeys value\r\n");
	}
	last = 2 + 2 * (int) n;
	if (msetex_options(argc, argv, lens, last, &nx, &xx, &ttl) != 0) {
		return reply_text(out, "-ERR syntax error\r\n");
	}
	for (i = 2; i < last; i += 2) {
		int exists = rl_mkey_find(s, argv[i], lens[i]) != NULL;
		if ((nx && exists) || (xx && !exists)) {
			return reply_int(out, 0);
		}
	}
	for (i = 2; i < last; i += 2) {
		if (rl_mkey_set_string(s, argv[i], lens[i], argv[i + 1], lens[i + 1], ttl) != 0) {
			return -1;
		}
	}
	return reply_int(out, 1);
}

static int cmd_get(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);

	(void) argc;
	if (k != NULL && k->hash) {
		return reply_text(out, WRONGTYPE);
	}
	return k == NULL ? reply_text(out, "$-1\r\n") : reply_bulk(out, k->value, k->value_len);
}

/* DEL and EXISTS: the keys found (and deleted). */
static int cmd_del(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	long long n = 0;
	int i, del = is(argv[0], lens[0], "DEL");

	for (i = 1; i < argc; i++) {
		rl_mkey *k = rl_mkey_find(s, argv[i], lens[i]);
		if (k != NULL) {
			n++;
			if (del) {
				rl_mkey_del(s, k);
			}
		}
	}
	return reply_int(out, n);
}

static int cmd_type(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]); /* inspect() */

	(void) argc;
	return reply_text(out, k == NULL ? "+none\r\n" : k->hash ? "+hash\r\n" : "+string\r\n");
}

static int reply_array(rl_memory_buf *out, size_t count)
{
	char line[32];
	int len = snprintf(line, sizeof(line), "*%zu\r\n", count);
	return rl_memory_buf_add(out, line, (size_t) len);
}

/* HKEYS: inspect()'s shared readers, their tokens (expired ones too, until a script drops them, as Redis keeps them) */
static int cmd_hkeys(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
	size_t i, n;

	(void) argc;
	if (k != NULL && !k->hash) {
		return reply_text(out, WRONGTYPE);
	}
	n = k == NULL ? 0 : k->nfields;
	if (reply_array(out, n) != 0) {
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (reply_bulk(out, k->fields[i].name, k->fields[i].len) != 0) {
			return -1;
		}
	}
	return 0;
}

/* MGET: inspect()'s semaphore slots, their holders' tokens (nil for a free slot, or a key that is no string) */
static int cmd_mget(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	int i;

	if (reply_array(out, (size_t) (argc - 1)) != 0) {
		return -1;
	}
	for (i = 1; i < argc; i++) {
		rl_mkey *k = rl_mkey_find(s, argv[i], lens[i]);

		if ((k == NULL || k->hash ? reply_text(out, "$-1\r\n") : reply_bulk(out, k->value, k->value_len)) != 0) {
			return -1;
		}
	}
	return 0;
}

static int cmd_pttl(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);

	(void) argc;
	return reply_int(out, k == NULL ? -2 : rl_mkey_pttl(s, k));
}

#define UNKNOWN_COMMAND "-ERR unknown command\r\n"

static int cmd_delifeq(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	rl_mkey *k;

	(void) argc;
	if (!s->delifeq) {
		return reply_text(out, UNKNOWN_COMMAND);
	}
	k = rl_mkey_find(s, argv[1], lens[1]);
	if (k != NULL && k->hash) {
		return reply_text(out, WRONGTYPE);
	}
	if (k != NULL && k->value_len == lens[2] && memcmp(k->value, argv[2], lens[2]) == 0) {
		rl_mkey_del(s, k);
		return reply_int(out, 1);
	}
	return reply_int(out, 0);
}

/* The eviction probe sent on connect (rl_conn_append_probes): a memory server never evicts. INFO, its
 * fallback, is not needed then: it gets the unknown-command error. */
static int cmd_config(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	(void) s;
	(void) argc;
	if (is(argv[1], lens[1], "GET") && is(argv[2], lens[2], "MAXMEMORY-POLICY")) {
		return reply_text(out, "*2\r\n$16\r\nmaxmemory-policy\r\n$10\r\nnoeviction\r\n");
	}
	return reply_text(out, UNKNOWN_COMMAND);
}

/* PING, AUTH and SELECT (anything goes), SUBSCRIBE (no notifications: waiters ('waitTimeout') wake by
 * their retry pause). */
static int cmd_fixed(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	(void) s;
	(void) argc;
	if (is(argv[0], lens[0], "PING")) {
		return reply_text(out, "+PONG\r\n");
	}
	if (is(argv[0], lens[0], "SUBSCRIBE")) {
		return reply_text(out, "-ERR memory:// servers do not notify waiters\r\n");
	}
	return reply_text(out, "+OK\r\n");
}

/* The commands this store answers: name, argument count (command included; at least, and at most: -1 for
 * any) and handler. Another count, or another name, is the unknown-command error. */
static const struct {
	const char *name;
	int argc_min, argc_max;
	int (*run)(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out);
} commands[] = {
	{"EVAL", 3, -1, eval},
	{"SET", 3, -1, cmd_set},
	{"MSETEX", 4, -1, cmd_msetex},
	{"GET", 2, 2, cmd_get},
	{"DEL", 2, -1, cmd_del},
	{"EXISTS", 2, -1, cmd_del},
	{"TYPE", 2, 2, cmd_type},
	{"HKEYS", 2, 2, cmd_hkeys},
	{"MGET", 2, -1, cmd_mget},
	{"PTTL", 2, 2, cmd_pttl},
	{"DELIFEQ", 3, 3, cmd_delifeq},
	{"PING", 1, -1, cmd_fixed},
	{"CONFIG", 3, 3, cmd_config},
	{"AUTH", 1, -1, cmd_fixed},
	{"SELECT", 1, -1, cmd_fixed},
	{"SUBSCRIBE", 1, -1, cmd_fixed},
};

int rl_memory_store_execute(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (is(argv[0], lens[0], commands[i].name)) {
			if (argc < commands[i].argc_min || (commands[i].argc_max >= 0 && argc > commands[i].argc_max)) {
				break;
			}
			return commands[i].run(s, argc, argv, lens, out);
		}
	}
	return reply_text(out, UNKNOWN_COMMAND);
}
