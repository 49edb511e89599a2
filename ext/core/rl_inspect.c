/* inspect() and isLocked(): see rl_inspect.h. */
#include <stdlib.h>
#include <string.h>

#include "core/rl_inspect.h"
#include "core/rl_scripts_kinds.h" /* RL_FENCE_SUFFIX */

/* The commands of one key's read: MULTI; TYPE key; PTTL key; HKEYS key (a shared lock's readers);
 * GET <key>:fence; GET key; ZCARD <key>:fair (fair waiting's queue; with a limit the semaphore's,
 * <key>:semfair); [MGET its slot keys (their holders)]; EXEC. */
typedef struct inspect_batch {
	const char *argv[14];
	size_t argvlen[14];
	rl_command batch[9];
	unsigned len;
	char *fence_key;
	char *fair_key;
	const char **slot_argv; /* MGET and the slot keys */
	size_t *slot_lens;
	char *slot_bytes;
} inspect_batch;

static void batch_free(inspect_batch *b)
{
	free(b->fence_key);
	free(b->fair_key);
	free(b->slot_argv);
	free(b->slot_lens);
	free(b->slot_bytes);
}

static int batch_init(inspect_batch *b, const char *key, size_t len, int64_t limit)
{
	static const char *const verbs[] = {"TYPE", "PTTL", "HKEYS"};
	static const size_t verb_lens[] = {4, 4, 5};
	/* with a limit, the semaphore's queue (its own: RL_FAIR_SEM_SUFFIX), else the lock()'s */
	const char *fair_text = limit > 0 ? RL_FAIR_SEM_SUFFIX : RL_FAIR_SUFFIX;
	size_t suffix = sizeof(RL_FENCE_SUFFIX) - 1, fair_suffix = strlen(fair_text), v;

	memset(b, 0, sizeof(*b));
	if ((b->fence_key = malloc(len + suffix + 1)) == NULL || (b->fair_key = malloc(len + fair_suffix + 1)) == NULL) {
		batch_free(b);
		return -1;
	}
	memcpy(b->fair_key, key, len);
	memcpy(b->fair_key + len, fair_text, fair_suffix + 1);
	memcpy(b->fence_key, key, len);
	memcpy(b->fence_key + len, RL_FENCE_SUFFIX, suffix + 1);
	b->argv[0] = "MULTI", b->argvlen[0] = 5;
	b->batch[b->len++] = (rl_command) {1, b->argv, b->argvlen};
	for (v = 0; v < 3; v++) {
		b->argv[1 + 2 * v] = verbs[v], b->argvlen[1 + 2 * v] = verb_lens[v];
		b->argv[2 + 2 * v] = key, b->argvlen[2 + 2 * v] = len;
		b->batch[b->len++] = (rl_command) {2, b->argv + 1 + 2 * v, b->argvlen + 1 + 2 * v};
	}
	b->argv[7] = "GET", b->argvlen[7] = 3, b->argv[8] = b->fence_key, b->argvlen[8] = len + suffix;
	b->batch[b->len++] = (rl_command) {2, b->argv + 7, b->argvlen + 7};
	b->argv[9] = "GET", b->argvlen[9] = 3, b->argv[10] = key, b->argvlen[10] = len; /* the holder's token */
	b->batch[b->len++] = (rl_command) {2, b->argv + 9, b->argvlen + 9};
	b->argv[11] = "ZCARD", b->argvlen[11] = 5, b->argv[12] = b->fair_key, b->argvlen[12] = len + fair_suffix;
	b->batch[b->len++] = (rl_command) {2, b->argv + 11, b->argvlen + 11};
	if (limit > 0) {
		size_t each = len + sizeof(RL_SLOT_SUFFIX) + 24, at = 0;
		int64_t slot;

		b->slot_argv = malloc((size_t) (limit + 1) * sizeof(*b->slot_argv));
		b->slot_lens = malloc((size_t) (limit + 1) * sizeof(*b->slot_lens));
		b->slot_bytes = malloc((size_t) limit * each);
		if (b->slot_argv == NULL || b->slot_lens == NULL || b->slot_bytes == NULL) {
			batch_free(b);
			return -1;
		}
		b->slot_argv[0] = "MGET", b->slot_lens[0] = 4;
		for (slot = 0; slot < limit; slot++, at += each) {
			b->slot_argv[slot + 1] = b->slot_bytes + at;
			b->slot_lens[slot + 1] = rl_semaphore_slot_key(b->slot_bytes + at, each, key, len, slot);
		}
		b->batch[b->len++] = (rl_command) {(int) limit + 1, b->slot_argv, b->slot_lens};
	}
	b->argv[13] = "EXEC", b->argvlen[13] = 4;
	b->batch[b->len++] = (rl_command) {1, b->argv + 13, b->argvlen + 13};
	return 0;
}

