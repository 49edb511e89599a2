/* Redis Cluster members: the slot map and where each call goes. See rl_shards.h and
 * docs/design/cluster.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_pool.h"
#include "net/rl_shards.h"
#include "net/rl_uri.h"
#include "net/rl_wait_cancel.h"
#include "net/rl_net_private.h"

/* A node without a timeout (0, "no limit") still gets one for the map: a call without a deadline
 * must not wait on a silent node for ever. */
#define RL_SHARDS_DEFAULT_TIMEOUT_MS 1000.0
/* Nodes asked for the map at once, at most: the known masters first, then the seeds. */
#define RL_SHARDS_ASKED_MAX RL_ASK_ROUND_MAX

/* --- hash slots ------------------------------------------------------------------------------ */

static uint16_t crc16(const char *bytes, size_t len)
{
	uint16_t crc = 0;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= (uint16_t) ((unsigned char) bytes[i] << 8);
		for (bit = 0; bit < 8; bit++) {
			crc = (uint16_t) (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
		}
	}
	return crc;
}

/* The hash slot of a key: CRC16 (XMODEM) of the key, or of its hash tag (what lies between the
 * first '{' and the first '}' after it, when not empty), modulo 16384. */
static int rl_key_slot(const char *key, size_t len)
{
	const char *open = memchr(key, '{', len), *close;

	if (open != NULL) {
		size_t after = (size_t) (open - key) + 1;

		close = memchr(open + 1, '}', len - after);
		if (close != NULL && close > open + 1) {
			return crc16(open + 1, (size_t) (close - open - 1)) & (RL_SHARDS_SLOTS - 1);
		}
	}
	return crc16(key, len) & (RL_SHARDS_SLOTS - 1);
}

static int name_is(const rl_command *command, const char *name)
{
	size_t len = strlen(name);

	return command->argvlen[0] == len && strncasecmp(command->argv[0], name, len) == 0;
}

static int merge(int slot, int one)
{
	if (slot == RL_SLOT_CROSS || slot == RL_SLOT_NONE) {
		return slot == RL_SLOT_NONE ? one : slot;
	}
	return slot == one ? slot : RL_SLOT_CROSS;
}

int rl_command_keys(const rl_command *command, int *first, int *last)
{
	*first = *last = 1;
	if (command->argc < 2) {
		return 0; /* MULTI, EXEC, PING */
	}
	if (name_is(command, "EVAL") || name_is(command, "EVALSHA") || name_is(command, "FCALL")) {
		long keys = command->argc > 2 ? strtol(command->argv[2], NULL, 10) : 0;

		if (keys <= 0) {
			return 0;
		}
		*first = 3;
		*last = 3 + (int) keys - 1;
		if (*last >= command->argc) {
			*last = command->argc - 1;
		}
	} else if (name_is(command, "DEL") || name_is(command, "EXISTS") || name_is(command, "UNLINK") || name_is(command, "MGET")) {
		*last = command->argc - 1;
	} else if (name_is(command, "SUBSCRIBE") || name_is(command, "PUBLISH")) {
		return 0; /* a channel, not a key */
	}
	return 1;
}

/* Whether key has a hash tag (a '{' and, after it, a '}' with something between). */
static int has_tag(const char *key, size_t len)
{
	const char *open = memchr(key, '{', len), *close;

	return open != NULL && (close = memchr(open + 1, '}', len - (size_t) (open - key) - 1)) != NULL && close > open + 1;
}

/* An EVAL whose script builds keys from its KEYS: on a cluster they share the slot of KEYS[i] only
 * through a hash tag. */
static int derives_keys(const rl_command *command)
{
	return name_is(command, "EVAL") && command->argc >= 2 && rl_script_derives_keys(command->argv[1], command->argvlen[1]);
}

int rl_command_slot(const rl_command *command)
{
	int slot = RL_SLOT_NONE, k, first, last;

	if (!rl_command_keys(command, &first, &last)) {
		return RL_SLOT_NONE;
	}
	for (k = first; k <= last; k++) {
		if (derives_keys(command) && !has_tag(command->argv[k], command->argvlen[k])) {
			return RL_SLOT_CROSS; /* its other keys hash elsewhere */
		}
		slot = merge(slot, rl_key_slot(command->argv[k], command->argvlen[k]));
	}
	return slot;
}

int rl_request_slot(const rl_request *request)
{
	int slot = RL_SLOT_NONE;
	unsigned k;

	if (request->batch_len == 0) {
		return rl_command_slot(&request->command);
	}
	for (k = 0; k < request->batch_len; k++) {
		int one = rl_command_slot(&request->batch[k]);

		if (one != RL_SLOT_NONE) {
			slot = merge(slot, one);
		}
	}
	return slot;
}

/* --- the member -------------------------------------------------------------------------------- */

static char *copy_string(const char *text)
{
	return text != NULL ? strdup(text) : NULL;
}

