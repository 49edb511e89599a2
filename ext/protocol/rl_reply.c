/* What a server's reply means for a vote. See rl_reply.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/rl_reply.h"

void rl_outcome_set_bytes(rl_outcome *out, rl_outcome_kind kind, const char *bytes, size_t len)
{
	size_t i;

	out->kind = kind;
	if (len >= RL_MESSAGE_MAX) {
		len = RL_MESSAGE_MAX - 1;
	}
	/* Error texts are shown to users: keep them printable and free of embedded NULs. */
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char) bytes[i];
		out->message[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char) ch;
	}
	out->message[len] = '\0';
}

void rl_outcome_set(rl_outcome *out, rl_outcome_kind kind, const char *message)
{
	rl_outcome_set_bytes(out, kind, message, message ? strlen(message) : 0);
}

void rl_reply_classify_any(const rl_reply *reply, rl_expect expect, rl_outcome *out)
{
	out->integer = 0;
	if (reply->type == RL_REPLY_ERROR) {
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
		return;
	}
	switch (expect) {
		case RL_EXPECT_OK:
			if (reply->type == RL_REPLY_STATUS && reply->len == 2 && reply->str[0] == 'O' && reply->str[1] == 'K') {
				out->kind = RL_OUTCOME_YES;
				out->message[0] = '\0';
				return;
			}
			if (reply->type == RL_REPLY_NIL) {
				rl_outcome_set(out, RL_OUTCOME_TAKEN, "taken");
				return;
			}
			break;
		case RL_EXPECT_POSITIVE_INT:
			if (reply->type == RL_REPLY_INTEGER) {
				out->integer = reply->integer;
				if (reply->integer > 0) {
					out->kind = RL_OUTCOME_YES;
					out->message[0] = '\0';
				} else {
					rl_outcome_set(out, RL_OUTCOME_TAKEN, "taken");
				}
				return;
			}
			break;
		case RL_EXPECT_INT:
			if (reply->type == RL_REPLY_INTEGER) {
				out->integer = reply->integer;
				out->kind = RL_OUTCOME_YES;
				out->message[0] = '\0';
				return;
			}
			break;
		case RL_EXPECT_HELD: /* rl_reply_classify_held */
		case RL_EXPECT_INSPECT: /* rl_reply_classify_inspect */
			break;
	}
	rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
}

void rl_reply_classify_row(const rl_reply *reply, rl_expect expect, unsigned rows, unsigned row, rl_outcome *out)
{
	rl_reply one;

	if (reply->type != RL_REPLY_STATUS || reply->len != rows || row >= rows) {
		rl_reply_classify(reply, expect, out);
		return;
	}
	if (reply->str[row] != '0' && reply->str[row] != '1') {
		out->integer = 0;
		rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply");
		return;
	}
	memset(&one, 0, sizeof(one));
	one.type = RL_REPLY_INTEGER;
	one.integer = reply->str[row] - '0';
	one.items = reply->items;
	rl_reply_classify(&one, expect, out);
}

int rl_outcomes_scripts_refused(const rl_outcome *outcomes, size_t count, unsigned quorum)
{
	size_t i, refusals = 0;

	for (i = 0; i < count; i++) {
		if (outcomes[i].kind == RL_OUTCOME_ERROR && strncmp(outcomes[i].message, "NOPERM", 6) == 0
			&& strstr(outcomes[i].message, "'eval'") != NULL) {
			refusals++;
		}
	}
	return refusals > 0 && refusals + quorum > count;
}

int rl_outcomes_quorum_refused(const rl_outcome *outcomes, size_t count, unsigned quorum)
{
	size_t i, refused = 0;

	for (i = 0; i < count; i++) {
		refused += outcomes[i].kind == RL_OUTCOME_TAKEN;
	}
	return refused + quorum > count;
}

void rl_reply_classify_held(const rl_reply *reply, const char *token, size_t token_len, rl_outcome *out)
{
	const rl_reply_item *value = reply->items, *pttl = reply->items + 1;
	size_t i;

	out->integer = 0;
	if (reply->type == RL_REPLY_ERROR) {
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
		return;
	}
	if (reply->type != RL_REPLY_ARRAY || reply->integer != 2) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
		return;
	}
	for (i = 0; i < 2; i++) {
		if (reply->items[i].type == RL_REPLY_ERROR) {
			rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->items[i].str, reply->items[i].len);
			return;
		}
	}
	if (pttl->type != RL_REPLY_INTEGER || (value->type != RL_REPLY_STRING && value->type != RL_REPLY_NIL)) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
		return;
	}
	/* a string's integer is its whole length; its head holds a token's every byte */
	if (value->type == RL_REPLY_STRING && (size_t) value->integer == token_len && token_len <= RL_REPLY_ITEM_HEAD
		&& value->len == token_len && memcmp(value->str, token, token_len) == 0 && pttl->integer > 0) {
		out->kind = RL_OUTCOME_YES;
		out->integer = pttl->integer;
		out->message[0] = '\0';
		return;
	}
	rl_outcome_set(out, RL_OUTCOME_TAKEN, "taken");
}

static long long item_decimal(const rl_reply_item *item)
{
	long long n = 0;
	size_t i;

	for (i = 0; i < item->len && item->str[i] >= '0' && item->str[i] <= '9' && n < 1000000000000000000LL / 10; i++) {
		n = n * 10 + (item->str[i] - '0');
	}
	return n;
}

/* The inspection script's reply: an error is the server's, else an array of at least 6 items whose
 * first two are a TYPE status and a PTTL integer. 0, or -1 with *out. */