/* An exclusive lock's holder is a token, and it holds the lock only where a quorum of servers
 * keep that same token: two minorities holding two tokens (two failed attempts, each left on
 * fewer than a quorum until its ttl) are nobody's lock. How many servers keep the most common
 * string value; *which (of servers) marks them. */
static unsigned agreeing_token(const rl_inspected *seen, const rl_outcome *outcomes, size_t servers,
	unsigned char *which)
{
	size_t i, j, best_at = servers;
	unsigned best = 0;

	for (i = 0; i < servers; i++) {
		unsigned same = 0;

		if (outcomes[i].kind != RL_OUTCOME_YES || seen[i].type != RL_KEY_STRING || seen[i].value_len == 0) {
			continue;
		}
		for (j = 0; j < servers; j++) {
			same += outcomes[j].kind == RL_OUTCOME_YES && seen[j].type == RL_KEY_STRING
				&& seen[j].value_len == seen[i].value_len && memcmp(seen[j].value, seen[i].value, seen[i].value_len) == 0;
		}
		if (same > best) {
			best = same, best_at = i;
		}
	}
	for (i = 0; i < servers; i++) {
		which[i] = best_at < servers && outcomes[i].kind == RL_OUTCOME_YES && seen[i].type == RL_KEY_STRING
			&& seen[i].value_len == seen[best_at].value_len
			&& memcmp(seen[i].value, seen[best_at].value, seen[best_at].value_len) == 0;
	}
	return best;
}

/* One token one server keeps, for counting the servers that keep it. */
typedef struct kept_token {
	const rl_inspected_token *token;
	size_t server;
} kept_token;

static int token_order(const void *a, const void *b)
{
	const kept_token *x = a, *y = b;
	const rl_inspected_token *s = x->token, *t = y->token;
	int bytes;

	if (s->slot != t->slot) {
		return s->slot < t->slot ? -1 : 1;
	}
	if (s->whole != t->whole || s->len != t->len) {
		return s->whole != t->whole ? (s->whole < t->whole ? -1 : 1) : (s->len < t->len ? -1 : 1);
	}
	if ((bytes = memcmp(s->bytes, t->bytes, s->len)) != 0) {
		return bytes;
	}
	return x->server < y->server ? -1 : x->server > y->server;
}

static int same_token(const rl_inspected_token *s, const rl_inspected_token *t)
{
	return s->slot == t->slot && s->whole == t->whole && s->len == t->len && memcmp(s->bytes, t->bytes, s->len) == 0;
}

/* Shared readers and semaphore slots are held by tokens too, each only where a quorum of servers keep
 * it (a reader in the hash; a slot's holder in that same slot): readers or slots left on minorities
 * (attempts that failed, servers down when they were taken) are nobody's, and two holders on two
 * overlapping quorums are two. How many tokens (slots > 0: the slots' holders, else the readers) a
 * quorum keeps; *which (of servers) marks the servers that keep at least one of them. -1 when out of
 * memory. */
static int64_t quorum_tokens(const rl_inspected *seen, const rl_outcome *outcomes, size_t servers, int slots,
	unsigned quorum, unsigned char *which)
{
	size_t i, j, count = 0, at, end;
	kept_token *all;
	int64_t held = 0;

	memset(which, 0, servers ? servers : 1);
	for (i = 0; i < servers; i++) {
		count += outcomes[i].kind == RL_OUTCOME_YES ? seen[i].ntokens : 0;
	}
	if ((all = malloc((count ? count : 1) * sizeof(*all))) == NULL) {
		return -1;
	}
	for (i = 0, count = 0; i < servers; i++) {
		for (j = 0; outcomes[i].kind == RL_OUTCOME_YES && j < seen[i].ntokens; j++) {
			if ((seen[i].tokens[j].slot >= 0) == (slots > 0)) {
				all[count].token = &seen[i].tokens[j], all[count++].server = i;
			}
		}
	}
	qsort(all, count, sizeof(*all), token_order);
	for (at = 0; at < count; at = end) {
		unsigned keeping = 1;

		for (end = at + 1; end < count && same_token(all[end].token, all[at].token); end++) {
			keeping += all[end].server != all[end - 1].server; /* a server named twice counts once */
		}
		if (keeping >= quorum) {
			held++;
			for (j = at; j < end; j++) {
				which[all[j].server] = 1;
			}
		}
	}
	free(all);
	return held;
}

