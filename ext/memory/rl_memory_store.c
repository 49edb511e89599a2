/* The memory:// store: see rl_memory_store.h. Each script below mirrors its Lua source in
 * core/rl_scripts.h or core/rl_scripts_kinds.h, return values included; a script it does not know
 * is an error reply, never a guess. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/rl_memory_store.h"
#include "memory/rl_memory_resp.h"
#include "core/rl_lock.h"
#include "core/rl_scripts.h"
#include "core/rl_scripts_kinds.h"

#define NO_EXPIRY INT64_MAX

typedef struct field {
	char *name;
	size_t len;
	int64_t number; /* a shared holder's deadline (server ms) */
} field;

typedef struct mkey {
	char *name;
	size_t len;
	int hash;            /* a shared lock's hash of token -> deadline; else a string */
	char *value;
	size_t value_len;
	field *fields;
	size_t nfields, cap_fields;
	int64_t expire_at;   /* store ms; NO_EXPIRY */
} mkey;

struct rl_memory_store {
	mkey *keys;
	size_t count, cap;
	int64_t (*now)(void *arg);
	void *now_arg;
	int delifeq;
};

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

/* --- keys --------------------------------------------------------------------------------- */

rl_memory_store *rl_memory_store_create(int64_t (*now)(void *arg), void *arg)
{
	rl_memory_store *s = calloc(1, sizeof(*s));

	if (s != NULL) {
		s->now = now;
		s->now_arg = arg;
	}
	return s;
}

static void key_free(mkey *k)
{
	size_t i;

	for (i = 0; i < k->nfields; i++) {
		free(k->fields[i].name);
	}
	free(k->fields);
	free(k->value);
	free(k->name);
}

void rl_memory_store_clear(rl_memory_store *s)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		key_free(&s->keys[i]);
	}
	s->count = 0;
}

static void del_key(rl_memory_store *s, mkey *k);

void rl_memory_store_restart(rl_memory_store *s)
{
	size_t i = 0;

	while (i < s->count) {
		if (s->keys[i].expire_at != NO_EXPIRY) {
			del_key(s, &s->keys[i]);
		} else {
			i++;
		}
	}
}

void rl_memory_store_set_delifeq(rl_memory_store *s, int on)
{
	s->delifeq = on;
}

void rl_memory_store_destroy(rl_memory_store *s)
{
	if (s != NULL) {
		rl_memory_store_clear(s);
		free(s->keys);
		free(s);
	}
}

static int64_t now_of(rl_memory_store *s)
{
	return s->now(s->now_arg);
}

static void del_key(rl_memory_store *s, mkey *k)
{
	key_free(k);
	*k = s->keys[--s->count];
}

static mkey *find_key(rl_memory_store *s, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		mkey *k = &s->keys[i];
		if (k->len == len && memcmp(k->name, name, len) == 0) {
			if (k->expire_at <= now_of(s)) {
				del_key(s, k);
				return NULL;
			}
			return k;
		}
	}
	return NULL;
}

/* The key name, emptied and made a string (or a new one). NULL when out of memory. */
static mkey *fresh_key(rl_memory_store *s, const char *name, size_t len)
{
	mkey *k = find_key(s, name, len);

	if (k != NULL) {
		del_key(s, k);
	}
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		mkey *grown = realloc(s->keys, cap * sizeof(*grown));
		if (grown == NULL) {
			return NULL;
		}
		s->keys = grown;
		s->cap = cap;
	}
	k = &s->keys[s->count];
	memset(k, 0, sizeof(*k));
	if ((k->name = malloc(len + 1)) == NULL) {
		return NULL;
	}
	memcpy(k->name, name, len);
	k->name[len] = '\0';
	k->len = len;
	k->expire_at = NO_EXPIRY;
	s->count++;
	return k;
}

/* SET name value [PX ttl] (ttl < 0: none). -1 when out of memory. */
static int set_string(rl_memory_store *s, const char *name, size_t len, const char *value, size_t vlen, int64_t ttl)
{
	mkey *k = fresh_key(s, name, len);

	if (k == NULL || (k->value = malloc(vlen + 1)) == NULL) {
		return -1;
	}
	memcpy(k->value, value, vlen);
	k->value[vlen] = '\0';
	k->value_len = vlen;
	k->expire_at = ttl < 0 ? NO_EXPIRY : now_of(s) + ttl;
	return 0;
}