static int inspect_reply_shape(const rl_reply *reply, rl_outcome *out)
{
	const rl_reply_item *type = reply->items, *pttl = reply->items + 1;

	if (reply->type == RL_REPLY_ERROR) {
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
		return -1;
	}
	if (reply->type != RL_REPLY_ARRAY || reply->integer < 6 || reply->integer > RL_REPLY_ITEMS) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
		return -1;
	}
	if (type->type == RL_REPLY_ERROR || pttl->type == RL_REPLY_ERROR) {
		const rl_reply_item *bad = type->type == RL_REPLY_ERROR ? type : pttl;
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, bad->str, bad->len);
		return -1;
	}
	if (type->type != RL_REPLY_STATUS || pttl->type != RL_REPLY_INTEGER) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
		return -1;
	}
	return 0;
}

/* The holders' tokens: the readers (HKEYS, item 2, of a hash) and the slots' holders (MGET, item
 * 6). 0, or -1 out of memory. */
static int inspect_tokens(const rl_reply *reply, rl_inspected *inspected)
{
	size_t i;

	if (reply->nested_count > 0 && (inspected->tokens = malloc(reply->nested_count * sizeof(*inspected->tokens))) == NULL) {
		return -1;
	}
	for (i = 0; i < reply->nested_count; i++) {
		const rl_reply_nested *one = &reply->nested[i];
		rl_inspected_token *token;

		if ((one->item != 2 || inspected->type != RL_KEY_HASH) && (one->item != 6 || reply->integer <= 6)) {
			continue;
		}
		token = &inspected->tokens[inspected->ntokens++];
		token->slot = one->item == 6 ? one->at : -1;
		token->whole = one->whole;
		token->len = one->len < RL_INSPECT_VALUE_MAX ? one->len : RL_INSPECT_VALUE_MAX;
		memcpy(token->bytes, one->head, token->len);
		inspected->slots += one->item == 6;
	}
	return 0;
}

void rl_reply_classify_inspect(const rl_reply *reply, rl_outcome *out, rl_inspected *inspected)
{
	const rl_reply_item *type = reply->items, *pttl = reply->items + 1, *hkeys = reply->items + 2,
		*fence = reply->items + 3, *value = reply->items + 4, *queue = reply->items + 5;

	free(inspected->tokens); /* a reply read again (a redirection followed) */
	memset(inspected, 0, sizeof(*inspected));
	inspected->fence = -1;
	out->integer = 0;
	if (inspect_reply_shape(reply, out) != 0) {
		return;
	}
	inspected->type = type->len == 4 && memcmp(type->str, "none", 4) == 0 ? RL_KEY_NONE
		: type->len == 6 && memcmp(type->str, "string", 6) == 0 ? RL_KEY_STRING
		: type->len == 4 && memcmp(type->str, "hash", 4) == 0 ? RL_KEY_HASH : RL_KEY_OTHER;
	inspected->pttl = pttl->integer;
	inspected->holders = hkeys->type == RL_REPLY_ARRAY ? hkeys->integer : 0;
	inspected->fence = fence->type == RL_REPLY_STRING ? item_decimal(fence) : -1;
	/* an error here (a key of another type there, or a server without ZCARD: the memory servers, which
	 * keep no queue) is no queue */
	inspected->waiters = queue->type == RL_REPLY_INTEGER ? queue->integer : 0;
	/* the readers (HKEYS, item 2) and the slots' holders (MGET, item 6): who holds, not how many keys */
	if (inspect_tokens(reply, inspected) != 0) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "out of memory");
		return;
	}
	/* a string's integer is its whole length: kept only when its head is all of it */
	if (value->type == RL_REPLY_STRING && value->integer >= 0 && (size_t) value->integer == value->len
		&& value->len <= RL_INSPECT_VALUE_MAX && value->len <= RL_REPLY_ITEM_HEAD) {
		memcpy(inspected->value, value->str, value->len);
		inspected->value_len = value->len;
	}
	if (inspected->type != RL_KEY_NONE || inspected->slots > 0) {
		out->kind = RL_OUTCOME_YES;
		out->integer = inspected->pttl;
		out->message[0] = '\0';
		return;
	}
	rl_outcome_set(out, RL_OUTCOME_TAKEN, "free");
}

static const char *const policy_names[RL_POLICY_COUNT] = {NULL, "noeviction", "allkeys-lru", "allkeys-lfu",
	"allkeys-random", "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "other", "unknown"};

rl_eviction_policy rl_eviction_policy_parse(const char *name, size_t len)
{
	int p;

	for (p = RL_POLICY_NOEVICTION; p < RL_POLICY_OTHER; p++) {
		if (strlen(policy_names[p]) == len && memcmp(policy_names[p], name, len) == 0) {
			return (rl_eviction_policy) p;
		}
	}
	return RL_POLICY_OTHER;
}

const char *rl_eviction_policy_name(rl_eviction_policy policy)
{
	return policy < RL_POLICY_COUNT ? policy_names[policy] : NULL;
}

const char *rl_eviction_policy_warning(rl_eviction_policy policy, char *out, size_t size)
{
	if (policy == RL_POLICY_UNKNOWN) {
		snprintf(out, size, "maxmemory-policy unknown: CONFIG GET and INFO refused");
	} else if (rl_eviction_policy_evicts(policy)) {
		snprintf(out, size, "maxmemory-policy %s can evict lock keys", policy_names[policy]);
	} else {
		return NULL;
	}
	return out;
}