static void map_release(rl_shards_map *map)
{
	size_t i;

	if (map == NULL || --map->refs > 0) {
		return;
	}
	for (i = 0; i < map->node_count; i++) {
		free(map->nodes[i].host);
	}
	free(map->nodes);
	free(map->owner);
	free(map->order);
	free(map);
}

static void forget_nodes(rl_shards *shards)
{
	size_t i;

	for (i = 0; i < shards->map->node_count; i++) {
		free(shards->map->nodes[i].host);
	}
	free(shards->map->nodes);
	shards->map->nodes = NULL;
	shards->map->node_count = 0;
	if (shards->map->owner != NULL) {
		memset(shards->map->owner, 0, RL_SHARDS_SLOTS * sizeof(*shards->map->owner));
	}
}

void rl_shards_free(rl_shards *shards)
{
	if (shards == NULL) {
		return;
	}
	rl_seeds_free(shards->seeds, shards->seed_count);
	map_release(shards->map);
	free(shards->identity);
	free(shards);
}

int rl_shards_share(rl_shards *shards, rl_shards *with)
{
	const char *a = shards->identity, *b = with->identity, *hash_a, *hash_b;

	if (shards->pin == 0 || with->pin == 0 || shards->map == with->map || (hash_a = strrchr(a, '#')) == NULL
		|| (hash_b = strrchr(b, '#')) == NULL || hash_a - a != hash_b - b || strncmp(a, b, (size_t) (hash_a - a)) != 0) {
		return 0;
	}
	map_release(shards->map);
	shards->map = with->map;
	shards->map->refs++;
	shards->tag_len = 0; /* placed anew by the shared map */
	return 1;
}

/* The identity: "host:port,...,host:port" ([host] for IPv6), "#N" after it for a pinned member. */
static char *make_identity(const rl_shards *shards)
{
	size_t at;
	char *text = rl_seeds_identity(shards->seeds, shards->seed_count, 12, &at);

	if (text != NULL && shards->pin > 0) {
		snprintf(text + at, 13, "#%u", shards->pin - 1);
	}
	return text;
}

rl_shards *rl_shards_create(const rl_shards_spec *spec)
{
	rl_shards *shards = calloc(1, sizeof(*shards));

	if (shards == NULL) {
		return NULL;
	}
	shards->seed_count = spec->seeds.count;
	shards->pin = spec->pin;
	shards->seeds = rl_seeds_create(&spec->seeds);
	if ((shards->map = calloc(1, sizeof(*shards->map))) != NULL) {
		shards->map->refs = 1;
		shards->map->owner = calloc(RL_SHARDS_SLOTS, sizeof(*shards->map->owner));
	}
	if (shards->seeds == NULL || shards->map == NULL || shards->map->owner == NULL
		|| (shards->identity = make_identity(shards)) == NULL) {
		rl_shards_free(shards);
		return NULL;
	}
	return shards;
}

rl_shards *rl_shards_copy(const rl_shards *from)
{
	const char *hosts[RL_URI_SENTINELS_MAX];
	int ports[RL_URI_SENTINELS_MAX];
	rl_shards_spec spec;

	rl_seeds_spec_of(from->seeds, from->seed_count, hosts, ports, &spec.seeds);
	spec.pin = from->pin;
	/* the copy learns the map itself (the renewal thread's): nothing shared between threads */
	return rl_shards_create(&spec);
}

/* --- the slot map, from CLUSTER NODES ---------------------------------------------------------- */