static int holds(rl_memory_store *s, const char *name, size_t len, const char *token, size_t tlen)
{
	mkey *k = find_key(s, name, len);
	return k != NULL && !k->hash && k->value_len == tlen && memcmp(k->value, token, tlen) == 0;
}

static int64_t pttl(rl_memory_store *s, const mkey *k)
{
	return k->expire_at == NO_EXPIRY ? -1 : k->expire_at - now_of(s);
}

static field *field_of(mkey *k, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < k->nfields; i++) {
		if (k->fields[i].len == len && memcmp(k->fields[i].name, name, len) == 0) {
			return &k->fields[i];
		}
	}
	return NULL;
}

static int field_set(mkey *k, const char *name, size_t len, int64_t number)
{
	field *f = field_of(k, name, len);

	if (f == NULL) {
		if (k->nfields == k->cap_fields) {
			size_t cap = k->cap_fields ? k->cap_fields * 2 : 4;
			field *grown = realloc(k->fields, cap * sizeof(*grown));
			if (grown == NULL) {
				return -1;
			}
			k->fields = grown;
			k->cap_fields = cap;
		}
		f = &k->fields[k->nfields];
		if ((f->name = malloc(len ? len : 1)) == NULL) {
			return -1;
		}
		memcpy(f->name, name, len);
		f->len = len;
		k->nfields++;
	}
	f->number = number;
	return 0;
}

static void field_del(mkey *k, field *f)
{
	free(f->name);
	*f = k->fields[--k->nfields];
}

/* Drops holders whose deadline passed; the latest deadline left (0: none). */
static int64_t prune_fields(mkey *k, int64_t now)
{
	int64_t latest = 0;
	size_t i = 0;

	while (i < k->nfields) {
		if (k->fields[i].number <= now) {
			field_del(k, &k->fields[i]);
			continue;
		}
		if (k->fields[i].number > latest) {
			latest = k->fields[i].number;
		}
		i++;
	}
	return latest;
}

/* A key derived from name (semaphore slots, fence counters), in out (size bytes). Its length. */
static size_t derived(char *out, size_t size, const char *name, size_t len, const char *suffix, long long n)
{
	int written = n >= 0 ? snprintf(out, size, "%.*s%s%lld", (int) len, name, suffix, n)
		: snprintf(out, size, "%.*s%s", (int) len, name, suffix);
	return written < 0 ? 0 : (size_t) written;
}

static long long number_of(const char *bytes, size_t len)
{
	char tmp[32];
	size_t n = len < sizeof(tmp) - 1 ? len : sizeof(tmp) - 1;

	memcpy(tmp, bytes, n);
	tmp[n] = '\0';
	return strtoll(tmp, NULL, 10);
}

/* INCR of a counter key (no expiry); its new value, or -1 when out of memory. */
static long long incr(rl_memory_store *s, const char *name, size_t len)
{
	mkey *k = find_key(s, name, len);
	long long n = (k != NULL && !k->hash ? number_of(k->value, k->value_len) : 0) + 1;
	char text[32];
	int tlen = snprintf(text, sizeof(text), "%lld", n);

	return set_string(s, name, len, text, (size_t) tlen, -1) == 0 ? n : -1;
}

