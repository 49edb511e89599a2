/* Sentinel-managed members: the master's address from the sentinels. See rl_sentinel.h and
 * docs/design/sentinel.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_sentinel.h"
#include "net/rl_uri.h"
#include "net/rl_wait_cancel.h"
#include "net/rl_net_private.h"

/* A sentinel without a timeout (0, "no limit") still gets one per question: a call without a
 * deadline must not wait on a silent sentinel for ever. */
#define RL_SENTINEL_DEFAULT_TIMEOUT_MS 1000.0

#if RL_URI_SENTINELS_MAX > RL_ASK_ROUND_MAX
#error "a member's sentinels are asked in one round (rl_ask_round)"
#endif

static char *copy_string(const char *text)
{
	return text != NULL ? strdup(text) : NULL;
}

void rl_sentinel_free(rl_sentinel *sentinel)
{
	if (sentinel == NULL) {
		return;
	}
	rl_seeds_free(sentinel->sentinels, sentinel->count);
	free(sentinel->master_name);
	free(sentinel->identity);
	free(sentinel);
}

/* The identity: "host:port,...,host:port/NAME" ([host] for IPv6). */
static char *make_identity(const rl_sentinel *sentinel)
{
	size_t at;
	char *text = rl_seeds_identity(sentinel->sentinels, sentinel->count, strlen(sentinel->master_name) + 1, &at);

	if (text != NULL) {
		snprintf(text + at, strlen(sentinel->master_name) + 2, "/%s", sentinel->master_name);
	}
	return text;
}

rl_sentinel *rl_sentinel_create(const rl_sentinel_spec *spec)
{
	rl_sentinel *sentinel = calloc(1, sizeof(*sentinel));

	if (sentinel == NULL) {
		return NULL;
	}
	sentinel->count = spec->sentinels.count;
	sentinel->sentinels = rl_seeds_create(&spec->sentinels);
	sentinel->master_name = copy_string(spec->master_name);
	if (sentinel->sentinels == NULL || sentinel->master_name == NULL
		|| (sentinel->identity = make_identity(sentinel)) == NULL) {
		rl_sentinel_free(sentinel);
		return NULL;
	}
	return sentinel;
}

rl_sentinel *rl_sentinel_copy(const rl_sentinel *from)
{
	const char *hosts[RL_URI_SENTINELS_MAX];
	int ports[RL_URI_SENTINELS_MAX];
	rl_sentinel_spec spec;
	rl_sentinel *copy;

	rl_seeds_spec_of(from->sentinels, from->count, hosts, ports, &spec.sentinels);
	spec.master_name = from->master_name;
	copy = rl_sentinel_create(&spec);
	if (copy != NULL) {
		copy->state = from->state == RL_SENTINEL_STALE ? RL_SENTINEL_STALE : RL_SENTINEL_UNRESOLVED;
	}
	return copy;
}

/* A host name or address as a sentinel gives it: never a path (which we would read as a unix
 * socket), never a byte a host name cannot hold. */
static int host_ok(const char *host, size_t len)
{
	size_t i;

	if (len == 0 || host[0] == '/') {
		return 0;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char) host[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
				|| c == '_' || c == ':' || c == '%')) {
			return 0;
		}
	}
	return 1;
}

/* The reply to SENTINEL GET-MASTER-ADDR-BY-NAME: [host, port], or nil for a name it does not know
 * (the error names the master: a typo in it is the usual cause). */
static int read_address(const rl_reply *reply, const char *master_name, char *host, size_t host_size, int *port,
	rl_outcome *out)
{
	const rl_reply_item *items = reply->items;
	long value = 0;
	size_t i;

	if (reply->type == RL_REPLY_ERROR) {
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
		return -1;
	}
	if (reply->type == RL_REPLY_NIL) {
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "does not know the master \"%.80s\"", master_name);
		rl_outcome_set(out, RL_OUTCOME_ERROR, message);
		return -1;
	}
	if (reply->type != RL_REPLY_ARRAY || reply->integer != 2 || items[0].type != RL_REPLY_STRING
		|| items[1].type != RL_REPLY_STRING || items[0].integer != (long long) items[0].len
		|| items[0].len >= host_size || !host_ok(items[0].str, items[0].len) || items[1].len == 0
		|| items[1].len > 5 || items[1].integer != (long long) items[1].len) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "answered something other than [host, port]");
		return -1;
	}
	for (i = 0; i < items[1].len; i++) {
		if (items[1].str[i] < '0' || items[1].str[i] > '9') {
			value = 0;
			break;
		}
		value = value * 10 + (items[1].str[i] - '0');
	}
	if (value < 1 || value > 65535) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "answered something other than [host, port]");
		return -1;
	}
	memcpy(host, items[0].str, items[0].len);
	host[items[0].len] = '\0';
	*port = (int) value;
	return 0;
}

/* The sentinels being asked: one connection and one outcome each; asking: still waited for. */
typedef struct sentinel_round {
	rl_conn conns[RL_URI_SENTINELS_MAX];
	rl_outcome said[RL_URI_SENTINELS_MAX];
	int asking[RL_URI_SENTINELS_MAX];
	size_t count;
} sentinel_round;

/* Where the first address given goes. */
typedef struct address_taking {
	const char *master_name;
	sentinel_round *round;
	char *host;
	size_t host_size;
	int *port;
} address_taking;

static int take_address(void *ctx, size_t i, const rl_reply *reply)
{
	address_taking *t = ctx;

	return read_address(reply, t->master_name, t->host, t->host_size, t->port, &t->round->said[i]);
}