static int host_ok(const char *host, size_t len)
{
	size_t i;

	if (len == 0 || len > 255 || host[0] == '/') {
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

static int parse_number(const char *p, size_t len, long max, long *value)
{
	size_t i;

	*value = 0;
	if (len == 0 || len > 6) {
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9') {
			return -1;
		}
		*value = *value * 10 + (p[i] - '0');
	}
	return *value <= max ? 0 : -1;
}

/* The index of host:port among the nodes, added when new; -1 when out of memory. */
static int node_index(rl_shards_node **nodes, size_t *count, const char *host, size_t host_len, int port)
{
	rl_shards_node *grown;
	size_t i;

	for (i = 0; i < *count; i++) {
		if ((*nodes)[i].port == port && strlen((*nodes)[i].host) == host_len
			&& memcmp((*nodes)[i].host, host, host_len) == 0) {
			return (int) i;
		}
	}
	if (*count >= 65535 || (grown = realloc(*nodes, (*count + 1) * sizeof(**nodes))) == NULL) {
		return -1;
	}
	*nodes = grown;
	if ((grown[*count].host = malloc(host_len + 1)) == NULL) {
		return -1;
	}
	memcpy(grown[*count].host, host, host_len);
	grown[*count].host[host_len] = '\0';
	grown[*count].port = port;
	return (int) (*count)++;
}

/* Whether the comma-separated flags list has flag. */
static int has_flag(const char *flags, size_t len, const char *flag)
{
	size_t flag_len = strlen(flag), at = 0;

	while (at < len) {
		const char *comma = memchr(flags + at, ',', len - at);
		size_t one = comma != NULL ? (size_t) (comma - (flags + at)) : len - at;

		if (one == flag_len && memcmp(flags + at, flag, flag_len) == 0) {
			return 1;
		}
		at += one + 1;
	}
	return 0;
}

/* The first 8 space-separated fields of a CLUSTER NODES line; how many were found (8 for a node line),
 * *pos just past the last one read (where the slot ranges begin). */
static size_t line_fields(const char *line, size_t line_len, const char *field[8], size_t field_len[8], size_t *pos)
{
	size_t f = 0;

	*pos = 0;
	while (*pos < line_len && f < 8) {
		const char *space;
		field[f] = line + *pos;
		space = memchr(line + *pos, ' ', line_len - *pos);
		field_len[f] = space != NULL ? (size_t) (space - (line + *pos)) : line_len - *pos;
		*pos += field_len[f] + 1;
		f++;
	}
	return f;
}

/* The port of "host:port" (the last colon: an IPv6 host has its own): the colon, with *port, or NULL
 * when there is no port, or a bad one. */
static const char *address_port(const char *address, size_t len, long *port)
{
	const char *colon = NULL, *p;

	for (p = address; p < address + len; p++) {
		if (*p == ':') {
			colon = p;
		}
	}
	if (colon == NULL || parse_number(colon + 1, len - (size_t) (colon - address) - 1, 65535, port) != 0 || *port == 0) {
		return NULL;
	}
	return colon;
}

/* A node line's "host:port@cport[,hostname]" as an entry of the map: 1 with its index, 0 for an address
 * not usable (no port, a bad host), -1 out of memory. An empty host is the one we asked (asked_host). */
static int line_node(const char *address, size_t field_len, const char *asked_host, rl_shards_node **nodes,
	size_t *count, int *index)
{
	const char *at_sign = memchr(address, '@', field_len), *colon;
	size_t address_len = at_sign != NULL ? (size_t) (at_sign - address) : field_len;
	long port;

	if ((colon = address_port(address, address_len, &port)) == NULL) {
		return 0;
	}
	if (colon == address) { /* no address known to itself: the one we asked */
		address = asked_host;
		colon = asked_host + strlen(asked_host);
	}
	if (!host_ok(address, (size_t) (colon - address))) {
		return 0;
	}
	if ((*index = node_index(nodes, count, address, (size_t) (colon - address), (int) port)) < 0) {
		return -1;
	}
	return 1;
}

/* The slot ranges ending a node line ("0-5460", "5461"; "[slot->-id]" migrations and bad ranges skipped)
 * given to node index; how many slots had no owner before. */
static size_t line_slots(const char *ranges, size_t len, int index, uint16_t *owner)
{
	size_t pos = 0, covered = 0;

	while (pos < len) {
		const char *range = ranges + pos, *space = memchr(range, ' ', len - pos), *dash;
		size_t range_len = space != NULL ? (size_t) (space - range) : len - pos;
		long first, last;

		pos += range_len + 1;
		if (range_len > 0 && range[range_len - 1] == '\r') {
			range_len--;
		}
		if (range_len == 0 || range[0] == '[') {
			continue;
		}
		dash = memchr(range, '-', range_len);
		if (dash == NULL) {
			if (parse_number(range, range_len, RL_SHARDS_SLOTS - 1, &first) != 0) {
				continue;
			}
			last = first;
		} else if (parse_number(range, (size_t) (dash - range), RL_SHARDS_SLOTS - 1, &first) != 0
			|| parse_number(dash + 1, range_len - (size_t) (dash - range) - 1, RL_SHARDS_SLOTS - 1, &last) != 0
			|| last < first) {
			continue;
		}
		for (; first <= last; first++) {
			covered += owner[first] == 0;
			owner[first] = (uint16_t) (index + 1);
		}
	}
	return covered;
}

/* CLUSTER NODES' text: one line per node, "id host:port@cport[,hostname] flags master ping pong epoch
 * link slot...". Masters not failed, with an address, and their slot ranges ("0-5460", "5461";
 * "[slot->-id]" migrations skipped). asked_host stands for an empty address (a node that does not
 * know its own yet). 0 with the map, or -1 with why. */
static int parse_nodes(const char *text, size_t len, const char *asked_host, rl_shards_node **nodes, size_t *count,
	uint16_t *owner, const char **why)
{
	size_t at = 0, covered = 0;

	while (at < len) {
		const char *line = text + at, *end = memchr(line, '\n', len - at);
		size_t line_len = end != NULL ? (size_t) (end - line) : len - at;
		const char *field[8];
		size_t field_len[8], pos;
		int index, found;

		at += line_len + 1;
		if (line_fields(line, line_len, field, field_len, &pos) < 8) {
			continue; /* an empty or short line */
		}
		if (!has_flag(field[2], field_len[2], "master") || has_flag(field[2], field_len[2], "fail")
			|| has_flag(field[2], field_len[2], "noaddr") || has_flag(field[2], field_len[2], "handshake")) {
			continue;
		}
		if ((found = line_node(field[1], field_len[1], asked_host, nodes, count, &index)) < 0) {
			*why = "out of memory";
			return -1;
		}
		if (found > 0 && pos < line_len) {
			covered += line_slots(line + pos, line_len - pos, index, owner);
		}
	}
	if (covered == 0) {
		*why = "the slot map is empty: no master owns a slot (a cluster not set up yet?)";
		return -1;
	}
	return 0;
}

/* The nodes being asked: one connection and one outcome each. */
typedef struct map_round {
	rl_endpoint asked[RL_SHARDS_ASKED_MAX]; /* shallow: host, port and the seeds' credentials */
	rl_conn conns[RL_SHARDS_ASKED_MAX];
	rl_outcome said[RL_SHARDS_ASKED_MAX];
	int asking[RL_SHARDS_ASKED_MAX];
	char *text[RL_SHARDS_ASKED_MAX];
	size_t text_len[RL_SHARDS_ASKED_MAX];
	size_t count;
} map_round;

/* What take_reply fills: the new map. */
typedef struct map_taking {
	map_round *round;
	rl_shards_node **nodes;
	size_t *count;
	uint16_t *owner;
} map_taking;

/* The reply to CLUSTER NODES from node i, into the new map. 0, or -1 with r->said[i]. */
static int take_map(map_round *r, size_t i, const rl_reply *reply, rl_shards_node **nodes, size_t *count,
	uint16_t *owner)
{
	const char *why = NULL;

	if (reply->type == RL_REPLY_ERROR) {
		char message[RL_MESSAGE_MAX];

		/* "ERR This instance has cluster support disabled": a plain server given as a cluster */
		snprintf(message, sizeof(message), "%s%.*s",
			strstr(reply->str, "cluster support disabled") != NULL ? "not a cluster node: " : "", (int) reply->len,
			reply->str);
		rl_outcome_set(&r->said[i], RL_OUTCOME_ERROR, message);
		return -1;
	}
	if (reply->type != RL_REPLY_STRING || r->text[i] == NULL) {
		rl_outcome_set(&r->said[i], RL_OUTCOME_ERROR, "answered CLUSTER NODES with something other than its text");
		return -1;
	}
	if (parse_nodes(r->text[i], r->text_len[i], r->asked[i].host, nodes, count, owner, &why) != 0) {
		rl_outcome_set(&r->said[i], RL_OUTCOME_ERROR, why);
		return -1;
	}
	return 0;
}

/* A partial map from a bad answer: forgotten. */
static void forget_map(rl_shards_node **nodes, size_t *count, uint16_t *owner)
{
	size_t n;

	for (n = 0; n < *count; n++) {
		free((*nodes)[n].host);
	}
	free(*nodes);
	*nodes = NULL;
	*count = 0;
	memset(owner, 0, RL_SHARDS_SLOTS * sizeof(*owner));
}

/* A reply from the round: the map when it is complete (the round is over), else forgotten. */
static int take_reply(void *ctx, size_t i, const rl_reply *reply)
{
	map_taking *t = ctx;

	if (take_map(t->round, i, reply, t->nodes, t->count, t->owner) == 0) {
		return 0;
	}
	forget_map(t->nodes, t->count, t->owner);
	return -1;
}

/* Every node asked at once (as a Sentinel member's sentinels are: one timeout, not their sum), the
 * first complete map wins. 0, or -1 with each node's reason in r->said. */
static int ask_all(map_round *r, double due, rl_shards_node **nodes, size_t *count, uint16_t *owner)
{
	static const char *const argv[2] = {"CLUSTER", "NODES"};
	static const size_t argvlen[2] = {7, 5};
	rl_ask_round ask = {r->asked, r->conns, r->said, r->asking, r->count, 0};
	map_taking taking = {r, nodes, count, owner};
	size_t i;

	for (i = 0; i < r->count; i++) {
		r->text[i] = NULL;
	}
	rl_ask_round_open(&ask, 2, (const char **) argv, argvlen);
	for (i = 0; i < r->count; i++) { /* the answer's text kept whole, for the map */
		if (r->asking[i] && rl_reader_capture(&r->conns[i].reader, &r->text[i], &r->text_len[i]) != 0) {
			rl_outcome_set(&r->said[i], RL_OUTCOME_IO, "out of memory");
			rl_ask_round_done(&ask, i);
		}
	}
	return rl_ask_round_run(&ask, due, take_reply, &taking);
}

static int why_rank(rl_outcome_kind kind)
{
	return kind == RL_OUTCOME_ERROR ? 2 : kind == RL_OUTCOME_TIMEOUT ? 1 : 0;
}

/* The nodes a refresh asks: the masters known first (a seed may be gone since), then the seeds not
 * among them, each with the first seed's credentials, timeout and TLS. */
static void ask_list(map_round *r, const rl_shards *shards)
{
	size_t i, n;

	for (i = 0; i < shards->map->node_count + shards->seed_count && r->count < RL_SHARDS_ASKED_MAX; i++) {
		const char *host = i < shards->map->node_count ? shards->map->nodes[i].host : shards->seeds[i - shards->map->node_count].host;
		int port = i < shards->map->node_count ? shards->map->nodes[i].port : shards->seeds[i - shards->map->node_count].port;
		int seen = 0;

		for (n = 0; n < r->count; n++) {
			seen |= r->asked[n].port == port && strcmp(r->asked[n].host, host) == 0;
		}
		if (seen) {
			continue;
		}
		r->asked[r->count] = shards->seeds[0]; /* the credentials, timeout and TLS of every node */
		r->asked[r->count].host = (char *) host;
		r->asked[r->count].port = port;
		r->asked[r->count].pool_key = NULL;
		r->asked[r->count].sentinel = NULL;
		r->asked[r->count].shards = NULL; /* no ROLE: a replica's map is as good */
		r->count++;
	}
}

/* The reason a round failed: the worst any node gave (an error over a timeout over the rest). */
static void worst_reason(const map_round *r, char *why, size_t size)
{
	size_t pick = 0, i;

	for (i = 1; i < r->count; i++) {
		if (why_rank(r->said[i].kind) > why_rank(r->said[pick].kind)) {
			pick = i;
		}
	}
	snprintf(why, size, "%s:%d: %.100s", r->asked[pick].host, r->asked[pick].port, r->said[pick].message);
}

/* One round (r, zeroed; freed here) over the known masters and the seeds for a new map into nodes,
 * count and owner. 0, or -1 with why: the worst reason a node gave. */
static int ask_for_map(const rl_shards *shards, map_round *r, double due, rl_shards_node **nodes, size_t *count,
	uint16_t *owner, char *why, size_t why_size)
{
	size_t i;
	int status;

	ask_list(r, shards);
	if ((status = ask_all(r, due, nodes, count, owner)) != 0) {
		worst_reason(r, why, why_size);
	}
	for (i = 0; i < r->count; i++) {
		rl_conn_release(&r->conns[i]);
		free(r->text[i]);
	}
	free(r);
	return status;
}

/* Asks the known masters and the seeds for the map, each within its timeout and all before
 * call_deadline. 0 with the map replaced, or -1 with *out ("cluster: ..."); then, for
 * RL_SHARDS_RETRY_MS, -1 at once with the same reason. */
static int refresh(rl_shards *shards, double call_deadline, rl_outcome *out)
{
	char why[RL_MESSAGE_MAX] = "no seed";
	double now = rl_now_ms(), due;
	rl_shards_node *nodes = NULL;
	size_t count = 0;
	uint16_t *owner;
	map_round *r;
	int cut;

	if (now < shards->map->quiet_until) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, shards->map->failure);
		return -1;
	}
	due = rl_ask_round_due(shards->seeds, shards->seed_count, RL_SHARDS_DEFAULT_TIMEOUT_MS, now, call_deadline, &cut);
	if (cut && now >= call_deadline) {
		rl_outcome_set(out, RL_OUTCOME_TIMEOUT, "cluster: no slot map (the call's deadline passed)");
		return -1;
	}
	r = calloc(1, sizeof(*r));
	owner = calloc(RL_SHARDS_SLOTS, sizeof(*owner));
	if (r == NULL || owner == NULL || shards->seed_count == 0) {
		free(r);
		free(owner);
		rl_outcome_set(out, RL_OUTCOME_IO, shards->seed_count == 0 ? "cluster: no seed" : "out of memory");
		return -1;
	}
	if (ask_for_map(shards, r, due, &nodes, &count, owner, why, sizeof(why)) == 0) {
		forget_nodes(shards);
		free(shards->map->owner);
		shards->map->owner = owner;
		shards->map->nodes = nodes;
		shards->map->node_count = count;
		shards->map->state = RL_SHARDS_RESOLVED;
		shards->map->version++;
		return 0;
	}
	free(owner);
	{
		char message[RL_MESSAGE_MAX + 64];
		snprintf(message, sizeof(message), "cluster: no slot map (%s)", why);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		if (!cut || rl_now_ms() < call_deadline) { /* every node failed, not the call's deadline */
			memcpy(shards->map->failure, out->message, sizeof(shards->map->failure));
			shards->map->quiet_until = rl_now_ms() + RL_SHARDS_RETRY_MS;
		}
	}
	return -1;
}

