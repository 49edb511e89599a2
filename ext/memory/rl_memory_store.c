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
#include "core/rl_kinds.h"
#include "core/rl_lock.h"
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"
#include "protocol/rl_request.h" /* rl_script_derives_keys */

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

void rl_memory_store_set_publish(rl_memory_store *s, void (*publish)(void *arg, const char *channel, size_t len),
	void *arg)
{
	s->publish = publish;
	s->publish_arg = arg;
}

/* The longest name a script may derive keys from (a semaphore's slots, a fence counter, the writers'
 * marks, a fair queue): every derived key then fits the buffers below (512 bytes: the name, the longest
 * suffix, ":semfair:w:" and a waiter's id, or ":slot:" and 4 digits). eval() refuses a longer KEYS[i]
 * to such a script (a Redis server has no limit; docs/guide/testing-your-code.md). */
#define DERIVED_NAME_MAX 400
#define TEXT_OF(n) #n
#define DERIVED_NAME_MAX_TEXT(n) TEXT_OF(n) /* "400", for the error below */

/* A key derived from name (semaphore slots, fence counters), in out (size bytes, room for
 * DERIVED_NAME_MAX and the suffixes): name copied whole, NUL bytes included, as Lua's '..' does (a
 * name cut at its first NUL made "a\0b" and "a\0c" one semaphore). Its length. */