size_t rl_memory_store_keys(rl_memory_store *s,
	void (*each)(void *arg, const char *name, size_t len, const char *kind, int64_t left), void *arg)
{
	size_t i, n = 0;

	for (i = 0; i < s->count;) {
		mkey *k = &s->keys[i];
		if (k->expire_at <= now_of(s)) {
			del_key(s, k);
			continue;
		}
		each(arg, k->name, k->len, k->hash ? "hash" : "string", pttl(s, k));
		n++;
		i++;
	}
	return n;
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

/* EVAL: KEYS are argv[3 .. 3+numkeys-1], ARGV[j] is argv[3+numkeys+j-1]. */
static int eval(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	const rl_script_set *sc = rl_scripts();
	const char *src = argv[1];
	size_t srclen = lens[1];
	long long numkeys = number_of(argv[2], lens[2]);
	int first = 3, argi, i;
	const char *token;
	size_t tlen;
	int64_t now = now_of(s);
	char key[512];
	size_t klen;

	if (numkeys < 0 || 3 + numkeys > argc) {
		return reply_text(out, "-ERR Number of keys can't be greater than number of args\r\n");
	}
	argi = 3 + (int) numkeys;
#define ARGV_N(j) (argi + (j) - 1 < argc ? number_of(argv[argi + (j) - 1], lens[argi + (j) - 1]) : 0)
#define HAS_ARGV(j) (argi + (j) - 1 < argc)
	if (!HAS_ARGV(1)) {
		if (same_script(src, srclen, &sc->force_unlock)) { /* the one script without ARGV */
			for (i = first; i < argi; i++) {
				mkey *k = find_key(s, argv[i], lens[i]);
				if (k != NULL) {
					del_key(s, k);
				}
			}
			return reply_int(out, 1);
		}
		return reply_text(out, NOT_OURS) != 0 ? -1 : 1;
	}
	token = argv[argi];
	tlen = lens[argi];

	if (same_script(src, srclen, &sc->unlock) || same_script(src, srclen, &sc->unlock_multi)) {
		long long released = 0;
		for (i = first; i < argi; i++) {
			if (holds(s, argv[i], lens[i], token, tlen)) {
				del_key(s, find_key(s, argv[i], lens[i]));
				released++;
			}
		}
		return reply_int(out, released);
	}
	if (same_script(src, srclen, &sc->lock_multi) || same_script(src, srclen, &sc->lock_fenced)) {
		int fenced = same_script(src, srclen, &sc->lock_fenced);
		long long fence = 0;
		for (i = first; i < argi; i++) {
			if (find_key(s, argv[i], lens[i]) != NULL) {
				return reply_int(out, 0);
			}
		}
		for (i = first; i < argi; i++) {
			if (set_string(s, argv[i], lens[i], token, tlen, ARGV_N(2)) != 0) {
				return -1;
			}
			if (fenced) {
				long long n;
				klen = derived(key, sizeof(key), argv[i], lens[i], RL_FENCE_SUFFIX, -1);
				if ((n = incr(s, key, klen)) < 0) {
					return -1;
				}
				fence = n > fence ? n : fence;
			}
		}
		return reply_int(out, fenced ? fence : 1);
	}
	if (same_script(src, srclen, &sc->extend) || same_script(src, srclen, &sc->fence_writeback)) {
		int writeback = same_script(src, srclen, &sc->fence_writeback);
		int64_t n = ARGV_N(2);
		for (i = first; i < argi; i++) {
			if (!holds(s, argv[i], lens[i], token, tlen)) {
				return reply_int(out, 0);
			}
		}
		for (i = first; i < argi; i++) {
			if (writeback) {
				mkey *counter;
				klen = derived(key, sizeof(key), argv[i], lens[i], RL_FENCE_SUFFIX, -1);
				counter = find_key(s, key, klen);
				if (counter == NULL || counter->hash || number_of(counter->value, counter->value_len) < n) {
					if (set_string(s, key, klen, argv[argi + 1], lens[argi + 1], -1) != 0) {
						return -1;
					}
				}
			} else {
				mkey *k = find_key(s, argv[i], lens[i]);
				if (pttl(s, k) < n) {
					k->expire_at = now + n;
				}
			}
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->validity)) {
		int64_t least = -2;
		for (i = first; i < argi; i++) {
			mkey *k;
			if (!holds(s, argv[i], lens[i], token, tlen)) {
				return reply_int(out, -2);
			}
			k = find_key(s, argv[i], lens[i]);
			if (i == first || pttl(s, k) < least) {
				least = pttl(s, k);
			}
		}
		return reply_int(out, least);
	}
	if (same_script(src, srclen, &sc->shared_lock)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		int64_t deadline = now + ARGV_N(2), latest = deadline;
		if (k != NULL && !k->hash) {
			return reply_int(out, 0);
		}
		if (k == NULL) {
			if ((k = fresh_key(s, argv[first], lens[first])) == NULL) {
				return -1;
			}
			k->hash = 1;
		} else {
			int64_t left = prune_fields(k, now);
			latest = left > latest ? left : latest;
		}
		if (field_set(k, token, tlen, deadline) != 0) {
			return -1;
		}
		k->expire_at = latest;
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->shared_unlock)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		field *f = k != NULL && k->hash ? field_of(k, token, tlen) : NULL;
		int64_t mine, latest;
		if (f == NULL) {
			return reply_int(out, 0);
		}
		mine = f->number;
		field_del(k, f);
		latest = prune_fields(k, now);
		if (latest <= now) {
			del_key(s, k);
		} else {
			k->expire_at = latest;
		}
		return reply_int(out, mine > now);
	}
	if (same_script(src, srclen, &sc->shared_extend)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		field *f = k != NULL && k->hash ? field_of(k, token, tlen) : NULL;
		int64_t ttl = ARGV_N(2);
		if (f == NULL || f->number <= now) {
			return reply_int(out, 0);
		}
		if (now + ttl > f->number) {
			f->number = now + ttl;
		}
		if (pttl(s, k) < ttl) {
			k->expire_at = now + ttl;
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->shared_validity)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		field *f = k != NULL && k->hash ? field_of(k, token, tlen) : NULL;
		int64_t left;
		if (f == NULL || f->number <= now) {
			return reply_int(out, -2);
		}
		left = f->number - now;
		if (pttl(s, k) < left) {
			left = pttl(s, k);
		}
		return reply_int(out, left);
	}
	if (same_script(src, srclen, &sc->promote) && HAS_ARGV(3)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		const char *ours = argv[argi + 2];
		size_t ours_len = lens[argi + 2];
		int mine = 0;
		size_t j;
		if (k == NULL || !k->hash) {
			return reply_int(out, 0);
		}
		for (j = 0; j < k->nfields; j++) {
			if (k->fields[j].number > now) {
				if (k->fields[j].len != ours_len || memcmp(k->fields[j].name, ours, ours_len) != 0) {
					return reply_int(out, 0);
				}
				mine = 1;
			}
		}
		if (!mine) {
			return reply_int(out, 0);
		}
		if (set_string(s, argv[first], lens[first], token, tlen, ARGV_N(2)) != 0) {
			return -1;
		}
		if (HAS_ARGV(4) && is(argv[argi + 3], lens[argi + 3], "1")) {
			long long n;
			klen = derived(key, sizeof(key), argv[first], lens[first], RL_FENCE_SUFFIX, -1);
			return (n = incr(s, key, klen)) < 0 ? -1 : reply_int(out, n);
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->demote) && HAS_ARGV(3)) {
		int64_t ttl = ARGV_N(2);
		mkey *k;
		if (!holds(s, argv[first], lens[first], token, tlen)) {
			return reply_int(out, 0);
		}
		if ((k = fresh_key(s, argv[first], lens[first])) == NULL) {
			return -1;
		}
		k->hash = 1;
		if (field_set(k, argv[argi + 2], lens[argi + 2], now + ttl) != 0) {
			return -1;
		}
		k->expire_at = now + ttl;
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->demote_rollback) && HAS_ARGV(3)) {
		mkey *k = find_key(s, argv[first], lens[first]);
		int gone = 0;
		if (k != NULL && !k->hash && k->value_len == tlen && memcmp(k->value, token, tlen) == 0) {
			del_key(s, k);
			gone = 1;
		} else if (k != NULL && k->hash) {
			field *f = field_of(k, argv[argi + 2], lens[argi + 2]);
			if (f != NULL) {
				field_del(k, f);
				gone = 1;
			}
			if (k->nfields == 0) {
				del_key(s, k);
			}
		}
		return reply_int(out, gone);
	}
	if (same_script(src, srclen, &sc->semaphore_lock) && HAS_ARGV(3)) {
		long long limit = ARGV_N(3), start, slot;
		char hex[8];
		if (limit <= 0 || tlen < 7) {
			return reply_text(out, "-ERR bad semaphore arguments\r\n");
		}
		memcpy(hex, token + 1, 6);
		hex[6] = '\0';
		start = strtoll(hex, NULL, 16) % limit;
		for (slot = 0; slot < limit; slot++) {
			long long candidate = (start + slot) % limit;
			klen = derived(key, sizeof(key), argv[first], lens[first], RL_SLOT_SUFFIX, candidate);
			if (find_key(s, key, klen) == NULL) {
				if (set_string(s, key, klen, token, tlen, ARGV_N(2)) != 0) {
					return -1;
				}
				return reply_int(out, candidate + 1);
			}
		}
		return reply_int(out, 0);
	}
	if (same_script(src, srclen, &sc->semaphore_release) && HAS_ARGV(3)) {
		long long limit = ARGV_N(2), keep = ARGV_N(3), released = 0, slot;
		for (slot = 0; slot < limit; slot++) {
			klen = derived(key, sizeof(key), argv[first], lens[first], RL_SLOT_SUFFIX, slot);
			if (slot != keep && holds(s, key, klen, token, tlen)) {
				del_key(s, find_key(s, key, klen));
				released++;
			}
		}
		return reply_int(out, released);
	}