static void free_seen(rl_inspected *seen, size_t servers)
{
	size_t i;

	for (i = 0; seen != NULL && i < servers; i++) {
		free(seen[i].tokens);
	}
	free(seen);
}

/* What inspect_key gathers of one key's answers, a row per server. */
typedef struct {
	rl_inspected *seen;   /* each server's read of the key */
	unsigned char *which; /* the servers keeping a token a quorum agrees on */
	int64_t *left;        /* the pttl of the servers holding (then: of those keeping such a token) */
	int64_t *queued;      /* the answering servers' queue lengths */
} inspect_rows;

static void rows_free(inspect_rows *r, size_t servers)
{
	free_seen(r->seen, servers), free(r->which), free(r->left), free(r->queued);
}

static int rows_alloc(inspect_rows *r, size_t servers)
{
	size_t rows = servers ? servers : 1;

	r->seen = calloc(rows, sizeof(*r->seen));
	r->which = calloc(rows, 1);
	r->left = calloc(rows, sizeof(*r->left));
	r->queued = calloc(rows, sizeof(*r->queued));
	if (r->seen == NULL || r->which == NULL || r->left == NULL || r->queued == NULL) {
		free(r->seen), free(r->which), free(r->left), free(r->queued);
		return -1;
	}
	return 0;
}

/* The key's read on every server, in one round trip (seen, outcomes: yes = a key there, taken =
 * free); the time it took, or -1 out of memory. */
static double read_key(const rl_lock_io *io, const rl_lock_policy *policy, const char *key, size_t len, int64_t limit,
	rl_inspected *seen, rl_outcome *outcomes)
{
	inspect_batch b;
	rl_request request;
	double start, elapsed;

	if (batch_init(&b, key, len, limit) != 0) {
		return -1;
	}
	memset(&request, 0, sizeof(request));
	request.command = b.batch[b.len - 1]; /* never sent alone: the batch is */
	request.expect = RL_EXPECT_INSPECT;
	request.batch = b.batch;
	request.batch_len = b.len;
	request.inspected = seen;
	/* every server's answer (within the call's bound): which token a quorum agrees on cannot be
	 * told from the first quorum of keys */
	request.undecided = rl_request_every_reply;
	start = io->now(io->arg);
	io->run(io->arg, &request, policy->quorum, start + policy->call_bound_ms, outcomes);
	elapsed = io->now(io->arg) - start;
	batch_free(&b);
	return elapsed;
}

/* Counts the answers into out (answered, fence, holding), the holding servers' pttl into left and
 * the answering servers' queues into queued (*q of them): the kind most of the holding servers agree on. */
static rl_inspect_kind tally_answers(inspect_rows *r, const rl_outcome *outcomes, size_t servers, rl_inspection *out,
	unsigned *q)
{
	unsigned n = 0, strings = 0, hashes = 0, slotted = 0;
	size_t i;

	for (i = 0; i < servers; i++) {
		const rl_inspected *seen = &r->seen[i];
		int yes = outcomes[i].kind == RL_OUTCOME_YES;

		if (!yes && outcomes[i].kind != RL_OUTCOME_TAKEN) {
			continue;
		}
		out->answered++;
		out->fence = seen->fence > out->fence ? seen->fence : out->fence;
		r->queued[(*q)++] = seen->waiters;
		if (!yes) {
			continue;
		}
		strings += seen->type == RL_KEY_STRING;
		hashes += seen->type == RL_KEY_HASH;
		slotted += seen->type == RL_KEY_NONE && seen->slots > 0;
		r->left[n++] = seen->pttl;
	}
	out->holding = n;
	return strings >= hashes && strings >= slotted ? RL_INSPECT_EXCLUSIVE
		: hashes >= slotted ? RL_INSPECT_SHARED : RL_INSPECT_SEMAPHORE;
}