static size_t derived(char *out, size_t size, const char *name, size_t len, const char *suffix, long long n)
{
	char digits[24];
	size_t slen = strlen(suffix), dlen = n >= 0 ? (size_t) snprintf(digits, sizeof(digits), "%lld", n) : 0;

	if (len + slen + dlen >= size) {
		len = size - 1 - slen - dlen; /* never: eval() refused the name (DERIVED_NAME_MAX) */
	}
	memcpy(out, name, len);
	memcpy(out + len, suffix, slen);
	memcpy(out + len + slen, digits, dlen);
	out[len + slen + dlen] = '\0';
	return len + slen + dlen;
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

/* The semaphore's slot walk (RL_SCRIPT_SEMAPHORE_LOCK's, and the fair one's): from the slot the token
 * picks, the first free one set to the token for ARGV[2] ms; its reply slot + 1, or 0. */
static int take_slot(const script_call *c, long long limit)
{
	long long start, slot;
	char hex[8], key[512];

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

static int run_semaphore_lock(const script_call *c, int variant)
{
	long long limit = argv_n(c, 3);

	(void) variant;
	if (limit <= 0 || c->tlen < 7) {
		return reply_text(c->out, "-ERR bad semaphore arguments\r\n");
	}
	return take_slot(c, limit);
}

/* RL_LUA_SEMAPHORE_RELEASE_OURS: every slot but keep holding the token deleted; how many. */
static long long release_slots(const script_call *c, long long limit, long long keep)
{
	long long released = 0, slot;
	char key[512];

	for (slot = 0; slot < limit; slot++) {
		size_t klen = derived(key, sizeof(key), c->argv[c->first], c->lens[c->first], RL_SLOT_SUFFIX, slot);

		if (slot != keep && rl_mkey_holds(c->s, key, klen, c->token, c->tlen)) {
			rl_mkey_del(c->s, rl_mkey_find(c->s, key, klen));
			released++;
		}
	}
	return released;
}

static int run_semaphore_release(const script_call *c, int variant)
{
	(void) variant;
	return reply_int(c->out, release_slots(c, argv_n(c, 2), argv_n(c, 3)));
}

/* RL_LUA_WRITER_MARK_ONE on the key name: member's mark for ms more (only beside readers, or to renew
 * it), or taken back (ms 0); expired marks dropped, the set living as long as its latest. -1 when out
 * of memory. (No PUBLISH: only the fair scripts announce here, rl_memory_store.h.) */
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

/* --- fair waiting (RL_SCRIPT_FAIR_*, docs/design/fair.md): the queue a sorted set ------------- */

#define FAIR_MEMBER_MAX 64 /* a waiter's id: RL_FAIR_ID_LEN hex characters */

/* RL_LUA_ANNOUNCE(x): PUBLISH on RL_NOTIFY_CHANNEL_PREFIX .. x to the store's subscribers, if any. */
static void announce(const script_call *c, const char *x, size_t len)
{
	char channel[600];
	size_t p = sizeof(RL_NOTIFY_CHANNEL_PREFIX) - 1;

	if (c->s->publish == NULL || p + len > sizeof(channel)) {
		return;
	}
	memcpy(channel, RL_NOTIFY_CHANNEL_PREFIX, p);
	memcpy(channel + p, x, len);
	c->s->publish(c->s->publish_arg, channel, p + len);
}

static void pexpire(rl_memory_store *s, const char *name, size_t len, int64_t ms)
{
	rl_mkey *k = rl_mkey_find(s, name, len);

	if (k != NULL) {
		k->expire_at = rl_mkey_now(s) + ms;
	}
}

static rl_mkey *zset_find(rl_memory_store *s, const char *name, size_t len)
{
	rl_mkey *k = rl_mkey_find(s, name, len);

	return k != NULL && k->zset ? k : NULL;
}

/* ZADD name score member (a key of another kind is left alone: Redis' WRONGTYPE). -1 when out of memory. */
static int zadd(rl_memory_store *s, const char *name, size_t len, int64_t score, const char *member, size_t mlen)
{
	rl_mkey *k = rl_mkey_find(s, name, len);

	if (k != NULL && !k->zset) {
		return 0;
	}
	if (k == NULL) {
		if ((k = rl_mkey_fresh(s, name, len)) == NULL) {
			return -1;
		}
		k->hash = 1;
		k->zset = 1;
	}
	return rl_mkey_field_set(k, member, mlen, score);
}

/* ZREM name member; an emptied set goes, as in Redis. */
static void zrem(rl_memory_store *s, const char *name, size_t len, const char *member, size_t mlen)
{
	rl_mkey *k = zset_find(s, name, len);
	rl_mfield *f = k != NULL ? rl_mkey_field(k, member, mlen) : NULL;

	if (f != NULL) {
		rl_mkey_field_del(k, f);
		if (k->nfields == 0) {
			rl_mkey_del(s, k);
		}
	}
}

/* Redis' order of a sorted set: by score, then by member's bytes. */
static int zorder(const void *a, const void *b)
{
	const rl_mfield *x = a, *y = b;

	if (x->number != y->number) {
		return x->number < y->number ? -1 : 1;
	}
	return bytes_before(x->name, x->len, y->name, y->len) ? -1 : bytes_before(y->name, y->len, x->name, x->len);
}

/* ZRANGE name at at: the member at rank at copied into into (FAIR_MEMBER_MAX bytes); its length, 0: none. */
static size_t zrange_at(rl_memory_store *s, const char *name, size_t len, size_t at, char *into)
{
	rl_mkey *k = zset_find(s, name, len);

	if (k == NULL || at >= k->nfields) {
		return 0;
	}
	qsort(k->fields, k->nfields, sizeof(*k->fields), zorder);
	if (k->fields[at].len == 0 || k->fields[at].len >= FAIR_MEMBER_MAX) {
		return 0;
	}
	memcpy(into, k->fields[at].name, k->fields[at].len);
	return k->fields[at].len;
}

/* A queue's names: q (base .. qsuffix), w (base .. wsuffix, a waiter's heartbeat is w .. id). */
typedef struct fair_names {
	char q[512], w[512];
	size_t qlen, wlen;
} fair_names;

static void fair_names_of(fair_names *n, const char *base, size_t blen, int semaphore)
{
	n->qlen = derived(n->q, sizeof(n->q), base, blen, semaphore ? RL_FAIR_SEM_SUFFIX : RL_FAIR_SUFFIX, -1);
	n->wlen = derived(n->w, sizeof(n->w), base, blen, semaphore ? RL_FAIR_SEM_WAITER_SUFFIX : RL_FAIR_WAITER_SUFFIX, -1);
}

/* w .. id into key (room 600); its length */
static size_t heartbeat_key(char *key, const fair_names *n, const char *id, size_t idlen)
{
	memcpy(key, n->w, n->wlen);
	memcpy(key + n->wlen, id, idlen);
	return n->wlen + idlen;
}

/* RL_LUA_FAIR_SEM_LIVE (RL_LUA_FAIR_HEAD with want 1): the first want live waiters of the queue, those
 * whose heartbeat key is gone removed on the way; live[i] (FAIR_MEMBER_MAX each) and their lengths; how
 * many. *admitted: me among them. */
static size_t fair_live(rl_memory_store *s, const fair_names *n, size_t want, char (*live)[FAIR_MEMBER_MAX],
	size_t *lens, const char *me, size_t mlen, int *admitted)
{
	size_t found = 0, at = 0;
	char key[600];

	*admitted = 0;
	while (found < want) {
		size_t len = zrange_at(s, n->q, n->qlen, at, live[found]);

		if (len == 0) {
			break;
		}
		if (rl_mkey_find(s, key, heartbeat_key(key, n, live[found], len)) != NULL) {
			lens[found] = len;
			*admitted = *admitted || (mlen == len && memcmp(me, live[found], len) == 0);
			found++;
			at++;
		} else {
			zrem(s, n->q, n->qlen, live[found], len);
		}
	}
	return found;
}

/* The first want live waiters woken, each on its own channel, but me (mlen 0: none), the waiter whose own
 * rollback or trim this is (RL_LUA_FAIR_WAKE_HEAD, RL_LUA_FAIR_SEM_WAKE). -1 when out of memory. */
static int fair_wake(const script_call *c, const fair_names *n, size_t want, const char *me, size_t mlen)
{
	char (*live)[FAIR_MEMBER_MAX] = want > 0 ? malloc(want * sizeof(*live)) : NULL;
	size_t *lens = want > 0 ? malloc(want * sizeof(*lens)) : NULL, count, i;
	char key[600];
	int admitted;

	if (want > 0 && (live == NULL || lens == NULL)) {
		free(live);
		free(lens);
		return -1;
	}
	count = fair_live(c->s, n, want, live, lens, "", 0, &admitted);
	for (i = 0; i < count; i++) {
		if (lens[i] != mlen || memcmp(live[i], me, mlen) != 0) {
			announce(c, key, heartbeat_key(key, n, live[i], lens[i]));
		}
	}
	free(live);
	free(lens);
	return 0;
}

/* A queued attempt's place (re)written: the counter q .. ":ticket" raised to the ticket, the heartbeat
 * w .. me (value, PX heartbeat ms), the member at its ticket; the queue and the counter live
 * RL_FAIR_IDLE_TEXT ms more. -1 when out of memory. */
static int fair_enqueue(rl_memory_store *s, const fair_names *n, const char *me, size_t mlen, const char *ticket,
	size_t tlen, int64_t heartbeat, const char *value, size_t vlen)
{
	int64_t idle = rl_mkey_number(RL_FAIR_IDLE_TEXT, strlen(RL_FAIR_IDLE_TEXT));
	char counter[600], key[600];
	size_t clen = derived(counter, sizeof(counter), n->q, n->qlen, ":ticket", -1);
	rl_mkey *k = rl_mkey_find(s, counter, clen);

	if ((k == NULL || k->hash || rl_mkey_number(k->value, k->value_len) < rl_mkey_number(ticket, tlen))
		&& rl_mkey_set_string(s, counter, clen, ticket, tlen, -1) != 0) {
		return -1;
	}
	pexpire(s, counter, clen, idle);
	if (mlen >= FAIR_MEMBER_MAX || rl_mkey_set_string(s, key, heartbeat_key(key, n, me, mlen), value, vlen, heartbeat) != 0
		|| zadd(s, n->q, n->qlen, rl_mkey_number(ticket, tlen), me, mlen) != 0) {
		return -1;
	}
	pexpire(s, n->q, n->qlen, idle);
	return 0;
}

/* A waiter off the queue (its leave): ZREM, and its heartbeat deleted. */
static void fair_off(rl_memory_store *s, const fair_names *n, const char *me, size_t mlen)
{
	char key[600];
	rl_mkey *k;

	zrem(s, n->q, n->qlen, me, mlen);
	if (mlen < FAIR_MEMBER_MAX && (k = rl_mkey_find(s, key, heartbeat_key(key, n, me, mlen))) != NULL) {
		rl_mkey_del(s, k);
	}
}

/* fair_ticket (variant 0) and fair_semaphore_ticket (1): INCR of the queue's counter, PEXPIRE. */
static int run_fair_ticket(const script_call *c, int semaphore)
{
	fair_names n;
	char counter[600];
	size_t clen;
	long long value;

	fair_names_of(&n, c->argv[c->first], c->lens[c->first], semaphore);
	clen = derived(counter, sizeof(counter), n.q, n.qlen, ":ticket", -1);
	if ((value = rl_mkey_incr(c->s, counter, clen)) < 0) {
		return -1;
	}
	pexpire(c->s, counter, clen, rl_mkey_number(RL_FAIR_IDLE_TEXT, strlen(RL_FAIR_IDLE_TEXT)));
	return reply_int(c->out, value);
}

/* RL_SCRIPT_FAIR_LOCK: ARGV token, ttl, waiter id ('': not queued), ticket, heartbeat ms. */
static int run_fair_lock(const script_call *c, int variant)
{
	const char *me = has_argv(c, 3) ? c->argv[c->argi + 2] : "";
	size_t mlen = has_argv(c, 3) ? c->lens[c->argi + 2] : 0, hlen;
	char head[1][FAIR_MEMBER_MAX];
	fair_names n;
	int admitted;

	(void) variant;
	fair_names_of(&n, c->argv[c->first], c->lens[c->first], 0);
	if (mlen > 0 && (!has_argv(c, 5)
			|| fair_enqueue(c->s, &n, me, mlen, c->argv[c->argi + 3], c->lens[c->argi + 3], argv_n(c, 5), "1", 1) != 0)) {
		return -1;
	}
	if (fair_live(c->s, &n, 1, head, &hlen, me, mlen, &admitted) > 0 && !admitted) {
		return reply_int(c->out, 0); /* a live head that is not us */
	}
	if (rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]) != NULL) {
		return reply_int(c->out, 0);
	}
	/* the winner stays queued until its leave (RL_SCRIPT_FAIR_LOCK) */
	return rl_mkey_set_string(c->s, c->argv[c->first], c->lens[c->first], c->token, c->tlen, argv_n(c, 2)) != 0 ? -1
		: reply_int(c->out, 1);
}