/* --- RedLock::fromCluster: one member per master ---------------------------------------------- */

/* The masters that own slots, in the order of their median slot (the middle one of the slots each owns,
 * in slot order): a shard's identity by its slots, which a failover hands whole to the promoted replica,
 * so the order survives every failover, also one whose old master stays down (no node id would: the
 * ids of a shard are its master's and its replicas', and a failed master is listed apart, linked to
 * none). A slot move shifts the median of the two masters it touches by at most one of their slots,
 * so it changes the order only when that carries a median past another master's
 * (docs/design/cluster.md#fromcluster-placement). The index in nodes of the n-th (0-based), or -1. */
static int nth_master(const rl_shards *shards, unsigned n)
{
	rl_shards_map *map = shards->map;
	size_t count = map->node_count, i, j, ranked = 0;
	long *owned, *seen, *median;
	uint16_t *order;
	int slot;

	if (map->order_version == map->version + 1) {
		return n < map->order_count ? (int) map->order[n] : -1;
	}
	if (count == 0 || (owned = calloc(3 * count, sizeof(*owned))) == NULL) {
		return -1;
	}
	if ((order = realloc(map->order, count * sizeof(*order))) == NULL) {
		free(owned);
		return -1;
	}
	map->order = order;
	seen = owned + count;
	median = seen + count;
	for (slot = 0; slot < RL_SHARDS_SLOTS; slot++) {
		if (map->owner[slot] != 0 && map->owner[slot] <= count) {
			owned[map->owner[slot] - 1]++;
		}
	}
	for (i = 0; i < count; i++) {
		median[i] = -1;
	}
	for (slot = 0; slot < RL_SHARDS_SLOTS; slot++) {
		size_t o = map->owner[slot];

		if (o != 0 && o <= count && seen[o - 1]++ == (owned[o - 1] - 1) / 2) {
			median[o - 1] = slot;
		}
	}
	for (i = 0; i < count; i++) { /* by insertion: a few masters; medians are slots of different masters, never equal */
		if (median[i] < 0) {
			continue;
		}
		for (j = ranked; j > 0 && median[order[j - 1]] > median[i]; j--) {
			order[j] = order[j - 1];
		}
		order[j] = (uint16_t) i;
		ranked++;
	}
	free(owned);
	map->order_count = ranked;
	map->order_version = map->version + 1;
	return n < ranked ? (int) order[n] : -1;
}