/* The ttl a quorum of left (n servers) vouches for, less the read's time and the drift; 0 if none.
 * A key without expiry (-1) is none of ours: it counts as held, for ever. */
static double held_ttl(int64_t *left, unsigned n, double elapsed, const rl_lock_policy *policy)
{
	int64_t quorum_pttl;
	double ttl;
	unsigned i;

	for (i = 0; i < n; i++) {
		left[i] = left[i] == -1 ? INT64_MAX / 2 : left[i];
	}
	quorum_pttl = rl_quorum_pttl(left, n, policy->quorum);
	ttl = quorum_pttl > 0 ? rl_validity_ms(quorum_pttl, elapsed, policy->drift_factor) : 0;
	return ttl > 0 ? ttl : 0;
}

/* One key, one round trip; its verdict (1 held, 0 free, -2 no quorum of answers) with *out
 * filled for it; -1 out of memory. */
static int inspect_key(const rl_lock_io *io, const rl_lock_policy *policy, const char *key, size_t len,
	int64_t limit, size_t servers, rl_outcome *outcomes, rl_inspection *out)
{
	inspect_rows r;
	int64_t holders = 1;
	unsigned n, q = 0;
	rl_inspect_kind kind;
	double elapsed;
	size_t i;

	if (rows_alloc(&r, servers) != 0) {
		return -1;
	}
	if ((elapsed = read_key(io, policy, key, len, limit, r.seen, outcomes)) < 0) {
		rows_free(&r, servers);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->fence = -1;
	kind = tally_answers(&r, outcomes, servers, out, &q);
	n = out->holding;
	if (out->answered < policy->quorum && n < policy->quorum) {
		rows_free(&r, servers);
		return -2;
	}
	/* the queue's length as a quorum of the answers vouches for it (at least that long on a quorum) */
	out->waiters = q >= policy->quorum ? rl_quorum_pttl(r.queued, q, policy->quorum) : 0;
	if (n >= policy->quorum && kind != RL_INSPECT_EXCLUSIVE
		&& (holders = quorum_tokens(r.seen, outcomes, servers, kind == RL_INSPECT_SEMAPHORE, policy->quorum, r.which)) < 0) {
		rows_free(&r, servers);
		return -1;
	}
	if (n >= policy->quorum) {
		/* held only by tokens a quorum keeps (an exclusive lock's one token; readers, slots' holders),
		 * its ttl from the servers keeping them alone: two minorities, or more, are nobody's */
		if (kind == RL_INSPECT_EXCLUSIVE) {
			agreeing_token(r.seen, outcomes, servers, r.which);
		}
		n = 0;
		for (i = 0; i < servers; i++) {
			if (r.which[i]) {
				r.left[n++] = r.seen[i].pttl;
			}
		}
	}
	if (n >= policy->quorum && holders > 0) {
		out->held = 1;
		out->kind = kind;
		out->holders = holders;
		out->ttl_ms = kind == RL_INSPECT_SEMAPHORE ? -1 : held_ttl(r.left, n, elapsed, policy);
	}
	rows_free(&r, servers);
	return out->held;
}

int rl_inspect(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys, int64_t limit,
	size_t servers, rl_outcome *outcomes, rl_inspection *out)
{
	size_t k;

	memset(out, 0, sizeof(*out));
	out->fence = -1;
	for (k = 0; k < keys->count; k++) {
		rl_inspection one;
		int verdict = inspect_key(io, policy, keys->keys[k], keys->lens[k], limit, servers, outcomes, &one);

		if (verdict < 0) {
			return verdict == -1 ? -1 : 0;
		}
		out->fence = one.fence > out->fence ? one.fence : out->fence;
		out->answered = k == 0 || one.answered < out->answered ? one.answered : out->answered;
		out->waiters = one.waiters > out->waiters ? one.waiters : out->waiters;
		if (one.held && (!out->held || one.ttl_ms < out->ttl_ms)) {
			int64_t fence = out->fence, waiters = out->waiters;
			unsigned answered = out->answered;

			*out = one;
			out->fence = fence, out->answered = answered, out->waiters = waiters;
		}
	}
	return 1;
}