/* RL_LUA_FAIR_SEM_FREE: the slots of base free here. */
static size_t sem_free(rl_memory_store *s, const char *base, size_t blen, long long limit)
{
	char key[512];
	size_t free_slots = 0;
	long long i;

	for (i = 0; i < limit; i++) {
		free_slots += rl_mkey_find(s, key, derived(key, sizeof(key), base, blen, RL_SLOT_SUFFIX, i)) == NULL;
	}
	return free_slots;
}

/* RL_LUA_FAIR_SEM_UNLOCK_WAKE: the limit the semaphore's first live waiter asked with (its heartbeat's
 * value; those without one removed), and the waiters owed a free slot woken. */
static int fair_sem_unlock_wake(const script_call *c, const char *base, size_t blen, const char *me, size_t mlen)
{
	char first[FAIR_MEMBER_MAX], key[600];
	fair_names n;
	long long limit = 0;

	fair_names_of(&n, base, blen, 1);
	for (;;) {
		size_t len = zrange_at(c->s, n.q, n.qlen, 0, first);
		rl_mkey *k;

		if (len == 0) {
			return 0;
		}
		k = rl_mkey_find(c->s, key, heartbeat_key(key, &n, first, len));
		if (k != NULL && !k->hash) {
			limit = rl_mkey_number(k->value, k->value_len);
			break;
		}
		zrem(c->s, n.q, n.qlen, first, len);
	}
	if (limit < 1 || limit > RL_SEMAPHORE_MAX_LIMIT) {
		return 0;
	}
	return fair_wake(c, &n, sem_free(c->s, base, blen, limit), me, mlen);
}