/* A map with a slot no master owns is a cluster partly down (a master marked failed, its replica not
 * yet promoted; a cluster being set up): neither counted nor placed by. The first such slot, or -1
 * when every slot has its master. */
static int hole(const rl_shards *shards)
{
	int slot;

	for (slot = 0; slot < RL_SHARDS_SLOTS; slot++) {
		if (shards->map->owner[slot] == 0) {
			return slot;
		}
	}
	return -1;
}

int rl_shards_masters(rl_shards *shards, double call_deadline, rl_outcome *out)
{
	int n = 0, slot;

	if (shards->map->state != RL_SHARDS_RESOLVED && refresh(shards, call_deadline, out) != 0) {
		return -1;
	}
	/* Server trouble, not the caller's mistake: the masters of a cluster partly down are not its masters
	 * (tests/cluster/878). */
	if ((slot = hole(shards)) >= 0) {
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "cluster: no master owns slot %d (a master failed, its replica not promoted "
			"yet): the masters cannot be counted now", slot);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		shards->map->state = RL_SHARDS_STALE;
		return -1;
	}
	while (nth_master(shards, (unsigned) n) >= 0) {
		n++;
	}
	return n;
}

/* How far place() looks for a tag: every slot has an "rl<m>.<k>" below it, for every member m of 0 to 255
 * (the last slot first reached at k = 245793); at 100000, some 1 to 2 % of the slots had none, and a
 * master owning only such slots left its member unplaced for good (tests/cluster/881). A tag found below
 * the old bound is the same under this one: no member moves. */
