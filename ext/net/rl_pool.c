/* Persistent connections. See rl_pool.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_pool.h"
#include "net/rl_sentinel.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"
#include "net/rl_net_private.h"

#define ROTL(x, b) (uint64_t) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND \
	do { \
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

/* SipHash-2-4: a keyed hash, so that nobody can pick credentials that collide with others'. */
static uint64_t siphash24(const unsigned char *in, size_t len, const uint64_t key[2])
{
	uint64_t v0 = 0x736f6d6570736575ULL ^ key[0];
	uint64_t v1 = 0x646f72616e646f6dULL ^ key[1];
	uint64_t v2 = 0x6c7967656e657261ULL ^ key[0];
	uint64_t v3 = 0x7465646279746573ULL ^ key[1];
	uint64_t b = ((uint64_t) len) << 56;
	size_t i, blocks = len / 8;
	int j;

	for (i = 0; i < blocks; i++) {
		uint64_t m = 0;
		for (j = 7; j >= 0; j--) {
			m = (m << 8) | in[i * 8 + (size_t) j];
		}
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	for (j = (int) (len % 8) - 1; j >= 0; j--) {
		b |= ((uint64_t) in[blocks * 8 + (size_t) j]) << (8 * j);
	}
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

static void draw_secret(rl_pool *pool)
{
	unsigned char secret[16];

	pool->draw(secret);
	memcpy(pool->secret, secret, sizeof(pool->secret));
	memset(secret, 0, sizeof(secret));
}

/* Which secret a key was made with: a PRF output, it tells nothing about the secret. */
static void secret_tag(const rl_pool *pool, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long) siphash24((const unsigned char *) "", 0, pool->secret));
}

void rl_pool_init(rl_pool *pool, size_t max_idle, rl_pool_secret_fn draw)
{
	memset(pool, 0, sizeof(*pool));
	pool->max_idle = max_idle;
	pool->draw = draw;
	draw_secret(pool);
	pool->owner_pid = rl_process_id();
}

static void entry_close(rl_pool_entry *entry)
{
	if (entry->conn != NULL) {
		rl_conn_release(entry->conn);
		free(entry->conn);
	}
	free(entry->key);
	entry->conn = NULL;
	entry->key = NULL;
}

static void remove_at(rl_pool *pool, size_t index)
{
	memmove(&pool->entries[index], &pool->entries[index + 1], (pool->count - index - 1) * sizeof(*pool->entries));
	pool->count--;
}

void rl_pool_destroy(rl_pool *pool)
{
	size_t i;

	for (i = 0; i < pool->count; i++) {
		entry_close(&pool->entries[i]);
	}
	free(pool->entries);
	pool->entries = NULL;
	pool->count = 0;
}

/* After a fork the idle sockets belong to the parent too: drop them here without reuse. The secret
 * is drawn again, so that no two processes (an FPM master's workers) hash credentials alike. */
static void forget_if_forked(rl_pool *pool)
{
	long pid = rl_process_id();

	if (pool->owner_pid != pid) {
		pool->discarded += pool->count;
		rl_pool_destroy(pool);
		draw_secret(pool);
		pool->owner_pid = pid;
	}
}