/* Whether key is a slot key ("<base>:slot:<digits>", Lua's '^(.*):slot:%d+$'); *base its base's length. */
static int slot_base(const char *key, size_t len, size_t *base)
{
	size_t suffix = sizeof(RL_SLOT_SUFFIX) - 1, end = len;

	while (end > 0 && key[end - 1] >= '0' && key[end - 1] <= '9') {
		end--;
	}
	if (end == len || end < suffix || memcmp(key + end - suffix, RL_SLOT_SUFFIX, suffix) != 0) {
		return 0;
	}
	*base = end - suffix;
	return 1;
}

/* RL_SCRIPT_FAIR_UNLOCK: unlock, the release announced, then the semaphore's waiters owed the slot (a
 * semaphore's token, 'm', on a slot key) or the lock's live head woken, but ARGV[2] (a waiter's rollback). */
static int run_fair_unlock(const script_call *c, int variant)
{
	const char *key = c->argv[c->first], *me = has_argv(c, 2) ? c->argv[c->argi + 1] : "";
	size_t len = c->lens[c->first], base, mlen = has_argv(c, 2) ? c->lens[c->argi + 1] : 0;
	fair_names n;

	(void) variant;
	if (!rl_mkey_holds(c->s, key, len, c->token, c->tlen)) {
		return reply_int(c->out, 0);
	}
	rl_mkey_del(c->s, rl_mkey_find(c->s, key, len));
	announce(c, key, len);
	if (c->tlen > 0 && c->token[0] == 'm' && slot_base(key, len, &base)) {
		return fair_sem_unlock_wake(c, key, base, me, mlen) != 0 ? -1 : reply_int(c->out, 1);
	}
	fair_names_of(&n, key, len, 0);
	return fair_wake(c, &n, 1, me, mlen) != 0 ? -1 : reply_int(c->out, 1);
}