#define PLACE_TRIES 262144

/* The pinned member's tag, from the current map (docs/design/cluster.md#fromcluster-placement): member m
 * on the m-th master in the order of nth_master() (which failovers keep and a slot move leaves alone
 * but for a median carried past another's), its tag the first "rl<m>.<k>" whose slot that master owns.
 * A function of the map alone: the same in every process that sees the same map. No member's place
 * depends on another's: a slot move re-places the member whose tag's slot left its master, and the
 * member of the master it came to only when it is a slot that member skipped (rl<m>.<k'>, k' < k).
 * Its slot, or -1 with *out. */
static int place(rl_shards *shards, rl_outcome *out)
{
	unsigned m = shards->pin - 1, k;
	int unowned, master;

	if (shards->tag_len > 0 && shards->placed_version == shards->map->version) {
		return shards->placed_slot; /* the map did not change since */
	}
	/* A map with slots no master owns (a master failed, its replica not yet promoted) is not one to
	 * place by: the masters' medians and count are not the cluster's, and a member placed by them would
	 * keep its tag once the replica owns the slots again (its calls succeed there, so the map is not
	 * asked again), while other processes place by the whole map. The member fails until the map is
	 * whole (tests/cluster/877). */
	if ((unowned = hole(shards)) >= 0) {
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "cluster: no master owns slot %d (CLUSTERDOWN, or a failover under way): "
			"member %u not placed", unowned, m);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
		return -1;
	}
	if ((master = nth_master(shards, m)) >= 0) {
		for (k = 0; k < PLACE_TRIES; k++) {
			char tag[sizeof(shards->tag)];
			int len = snprintf(tag, sizeof(tag), "rl%u.%u", m, k), slot = rl_key_slot(tag, (size_t) len);

			if (shards->map->owner[slot] == (uint16_t) (master + 1)) {
				if ((size_t) len != shards->tag_len || memcmp(tag, shards->tag, (size_t) len) != 0) {
					memcpy(shards->tag, tag, (size_t) len + 1);
					shards->tag_len = (size_t) len;
					shards->tag_changed = 1;
				}
				shards->placed_version = shards->map->version;
				shards->placed_slot = slot;
				return slot;
			}
		}
	}
	{
		char message[RL_MESSAGE_MAX];

		snprintf(message, sizeof(message), "cluster: member %u has no master of its own (fewer masters own slots now)", m);
		rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
	}
	return -1;
}

