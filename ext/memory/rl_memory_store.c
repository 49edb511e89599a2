/* The memory:// store's commands and scripts, on its keyspace (rl_memory_keyspace.c): see
 * rl_memory_store.h. Each script below mirrors its Lua source in
 * core/rl_scripts.h or core/rl_scripts_kinds.h, return values included; a script it does not know
 * is an error reply, never a guess. */
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

/* EVAL: KEYS are argv[3 .. 3+numkeys-1], ARGV[j] is argv[3+numkeys+j-1]. */
static int eval(rl_memory_store *s, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	const rl_script_set *sc = rl_scripts();
	const char *src = argv[1];
	size_t srclen = lens[1];
	long long numkeys = rl_mkey_number(argv[2], lens[2]);
	int first = 3, argi, i;
	const char *token;
	size_t tlen;
	int64_t now = rl_mkey_now(s);
	char key[512];
	size_t klen;

	if (numkeys < 0 || 3 + numkeys > argc) {
		return reply_text(out, "-ERR Number of keys can't be greater than number of args\r\n");
	}
	argi = 3 + (int) numkeys;
#define ARGV_N(j) (argi + (j) - 1 < argc ? rl_mkey_number(argv[argi + (j) - 1], lens[argi + (j) - 1]) : 0)
#define HAS_ARGV(j) (argi + (j) - 1 < argc)
	if (!HAS_ARGV(1)) {
		if (same_script(src, srclen, &sc->force_unlock)) { /* the one script without ARGV */
			for (i = first; i < argi; i++) {
				rl_mkey *k = rl_mkey_find(s, argv[i], lens[i]);
				if (k != NULL) {
					rl_mkey_del(s, k);
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
			if (rl_mkey_holds(s, argv[i], lens[i], token, tlen)) {
				rl_mkey_del(s, rl_mkey_find(s, argv[i], lens[i]));
				released++;
			}
		}
		/* every key, or 0 (RL_SCRIPT_UNLOCK_MULTI) */
		return reply_int(out, released == (long long) (argi - first) ? released : 0);
	}
	if (same_script(src, srclen, &sc->lock_multi) || same_script(src, srclen, &sc->lock_fenced)) {
		int fenced = same_script(src, srclen, &sc->lock_fenced);
		long long fence = 0;
		for (i = first; i < argi; i++) {
			if (rl_mkey_find(s, argv[i], lens[i]) != NULL) {
				return reply_int(out, 0);
			}
		}
		for (i = first; i < argi; i++) {
			if (rl_mkey_set_string(s, argv[i], lens[i], token, tlen, ARGV_N(2)) != 0) {
				return -1;
			}
			if (fenced) {
				long long n;
				klen = derived(key, sizeof(key), argv[i], lens[i], RL_FENCE_SUFFIX, -1);
				if ((n = rl_mkey_incr(s, key, klen)) < 0) {
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
			if (!rl_mkey_holds(s, argv[i], lens[i], token, tlen)) {
				return reply_int(out, 0);
			}
		}
		for (i = first; i < argi; i++) {
			if (writeback) {
				rl_mkey *counter;
				klen = derived(key, sizeof(key), argv[i], lens[i], RL_FENCE_SUFFIX, -1);
				counter = rl_mkey_find(s, key, klen);
				if (counter == NULL || counter->hash || rl_mkey_number(counter->value, counter->value_len) < n) {
					if (rl_mkey_set_string(s, key, klen, argv[argi + 1], lens[argi + 1], -1) != 0) {
						return -1;
					}
				}
			} else {
				rl_mkey *k = rl_mkey_find(s, argv[i], lens[i]);
				if (rl_mkey_pttl(s, k) < n) {
					k->expire_at = now + n;
				}
			}
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->validity) || same_script(src, srclen, &sc->validity_plain)) {
		int64_t least = -2;
		for (i = first; i < argi; i++) {
			rl_mkey *k;
			if (!rl_mkey_holds(s, argv[i], lens[i], token, tlen)) {
				return reply_int(out, -2);
			}
			k = rl_mkey_find(s, argv[i], lens[i]);
			if (i == first || rl_mkey_pttl(s, k) < least) {
				least = rl_mkey_pttl(s, k);
			}
		}
		return reply_int(out, least);
	}
	if (same_script(src, srclen, &sc->shared_lock)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
		int64_t deadline = now + ARGV_N(2), latest = deadline;
		if (k != NULL && !k->hash) {
			return reply_int(out, 0);
		}
		if (k == NULL) {
			if ((k = rl_mkey_fresh(s, argv[first], lens[first])) == NULL) {
				return -1;
			}
			k->hash = 1;
		} else {
			int64_t left = rl_mkey_prune_fields(k, now);
			latest = left > latest ? left : latest;
		}
		if (rl_mkey_field_set(k, token, tlen, deadline) != 0) {
			return -1;
		}
		k->expire_at = latest;
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->shared_unlock)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
		rl_mfield *f = k != NULL && k->hash ? rl_mkey_field(k, token, tlen) : NULL;
		int64_t mine, latest;
		if (f == NULL) {
			return reply_int(out, 0);
		}
		mine = f->number;
		rl_mkey_field_del(k, f);
		latest = rl_mkey_prune_fields(k, now);
		if (latest <= now) {
			rl_mkey_del(s, k);
		} else {
			k->expire_at = latest;
		}
		return reply_int(out, mine > now);
	}
	if (same_script(src, srclen, &sc->shared_extend)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
		rl_mfield *f = k != NULL && k->hash ? rl_mkey_field(k, token, tlen) : NULL;
		int64_t ttl = ARGV_N(2);
		if (f == NULL || f->number <= now) {
			return reply_int(out, 0);
		}
		if (now + ttl > f->number) {
			f->number = now + ttl;
		}
		if (rl_mkey_pttl(s, k) < ttl) {
			k->expire_at = now + ttl;
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->shared_validity) || same_script(src, srclen, &sc->shared_validity_plain)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
		rl_mfield *f = k != NULL && k->hash ? rl_mkey_field(k, token, tlen) : NULL;
		int64_t left;
		if (f == NULL || f->number <= now) {
			return reply_int(out, -2);
		}
		left = f->number - now;
		if (rl_mkey_pttl(s, k) < left) {
			left = rl_mkey_pttl(s, k);
		}
		return reply_int(out, left);
	}
	if (same_script(src, srclen, &sc->promote) && HAS_ARGV(3)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
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
		if (rl_mkey_set_string(s, argv[first], lens[first], token, tlen, ARGV_N(2)) != 0) {
			return -1;
		}
		if (HAS_ARGV(4) && is(argv[argi + 3], lens[argi + 3], "1")) {
			long long n;
			klen = derived(key, sizeof(key), argv[first], lens[first], RL_FENCE_SUFFIX, -1);
			return (n = rl_mkey_incr(s, key, klen)) < 0 ? -1 : reply_int(out, n);
		}
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->demote) && HAS_ARGV(3)) {
		int64_t ttl = ARGV_N(2);
		rl_mkey *k;
		if (!rl_mkey_holds(s, argv[first], lens[first], token, tlen)) {
			return reply_int(out, 0);
		}
		if ((k = rl_mkey_fresh(s, argv[first], lens[first])) == NULL) {
			return -1;
		}
		k->hash = 1;
		if (rl_mkey_field_set(k, argv[argi + 2], lens[argi + 2], now + ttl) != 0) {
			return -1;
		}
		k->expire_at = now + ttl;
		return reply_int(out, 1);
	}
	if (same_script(src, srclen, &sc->demote_rollback) && HAS_ARGV(3)) {
		rl_mkey *k = rl_mkey_find(s, argv[first], lens[first]);
		int gone = 0;
		if (k != NULL && !k->hash && k->value_len == tlen && memcmp(k->value, token, tlen) == 0) {
			rl_mkey_del(s, k);
			gone = 1;
		} else if (k != NULL && k->hash) {
			rl_mfield *f = rl_mkey_field(k, argv[argi + 2], lens[argi + 2]);
			if (f != NULL) {
				rl_mkey_field_del(k, f);
				gone = 1;
			}
			if (k->nfields == 0) {
				rl_mkey_del(s, k);
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
			if (rl_mkey_find(s, key, klen) == NULL) {
				if (rl_mkey_set_string(s, key, klen, token, tlen, ARGV_N(2)) != 0) {
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
			if (slot != keep && rl_mkey_holds(s, key, klen, token, tlen)) {
				rl_mkey_del(s, rl_mkey_find(s, key, klen));
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
	if (is(cmd, len, "MSETEX") && argc >= 4) {
		/* MSETEX n k1 v1 ... [NX|XX] [PX ms|EX s] (Redis >= 8.4, Valkey >= 9): every key or none */
		long long n = rl_mkey_number(argv[1], lens[1]);
		int nx = 0, xx = 0, expires = 0, i, last;
		int64_t ttl = -1;
		if (n <= 0 || n > (argc - 2) / 2) {
			return reply_text(out, "-ERR invalid numkeys value\r\n");
		}
		last = 2 + 2 * (int) n;
		for (i = last; i < argc; i++) {
			if (is(argv[i], lens[i], "NX")) {
				nx = 1;
			} else if (is(argv[i], lens[i], "XX")) {
				xx = 1;
			} else if ((is(argv[i], lens[i], "PX") || is(argv[i], lens[i], "EX")) && i + 1 < argc) {
				ttl = rl_mkey_number(argv[i + 1], lens[i + 1]) * (is(argv[i], lens[i], "EX") ? 1000 : 1);
				expires = 1;
				i++;
			} else {
				return reply_text(out, "-ERR syntax error\r\n");
			}
		}
		if ((nx && xx) || (expires && ttl <= 0)) {
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
	if (is(cmd, len, "GET") && argc == 2) {
		rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
		if (k != NULL && k->hash) {
			return reply_text(out, WRONGTYPE);
		}
		return k == NULL ? reply_text(out, "$-1\r\n") : reply_bulk(out, k->value, k->value_len);
	}
	if ((is(cmd, len, "DEL") || is(cmd, len, "EXISTS")) && argc >= 2) {
		long long n = 0;
		int i, del = is(cmd, len, "DEL");
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
	if (is(cmd, len, "TYPE") && argc == 2) { /* inspect() */
		rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
		return reply_text(out, k == NULL ? "+none\r\n" : k->hash ? "+hash\r\n" : "+string\r\n");
	}
	if (is(cmd, len, "HLEN") && argc == 2) { /* inspect(): a shared lock's readers */
		rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
		if (k != NULL && !k->hash) {
			return reply_text(out, WRONGTYPE);
		}
		return reply_int(out, k == NULL ? 0 : (long long) k->nfields);
	}
	if (is(cmd, len, "PTTL") && argc == 2) {
		rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
		return reply_int(out, k == NULL ? -2 : rl_mkey_pttl(s, k));
	}
	if (is(cmd, len, "DELIFEQ") && s->delifeq && argc == 3) {
		rl_mkey *k = rl_mkey_find(s, argv[1], lens[1]);
		if (k != NULL && k->hash) {
			return reply_text(out, WRONGTYPE);
		}
		if (k != NULL && k->value_len == lens[2] && memcmp(k->value, argv[2], lens[2]) == 0) {
			rl_mkey_del(s, k);
			return reply_int(out, 1);
		}
		return reply_int(out, 0);
	}
	if (is(cmd, len, "PING")) {
		return reply_text(out, "+PONG\r\n");
	}
	/* The eviction probe sent on connect (rl_conn_append_probes): a memory server never evicts.
	 * INFO, its fallback, is not needed then: it gets the unknown-command error. */
	if (is(cmd, len, "CONFIG") && argc == 3 && is(argv[1], lens[1], "GET") && is(argv[2], lens[2], "MAXMEMORY-POLICY")) {
		return reply_text(out, "*2\r\n$16\r\nmaxmemory-policy\r\n$10\r\nnoeviction\r\n");
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