/* Every sentinel of the member at once, one question each, all until the one due time: the first
 * address any of them gives. Asked one after the other, silent sentinels cost the sum of their
 * timeouts (3 x 0.5 s: 1.5 s per call); asked together, one timeout. 0 with host and port, or -1
 * with each sentinel's reason in r->said. */
static int ask_all(const rl_sentinel *sentinel, sentinel_round *r, double due, char *host, size_t host_size, int *port)
{
	const char *argv[3] = {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", sentinel->master_name};
	size_t argvlen[3] = {8, 23, strlen(sentinel->master_name)};
	rl_ask_round ask;
	address_taking taking = {sentinel->master_name, r, host, host_size, port};

	r->count = sentinel->count < RL_URI_SENTINELS_MAX ? sentinel->count : RL_URI_SENTINELS_MAX;
	ask.asked = sentinel->sentinels;
	ask.conns = r->conns;
	ask.said = r->said;
	ask.asking = r->asking;
	ask.count = r->count;
	rl_ask_round_open(&ask, 3, argv, argvlen);
	return rl_ask_round_run(&ask, due, take_address, &taking);
}

/* Why no sentinel gave an address: a sentinel's own answer (an unknown master, an error) says the
 * most, a silence (reached, no answer in time) more than a refused connection; the first sentinel
 * of the most telling kind. */
static int why_rank(rl_outcome_kind kind)
{
	return kind == RL_OUTCOME_ERROR ? 2 : kind == RL_OUTCOME_TIMEOUT ? 1 : 0;
}

static void round_why(const sentinel_round *r, char *why, size_t why_size)
{
	size_t i, pick = 0;

	for (i = 1; i < r->count; i++) {
		if (why_rank(r->said[i].kind) > why_rank(r->said[pick].kind)) {
			pick = i;
		}
	}
	snprintf(why, why_size, "sentinel #%zu: %.120s", pick, r->said[pick].message); /* fits the outcome message */
}

/* The endpoint pointed at the master a sentinel gave. 0, or -1 out of memory (unchanged). */
static int adopt_address(rl_endpoint *endpoint, const char *host, int port, rl_outcome *out)
{
	char *copy = strdup(host);

	if (copy == NULL) {
		rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
		return -1;
	}
	free(endpoint->host);
	endpoint->host = copy;
	endpoint->port = port;
	endpoint->sentinel->state = RL_SENTINEL_RESOLVED;
	return 0;
}

/* Asks the sentinels in order for the master of endpoint->sentinel, each within its timeout and
 * all before call_deadline (absolute; 0: none), and points endpoint->host/port at the answer. 0, or
 * -1 with *out filled ("sentinel: ..."), the endpoint unchanged; then, for RL_SENTINEL_RETRY_MS,
 * -1 at once with the same reason. */
static int rl_sentinel_resolve(rl_endpoint *endpoint, double call_deadline, rl_outcome *out)
{
	rl_sentinel *sentinel = endpoint->sentinel;
	char host[RL_REPLY_ITEM_HEAD + 1], why[RL_MESSAGE_MAX] = "no sentinel";
	double now = rl_now_ms(), due;
	int cut, port = 0, status = -1;
	sentinel_round *r;
	size_t i;

	if (now < sentinel->quiet_until) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, sentinel->failure);
		return -1;
	}
	due = rl_ask_round_due(sentinel->sentinels, sentinel->count, RL_SENTINEL_DEFAULT_TIMEOUT_MS, now, call_deadline,
		&cut);
	if (cut && now >= call_deadline) {
		snprintf(why, sizeof(why), "the call's deadline passed");
	} else if (sentinel->count > 0) {
		if ((r = malloc(sizeof(*r))) == NULL) {
			rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
			return -1;
		}
		status = ask_all(sentinel, r, due, host, sizeof(host), &port);
		for (i = 0; i < r->count; i++) {
			rl_conn_release(&r->conns[i]);
		}
		if (status != 0) {
			round_why(r, why, sizeof(why));
		}
		free(r);
	}
	if (status == 0) {
		return adopt_address(endpoint, host, port, out);
	}
	{
		char message[RL_MESSAGE_MAX + 64];
		snprintf(message, sizeof(message), "sentinel: no master address (%s)", why);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		if (!cut || rl_now_ms() < call_deadline) { /* every sentinel failed, not the call's deadline */
			memcpy(sentinel->failure, out->message, sizeof(sentinel->failure));
			sentinel->quiet_until = rl_now_ms() + RL_SENTINEL_RETRY_MS;
		}
	}
	return -1;
}

int rl_sentinel_before_open(rl_endpoint *endpoint, int sending, double call_deadline, rl_outcome *out)
{
	if (endpoint->sentinel == NULL || endpoint->sentinel->state == RL_SENTINEL_RESOLVED) {
		return 0;
	}
	if (sending) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "sentinel: the master is not known");
		return -1;
	}
	return rl_sentinel_resolve(endpoint, call_deadline, out);
}

void rl_sentinel_after_call(rl_endpoint *endpoint, rl_conn *conn, const rl_outcome *out)
{
	int readonly = out->kind == RL_OUTCOME_ERROR && strncmp(out->message, "READONLY", 8) == 0;

	if (endpoint->sentinel == NULL) {
		return;
	}
	if (readonly) {
		rl_conn_close(conn); /* a replica's: the next call connects to the master the sentinels name */
	}
	if (readonly || out->kind == RL_OUTCOME_CONNECT || out->kind == RL_OUTCOME_TIMEOUT || out->kind == RL_OUTCOME_IO
		|| (out->kind == RL_OUTCOME_ERROR && strcmp(out->message, RL_CONN_NOT_MASTER) == 0)) {
		endpoint->sentinel->state = RL_SENTINEL_STALE;
	}
}