/* RL_SCRIPT_FAIR_LEAVE: ARGV[1] the waiter's id; the new live head woken when the key is free. */
static int run_fair_leave(const script_call *c, int variant)
{
	fair_names n;

	(void) variant;
	fair_names_of(&n, c->argv[c->first], c->lens[c->first], 0);
	fair_off(c->s, &n, c->token, c->tlen);
	if (rl_mkey_find(c->s, c->argv[c->first], c->lens[c->first]) == NULL && fair_wake(c, &n, 1, c->token, c->tlen) != 0) {
		return -1;
	}
	return reply_int(c->out, 1);
}

/* RL_SCRIPT_FAIR_SEMAPHORE_LOCK: ARGV token, ttl, limit, waiter id ('': not queued), ticket, heartbeat ms. */
static int run_fair_semaphore_lock(const script_call *c, int variant)
{
	const char *base = c->argv[c->first], *me = has_argv(c, 4) ? c->argv[c->argi + 3] : "";
	size_t blen = c->lens[c->first], mlen = has_argv(c, 4) ? c->lens[c->argi + 3] : 0, free_slots, count;
	long long limit = argv_n(c, 3);
	char (*live)[FAIR_MEMBER_MAX] = NULL;
	size_t *lens = NULL;
	fair_names n;
	int admitted;

	(void) variant;
	if (limit <= 0 || limit > RL_SEMAPHORE_MAX_LIMIT || c->tlen < 7) {
		return reply_text(c->out, "-ERR bad semaphore arguments\r\n");
	}
	fair_names_of(&n, base, blen, 1);
	free_slots = sem_free(c->s, base, blen, limit);
	if (mlen > 0 && (!has_argv(c, 6)
			|| fair_enqueue(c->s, &n, me, mlen, c->argv[c->argi + 4], c->lens[c->argi + 4], argv_n(c, 6),
				   c->argv[c->argi + 2], c->lens[c->argi + 2]) != 0)) {
		return -1;
	}
	if (free_slots > 0 && ((live = malloc(free_slots * sizeof(*live))) == NULL
			|| (lens = malloc(free_slots * sizeof(*lens))) == NULL)) {
		free(live);
		return -1;
	}
	count = fair_live(c->s, &n, free_slots, live, lens, me, mlen, &admitted);
	free(live);
	free(lens);
	if (!admitted && (mlen > 0 || count >= free_slots)) {
		return reply_int(c->out, 0);
	}
	return take_slot(c, limit); /* a winner stays queued until its leave */
}