uint32_t rl_shards_mark(const rl_endpoint *endpoint)
{
	uint32_t mark = rl_master_mark(endpoint->host, endpoint->port);
	size_t i;

	if (endpoint->shards == NULL || endpoint->shards->pin == 0) {
		return mark;
	}
	for (i = 0; i < endpoint->shards->tag_len; i++) {
		mark = (mark ^ (unsigned char) endpoint->shards->tag[i]) * 16777619u;
	}
	return mark != 0 ? mark : 1;
}

/* --- where a call goes ------------------------------------------------------------------------- */

/* Points the endpoint at host:port; conn, open to another node, goes back to the pool (under the
 * key of the node it reached) or is closed. 0, or -1 when out of memory. */
static int retarget(rl_endpoint *endpoint, rl_conn *conn, struct rl_pool *pool, const char *host, size_t host_len,
	int port)
{
	int same = endpoint->host != NULL && endpoint->port == port && strlen(endpoint->host) == host_len
		&& memcmp(endpoint->host, host, host_len) == 0;
	char *copy;

	if (conn->state != RL_CONN_DOWN && (!same || conn->master_mark != rl_shards_mark(endpoint))) {
		if (pool != NULL && endpoint->pool_key != NULL && conn->master_mark == rl_shards_mark(endpoint)) {
			rl_pool_checkin(pool, endpoint->pool_key, conn); /* closes what it cannot keep */
		} else {
			rl_conn_close(conn);
		}
	}
	if (same && !(endpoint->shards->tag_changed && pool != NULL)) {
		return 0;
	}
	if (!same) {
		if ((copy = malloc(host_len + 1)) == NULL) {
			return -1;
		}
		memcpy(copy, host, host_len);
		copy[host_len] = '\0';
		free(endpoint->host);
		endpoint->host = copy;
		endpoint->port = port;
	}
	endpoint->shards->tag_changed = 0;
	if (pool != NULL) {
		free(endpoint->pool_key);
		endpoint->pool_key = rl_pool_key(pool, endpoint); /* NULL: private connections */
	}
	return 0;
}

/* fromCluster: the slot of the member's tag, whatever the keys (the map asked for first when not
 * known, unless sending). The slot, or -1 with *out. */
static int pinned_slot(rl_shards *shards, int sending, double call_deadline, rl_outcome *out)
{
	int slot;

	if (sending && shards->map->state != RL_SHARDS_RESOLVED) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "cluster: the member's master is not known");
		return -1;
	}
	if (shards->map->state != RL_SHARDS_RESOLVED && refresh(shards, call_deadline, out) != 0) {
		return -1;
	}
	if ((slot = place(shards, out)) < 0) {
		shards->map->state = RL_SHARDS_STALE;
		return -1;
	}
	return slot;
}

/* A map that does not know slot's master asked again (not while sending). 0 when the slot has one
 * now, or -1 with *out. */
static int known_owner(rl_shards *shards, int slot, int sending, double call_deadline, rl_outcome *out)
{
	char message[RL_MESSAGE_MAX];

	if (sending) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "cluster: the slot's master is not known");
		return -1;
	}
	if (refresh(shards, call_deadline, out) != 0) {
		return -1;
	}
	if (shards->map->owner[slot] != 0) {
		return 0;
	}
	shards->map->state = RL_SHARDS_STALE;
	snprintf(message, sizeof(message), "cluster: no master owns slot %d (CLUSTERDOWN, or a failover under way)", slot);
	rl_outcome_set(out, RL_OUTCOME_CONNECT, message);
	return -1;
}