#undef ARGV_N
#undef HAS_ARGV
	return reply_text(out, NOT_OURS) != 0 ? -1 : 1;
}

int rl_memory_store_execute(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	const char *cmd = argv[0];
	size_t len = lens[0];

	if (is(cmd, len, "EVAL") && argc >= 3) {
		return eval(s, argc, argv, lens, out);
	}
	if (is(cmd, len, "SET") && argc >= 3) {
		int nx = 0, i, ifeq = 0;
		int64_t ttl = -1;
		for (i = 3; i < argc; i++) {
			if (is(argv[i], lens[i], "NX")) {
				nx = 1;
			} else if (is(argv[i], lens[i], "PX") && i + 1 < argc) {
				ttl = number_of(argv[i + 1], lens[i + 1]);
				i++;
			} else if (is(argv[i], lens[i], "IFEQ") && i + 1 < argc) {
				ifeq = ++i; /* Redis >= 8.4, Valkey >= 8.1: only where the value is this one */
			} else {
				return reply_text(out, "-ERR syntax error\r\n");
			}
		}
		if (nx && find_key(s, argv[1], lens[1]) != NULL) {
			return reply_text(out, "$-1\r\n");
		}
		if (ifeq && !holds(s, argv[1], lens[1], argv[ifeq], lens[ifeq])) {
			return reply_text(out, "$-1\r\n");
		}
		return set_string(s, argv[1], lens[1], argv[2], lens[2], ttl) != 0 ? -1 : reply_text(out, "+OK\r\n");
	}
	if (is(cmd, len, "GET") && argc == 2) {
		mkey *k = find_key(s, argv[1], lens[1]);
		if (k != NULL && k->hash) {
			return reply_text(out, WRONGTYPE);
		}
		return k == NULL ? reply_text(out, "$-1\r\n") : reply_bulk(out, k->value, k->value_len);
	}
	if ((is(cmd, len, "DEL") || is(cmd, len, "EXISTS")) && argc >= 2) {
		long long n = 0;
		int i, del = is(cmd, len, "DEL");
		for (i = 1; i < argc; i++) {
			mkey *k = find_key(s, argv[i], lens[i]);
			if (k != NULL) {
				n++;
				if (del) {
					del_key(s, k);
				}
			}
		}
		return reply_int(out, n);
	}
	if (is(cmd, len, "PTTL") && argc == 2) {
		mkey *k = find_key(s, argv[1], lens[1]);
		return reply_int(out, k == NULL ? -2 : pttl(s, k));
	}
	if (is(cmd, len, "DELIFEQ") && s->delifeq && argc == 3) {
		mkey *k = find_key(s, argv[1], lens[1]);
		if (k != NULL && k->hash) {
			return reply_text(out, WRONGTYPE);
		}
		if (k != NULL && k->value_len == lens[2] && memcmp(k->value, argv[2], lens[2]) == 0) {
			del_key(s, k);
			return reply_int(out, 1);
		}
		return reply_int(out, 0);
	}
	if (is(cmd, len, "PING")) {
		return reply_text(out, "+PONG\r\n");
	}
	if (is(cmd, len, "AUTH") || is(cmd, len, "SELECT")) {
		return reply_text(out, "+OK\r\n");
	}
	if (is(cmd, len, "SUBSCRIBE")) {
		/* no notifications: waiters ('waitTimeout') wake by their retry pause */
		return reply_text(out, "-ERR memory:// servers do not notify waiters\r\n");
	}
	return reply_text(out, "-ERR unknown command\r\n");
}