/* RL_SCRIPT_FAIR_SEMAPHORE_RELEASE: the semaphore's release, then, when it freed a slot, the waiters owed one
 * woken, but ARGV[4] (the waiter whose rollback or trim this is). */
static int run_fair_semaphore_release(const script_call *c, int variant)
{
	long long limit = argv_n(c, 2), released = release_slots(c, limit, argv_n(c, 3));
	const char *base = c->argv[c->first], *me = has_argv(c, 4) ? c->argv[c->argi + 3] : "";
	size_t blen = c->lens[c->first], mlen = has_argv(c, 4) ? c->lens[c->argi + 3] : 0;
	fair_names n;

	(void) variant;
	fair_names_of(&n, base, blen, 1);
	if (released > 0 && fair_wake(c, &n, sem_free(c->s, base, blen, limit), me, mlen) != 0) {
		return -1;
	}
	return reply_int(c->out, released);
}

/* RL_SCRIPT_FAIR_SEMAPHORE_LEAVE: ARGV[1] the waiter's id, ARGV[2] the limit; the waiters owed a free slot woken. */
static int run_fair_semaphore_leave(const script_call *c, int variant)
{
	const char *base = c->argv[c->first];
	size_t blen = c->lens[c->first];
	long long limit = argv_n(c, 2);
	fair_names n;

	(void) variant;
	fair_names_of(&n, base, blen, 1);
	fair_off(c->s, &n, c->token, c->tlen);
	if (limit > 0 && limit <= RL_SEMAPHORE_MAX_LIMIT && fair_wake(c, &n, sem_free(c->s, base, blen, limit), c->token, c->tlen) != 0) {
		return -1;
	}
	return reply_int(c->out, 1);
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
	{offsetof(rl_script_set, fair_ticket), 0, 0, run_fair_ticket, 0},
	{offsetof(rl_script_set, fair_lock), 5, -1, run_fair_lock, 0},
	{offsetof(rl_script_set, fair_unlock), 1, -1, run_fair_unlock, 0},
	{offsetof(rl_script_set, fair_leave), 1, -1, run_fair_leave, 0},
	{offsetof(rl_script_set, fair_semaphore_ticket), 0, 0, run_fair_ticket, 1},
	{offsetof(rl_script_set, fair_semaphore_lock), 6, -1, run_fair_semaphore_lock, 0},
	{offsetof(rl_script_set, fair_semaphore_release), 3, -1, run_fair_semaphore_release, 0},
	{offsetof(rl_script_set, fair_semaphore_leave), 2, -1, run_fair_semaphore_leave, 0},
};

/* Whether one of the KEYS is longer than DERIVED_NAME_MAX and the script builds keys from its KEYS (the
 * lengths first: most calls end there, without reading the script). */
static int derives_from_long_name(int argc, const char **argv, const size_t *lens, long long numkeys)
{
	long long i;

	for (i = 0; i < numkeys && 3 + i < argc; i++) {
		if (lens[3 + i] > DERIVED_NAME_MAX) {
			return rl_script_derives_keys(argv[1], lens[1]);
		}
	}
	return 0;
}

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
	if (derives_from_long_name(argc, argv, lens, numkeys)) {
		return reply_text(out, "-ERR memory:// keeps semaphores, fencing, shared locks and fair queues of names of at most "
			DERIVED_NAME_MAX_TEXT(DERIVED_NAME_MAX) " bytes\r\n");
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
	return reply_text(out, k == NULL ? "+none\r\n" : k->zset ? "+zset\r\n" : k->hash ? "+hash\r\n" : "+string\r\n");
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
