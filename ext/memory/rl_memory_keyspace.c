/* The memory:// store's keyspace and its lifecycle: see rl_memory_keyspace.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/rl_memory_keyspace.h"

rl_memory_store *rl_memory_store_create(int64_t (*now)(void *arg), void *arg)
{
	rl_memory_store *s = calloc(1, sizeof(*s));

	if (s != NULL) {
		s->now = now;
		s->now_arg = arg;
	}
	return s;
}

static void key_free(rl_mkey *k)
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

void rl_memory_store_restart(rl_memory_store *s)
{
	size_t i = 0;

	while (i < s->count) {
		if (s->keys[i].expire_at != RL_MKEY_NO_EXPIRY) {
			rl_mkey_del(s, &s->keys[i]);
		} else {
			i++;
		}
	}
}

void rl_memory_store_destroy(rl_memory_store *s)
{
	if (s != NULL) {
		rl_memory_store_clear(s);
		free(s->keys);
		free(s);
	}
}

int64_t rl_mkey_now(rl_memory_store *s)
{
	return s->now(s->now_arg);
}

void rl_mkey_del(rl_memory_store *s, rl_mkey *k)
{
	key_free(k);
	*k = s->keys[--s->count];
}

rl_mkey *rl_mkey_find(rl_memory_store *s, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		rl_mkey *k = &s->keys[i];
		if (k->len == len && memcmp(k->name, name, len) == 0) {
			if (k->expire_at <= rl_mkey_now(s)) {
				rl_mkey_del(s, k);
				return NULL;
			}
			return k;
		}
	}
	return NULL;
}

rl_mkey *rl_mkey_fresh(rl_memory_store *s, const char *name, size_t len)
{
	rl_mkey *k = rl_mkey_find(s, name, len);

	if (k != NULL) {
		rl_mkey_del(s, k);
	}
	if (s->count == s->cap) {
		/* Before growing, the expired keys go (a key is otherwise dropped only when its own name
		 * is asked for): abandoned locks cost at most as many keys as live ones. Safe here, where
		 * keys move anyway (a deletion above, a realloc below). */
		int64_t now = rl_mkey_now(s);
		size_t i = 0;

		while (i < s->count) {
			if (s->keys[i].expire_at <= now) {
				rl_mkey_del(s, &s->keys[i]);
			} else {
				i++;
			}
		}
	}
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		rl_mkey *grown = realloc(s->keys, cap * sizeof(*grown));
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
	k->expire_at = RL_MKEY_NO_EXPIRY;
	s->count++;
	return k;
}

int rl_mkey_set_string(rl_memory_store *s, const char *name, size_t len, const char *value, size_t vlen, int64_t ttl)
{
	rl_mkey *k = rl_mkey_fresh(s, name, len);

	if (k == NULL || (k->value = malloc(vlen + 1)) == NULL) {
		return -1;
	}
	memcpy(k->value, value, vlen);
	k->value[vlen] = '\0';
	k->value_len = vlen;
	k->expire_at = ttl < 0 ? RL_MKEY_NO_EXPIRY : rl_mkey_now(s) + ttl;
	return 0;
}

int rl_mkey_holds(rl_memory_store *s, const char *name, size_t len, const char *token, size_t tlen)
{
	rl_mkey *k = rl_mkey_find(s, name, len);
	return k != NULL && !k->hash && k->value_len == tlen && memcmp(k->value, token, tlen) == 0;
}

int64_t rl_mkey_pttl(rl_memory_store *s, const rl_mkey *k)
{
	return k->expire_at == RL_MKEY_NO_EXPIRY ? -1 : k->expire_at - rl_mkey_now(s);
}

rl_mfield *rl_mkey_field(rl_mkey *k, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < k->nfields; i++) {
		if (k->fields[i].len == len && memcmp(k->fields[i].name, name, len) == 0) {
			return &k->fields[i];
		}
	}
	return NULL;
}

int rl_mkey_field_set(rl_mkey *k, const char *name, size_t len, int64_t number)
{
	rl_mfield *f = rl_mkey_field(k, name, len);

	if (f == NULL) {
		if (k->nfields == k->cap_fields) {
			size_t cap = k->cap_fields ? k->cap_fields * 2 : 4;
			rl_mfield *grown = realloc(k->fields, cap * sizeof(*grown));
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

void rl_mkey_field_del(rl_mkey *k, rl_mfield *f)
{
	free(f->name);
	*f = k->fields[--k->nfields];
}

int64_t rl_mkey_prune_fields(rl_mkey *k, int64_t now)
{
	int64_t latest = 0;
	size_t i = 0;

	while (i < k->nfields) {
		if (k->fields[i].number <= now) {
			rl_mkey_field_del(k, &k->fields[i]);
			continue;
		}
		if (k->fields[i].number > latest) {
			latest = k->fields[i].number;
		}
		i++;
	}
	return latest;
}

long long rl_mkey_number(const char *bytes, size_t len)
{
	char tmp[32];
	size_t n = len < sizeof(tmp) - 1 ? len : sizeof(tmp) - 1;

	memcpy(tmp, bytes, n);
	tmp[n] = '\0';
	return strtoll(tmp, NULL, 10);
}

long long rl_mkey_incr(rl_memory_store *s, const char *name, size_t len)
{
	rl_mkey *k = rl_mkey_find(s, name, len);
	long long n = (k != NULL && !k->hash ? rl_mkey_number(k->value, k->value_len) : 0) + 1;
	char text[32];
	int tlen = snprintf(text, sizeof(text), "%lld", n);

	return rl_mkey_set_string(s, name, len, text, (size_t) tlen, -1) == 0 ? n : -1;
}

size_t rl_memory_store_keys(rl_memory_store *s,
	void (*each)(void *arg, const char *name, size_t len, const char *kind, int64_t left), void *arg)
{
	size_t i, n = 0;

	for (i = 0; i < s->count;) {
		rl_mkey *k = &s->keys[i];
		if (k->expire_at <= rl_mkey_now(s)) {
			rl_mkey_del(s, k);
			continue;
		}
		each(arg, k->name, k->len, k->zset ? "zset" : k->hash ? "hash" : "string", rl_mkey_pttl(s, k));
		n++;
		i++;
	}
	return n;
}