char *rl_pool_key(rl_pool *pool, const rl_endpoint *endpoint)
{
	size_t user_len = endpoint->username ? strlen(endpoint->username) : 0;
	size_t pass_len = endpoint->password ? strlen(endpoint->password) : 0;
	size_t tls_len = endpoint->tls ? rl_tls_config_bytes(endpoint->tls, NULL, 0) : 0;
	size_t secret_len = 2 + user_len + 1 + pass_len + 1 + tls_len;
	unsigned char *secret = malloc(secret_len);
	uint64_t hash;
	const char *host;
	size_t key_len;
	char *key;
	char tag[17];

	if (secret == NULL) {
		return NULL;
	}
	forget_if_forked(pool); /* an object made in a child before its first call: the child's secret */
	/* Flags keep "no user" apart from an empty one, and "user\0pass" cannot be shifted around. */
	secret[0] = endpoint->username ? 1 : 0;
	secret[1] = endpoint->password ? 1 : 0;
	if (user_len) {
		memcpy(secret + 2, endpoint->username, user_len);
	}
	secret[2 + user_len] = '\0';
	if (pass_len) {
		memcpy(secret + 3 + user_len, endpoint->password, pass_len);
	}
	/* TLS settings too: a TLS connection never serves a plain server entry, nor one verified
	 * differently (another CA, name, client certificate, or verification off). */
	secret[3 + user_len + pass_len] = endpoint->tls ? 1 : 0;
	if (tls_len) {
		rl_tls_config_bytes(endpoint->tls, secret + 4 + user_len + pass_len, tls_len);
	}
	hash = siphash24(secret, secret_len, pool->secret);
	memset(secret, 0, secret_len);
	free(secret);

	secret_tag(pool, tag);
	/* A Sentinel member's connections fit its name and sentinels, whichever master they reached:
	 * each was a master when opened (ROLE), and one demoted since is closed by Sentinel or says READONLY. */
	host = endpoint->sentinel != NULL ? endpoint->sentinel->identity : endpoint->host;
	key_len = strlen(host) + 90 + (endpoint->shards != NULL ? endpoint->shards->tag_len : 0);
	key = malloc(key_len);
	if (key != NULL) {
		/* A cluster member's connections fit the node they reached, and only a cluster member's
		 * (they asked ROLE and carry the node's mark); a fromCluster member's, its tag too (mixed
		 * into the mark: rl_shards_mark) */
		snprintf(key, key_len, "%s%s%s%s|%d|%d|%016llx|%s", endpoint->shards != NULL ? "cluster@" : "",
			endpoint->shards != NULL ? endpoint->shards->tag : "", endpoint->shards != NULL ? "@" : "", host, endpoint->sentinel != NULL ? 0 : endpoint->port,
			endpoint->database, (unsigned long long) hash, tag);
	}
	return key;
}

int rl_pool_checkout(rl_pool *pool, const rl_endpoint *endpoint, rl_conn *conn, double now, double call_deadline)
{
	size_t i;

	forget_if_forked(pool);
	for (i = pool->count; i > 0; i--) {
		rl_pool_entry entry = pool->entries[i - 1];

		if (strcmp(entry.key, endpoint->pool_key) != 0) {
			continue;
		}
		remove_at(pool, i - 1);
		free(entry.key);
		rl_conn_release(conn); /* conn is DOWN: only its buffer goes */
		*conn = *entry.conn;
		free(entry.conn);
		conn->clock_jumps_known = 0; /* a count of its earlier user's object, not of this one's */
		conn->redirects = 0;         /* its earlier call's redirections, not this one's (cluster members) */
		/* Late replies are dropped; closed by the server, out of step, or still owing replies
		 * past their deadline: not reused. */
		rl_conn_begin_call(conn, endpoint, RL_NOT_PROBED, now, call_deadline);
		if (conn->state == RL_CONN_DOWN) {
			pool->discarded++;
			continue;
		}
		pool->reused++;
		if (conn->eviction_policy != RL_POLICY_NOT_LEARNT) {
			conn->policy_flags |= RL_POLICY_FLAG_NEWS; /* learnt by its earlier user: news to this one */
		}
		return 1;
	}
	return 0;
}

/* False for a key made with a secret this process has since replaced (before a fork). */
static int made_with_current_secret(const rl_pool *pool, const char *key)
{
	size_t len = strlen(key);
	char tag[17];

	secret_tag(pool, tag);
	return len > 16 && memcmp(key + len - 16, tag, 16) == 0;
}

void rl_pool_checkin(rl_pool *pool, const char *key, rl_conn *conn)
{
	rl_pool_entry entry;

	if (conn->state == RL_CONN_DOWN) {
		return;
	}
	forget_if_forked(pool);
	if (key == NULL || pool->max_idle == 0 || !made_with_current_secret(pool, key) || !rl_conn_reusable(conn)) {
		rl_conn_close(conn);
		pool->discarded++;
		return;
	}
	if (pool->count == pool->max_idle) {
		entry_close(&pool->entries[0]); /* the oldest goes */
		remove_at(pool, 0);
		pool->discarded++;
	}
	if (pool->entries == NULL) {
		pool->entries = calloc(pool->max_idle, sizeof(*pool->entries));
	}
	entry.key = strdup(key);
	entry.conn = malloc(sizeof(*entry.conn));
	if (pool->entries == NULL || entry.key == NULL || entry.conn == NULL) {
		free(entry.key);
		free(entry.conn);
		rl_conn_close(conn);
		pool->discarded++;
		return;
	}
	*entry.conn = *conn; /* the socket, its owed replies and deadline, its buffers move over */
	rl_conn_init(conn);
	pool->entries[pool->count++] = entry;
}

size_t rl_pool_idle(const rl_pool *pool)
{
	return pool->count;
}