int rl_shards_route(rl_endpoint *endpoint, rl_conn *conn, struct rl_pool *pool, int slot, int sending,
	double call_deadline, rl_outcome *out)
{
	rl_shards *shards = endpoint->shards;
	const rl_shards_node *node;

	conn->redirects = 0;
	if (conn->moved_late && !sending) { /* a reply read after its call had settled was a MOVED */
		conn->moved_late = 0;
		shards->map->state = RL_SHARDS_STALE;
	}
	if (slot == RL_SLOT_CROSS && shards->pin == 0) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, "cluster: keys on different slots (several resources, or a kind's keys beside one): "
			"give them a hash tag, like {order}");
		return -1;
	}
	if (shards->pin > 0 && (slot = pinned_slot(shards, sending, call_deadline, out)) < 0) {
		return -1;
	}
	if (slot == RL_SLOT_NONE) {
		return 0; /* whichever node the member last used */
	}
	if ((shards->map->state != RL_SHARDS_RESOLVED || shards->map->owner[slot] == 0)
		&& known_owner(shards, slot, sending, call_deadline, out) != 0) {
		return -1;
	}
	node = &shards->map->nodes[shards->map->owner[slot] - 1];
	if (retarget(endpoint, conn, pool, node->host, strlen(node->host), node->port) != 0) {
		rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
		return -1;
	}
	return 0;
}

/* What follows "MOVED " or "ASK ": "slot host:port"; an empty host is answered_host's (the node that
 * answered). 0, or -1 when it is not that shape or the host is not one we connect to. */
static int parse_redirect(const char *p, const char *answered_host, long *slot, const char **host, size_t *host_len,
	long *port)
{
	const char *space, *colon;

	if ((space = strchr(p, ' ')) == NULL || parse_number(p, (size_t) (space - p), RL_SHARDS_SLOTS - 1, slot) != 0) {
		return -1;
	}
	*host = space + 1;
	if ((colon = address_port(*host, strcspn(*host, " "), port)) == NULL) {
		return -1;
	}
	*host_len = (size_t) (colon - *host);
	if (*host_len == 0) { /* "MOVED 3999 :6381": the same host as the node that answered */
		*host = answered_host;
		*host_len = answered_host != NULL ? strlen(answered_host) : 0;
	}
	return *host != NULL && host_ok(*host, *host_len) ? 0 : -1;
}

int rl_shards_key_slot(const char *key, size_t len)
{
	return rl_key_slot(key, len);
}

int rl_shards_moved_node(const char *message, const char *answered_host, char *host, size_t cap, int *port)
{
	const char *at;
	long slot, number;
	size_t len;

	if (strncmp(message, "MOVED ", 6) != 0 || parse_redirect(message + 6, answered_host, &slot, &at, &len, &number) != 0
		|| len >= cap) {
		return -1;
	}
	memcpy(host, at, len);
	host[len] = '\0';
	*port = (int) number;
	return 0;
}

int rl_shards_redirection(const char *message)
{
	return strncmp(message, "MOVED ", 6) == 0 || strncmp(message, "ASK ", 4) == 0
		|| strncmp(message, "EXECABORT", 9) == 0;
}

int rl_shards_redirect(rl_endpoint *endpoint, rl_conn *conn, struct rl_pool *pool, const char *message, int slot_of_call,
	double call_deadline, int *asking)
{
	rl_shards *shards = endpoint->shards;
	const char *host;
	long slot, port;
	size_t host_len;

	*asking = strncmp(message, "ASK ", 4) == 0;
	if (strncmp(message, "EXECABORT", 9) == 0) {
		/* a transaction's command was redirected when queued (its MOVED is not the vote): ask again */
		rl_outcome ignored;
		unsigned char redirects = conn->redirects;
		int routed;

		shards->map->state = RL_SHARDS_STALE;
		routed = slot_of_call >= 0 && rl_shards_route(endpoint, conn, pool, slot_of_call, 0, call_deadline, &ignored) == 0;
		conn->redirects = redirects;
		return routed;
	}
	if (!*asking && strncmp(message, "MOVED ", 6) != 0) {
		return 0;
	}
	if (parse_redirect(message + (*asking ? 4 : 6), endpoint->host, &slot, &host, &host_len, &port) != 0) {
		return 0;
	}
	if (!*asking) {
		int index = node_index(&shards->map->nodes, &shards->map->node_count, host, host_len, (int) port);

		if (index >= 0) {
			shards->map->owner[slot] = (uint16_t) (index + 1);
			shards->map->version++;
		}
		shards->map->state = RL_SHARDS_STALE; /* a resharding moves more than one slot: asked before the next call */
	}
	return retarget(endpoint, conn, pool, host, host_len, (int) port) == 0;
}

void rl_shards_after_call(rl_endpoint *endpoint, rl_conn *conn, const rl_outcome *out)
{
	int error = out->kind == RL_OUTCOME_ERROR;
	int replica = error && (strncmp(out->message, "READONLY", 8) == 0 || strcmp(out->message, RL_CONN_NOT_MASTER) == 0);

	if (endpoint->shards == NULL) {
		return;
	}
	if (replica) {
		rl_conn_close(conn);
	}
	if (replica || out->kind == RL_OUTCOME_CONNECT || out->kind == RL_OUTCOME_TIMEOUT || out->kind == RL_OUTCOME_IO
		|| (error && (strncmp(out->message, "CLUSTERDOWN", 11) == 0 || strncmp(out->message, "TRYAGAIN", 8) == 0
			|| rl_shards_redirection(out->message)))) {
		endpoint->shards->map->state = RL_SHARDS_STALE;
	}
}
