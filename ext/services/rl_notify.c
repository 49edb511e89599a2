/* Notified waiting: subscriptions to release announcements, and the wait-until-deadline loop.
 * See rl_notify.h. */
#include <stdlib.h>
#include <string.h>

#include "core/rl_algorithm.h"
#include "net/rl_shards.h"
#include "net/rl_wait.h"
#include "net/rl_wait_cancel.h"
#include "services/rl_notify.h"

/* A pause until until_ms with nothing to watch (never unbounded); true when its waiter cancelled it. */
static int pause_cancelled(double until_ms, double now)
{
	return rl_wait_cancelled(rl_wait_sleep_ms(rl_conn_poll_timeout(until_ms, now)));
}

/* Where server i's subscription connection leads: the member's endpoint, or the node a MOVED named
 * (still after a SUBSCRIBE there, take_in). */
static const rl_endpoint *endpoint_of(const rl_notify *notify, size_t i)
{
	return notify->nodes[i].moved.host != NULL ? &notify->nodes[i].moved : &notify->endpoints[i];
}

static int send_subscribe(rl_notify *notify, size_t i, int mode, int setup);

/* A sharded subscription refused before any confirmation (message: the error): one MOVED is
 * followed on a new connection to the node it names; anything else (a server before 7.0, keys of
 * several slots, an ACL without the command) gets SUBSCRIBE on the same connection, which the
 * scripts' PUBLISH still reaches (they PUBLISH when their SPUBLISH reached nobody). 0 when subscribed
 * again, -1 when the server can no longer wake us. */
static int subscribe_again(rl_notify *notify, size_t i, const char *message)
{
	rl_notify_node *node = &notify->nodes[i];
	char host[sizeof(node->moved_host)];
	int port;

	if (node->mode == RL_NOTIFY_SHARDED
		&& rl_shards_moved_node(message, notify->endpoints[i].host, host, sizeof(host), &port) == 0) {
		rl_outcome out;

		rl_conn_close(&notify->conns[i]);
		memcpy(node->moved_host, host, sizeof(host));
		node->moved = notify->endpoints[i];
		node->moved.host = node->moved_host;
		node->moved.port = port;
		node->moved.pool_key = NULL; /* never pooled: a subscription is the waiter's own */
		node->mode = RL_NOTIFY_SHARDED_MOVED;
		if (rl_conn_open(&notify->conns[i], &node->moved, rl_now_ms(), &out) != 0) {
			return -1;
		}
		return send_subscribe(notify, i, RL_NOTIFY_SHARDED_MOVED, 1);
	}
	return send_subscribe(notify, i, RL_NOTIFY_PLAIN, 0);
}

/* Whether a reply on a subscribed connection is a sharded channel dropped by the server: "sunsubscribe",
 * the channel, how many of ours are left (never asked for: the waiter unsubscribes by closing). */
static int dropped(const rl_reply *reply)
{
	static const char name[] = "sunsubscribe";

	return reply->integer == 3 && reply->items != NULL && reply->items[0].str != NULL
		&& reply->items[0].len == sizeof(name) - 1 && memcmp(reply->items[0].str, name, sizeof(name) - 1) == 0
		&& reply->items[2].type == RL_REPLY_INTEGER;
}

/* The payload of a message (["message" or "smessage", channel, payload]) when it is a token; NULL for
 * the empty payload of an older version or of a release that carries no token, or anything else. */
static const char *token_of(const rl_reply *reply)
{
	const rl_reply_item *payload;

	if (reply->integer != 3 || reply->items == NULL) {
		return NULL;
	}
	payload = &reply->items[2];
	if (payload->type != RL_REPLY_STRING || payload->str == NULL || payload->len != RL_TOKEN_LEN
		|| payload->integer != RL_TOKEN_LEN) {
		return NULL;
	}
	return payload->str;
}

/* Whether token is one of our own rollbacks' (rl_notify_own). */
static int own_message(const rl_notify *notify, const char *token)
{
	size_t k;

	for (k = 0; k < RL_NOTIFY_OWN; k++) {
		if (notify->own[k][0] != '\0' && memcmp(token, notify->own[k], RL_TOKEN_LEN) == 0) {
			return 1;
		}
	}
	return 0;
}

/* How a token heard woke the wait (rl_notify.heard_woke; 0: not yet). */
#define RL_HEARD_MINORITY 1
#define RL_HEARD_QUORUM 2

/* token's slot among others' tokens heard lately: its own, or the oldest one, taken over. */
static size_t heard_slot(rl_notify *notify, const char *token)
{
	size_t k;

	for (k = 0; k < RL_NOTIFY_HEARD; k++) {
		if (memcmp(notify->heard[k], token, RL_TOKEN_LEN) == 0) {
			return k;
		}
	}
	k = notify->heard_next;
	notify->heard_next = (k + 1) % RL_NOTIFY_HEARD;
	memcpy(notify->heard[k], token, RL_TOKEN_LEN);
	notify->heard_woke[k] = 0;
	memset(notify->heard_from + k * notify->count, 0, notify->count);
	return k;
}

/* Server i announced a token (ours or another's): a key went there since this pause began. Whether the
 * servers that did are a quorum (the object's, never fewer: when fewer listen, rollbacks reaching them
 * all are no sign of a free lock). A split vote's rollbacks free the lock on every server, each
 * announced by a minority under its own token: without this its waiters, their one minority wake-up of
 * the retryDelay spent on the release before it, all slept their backoff with the lock free. A lock
 * held elsewhere on a quorum never announces there, so rollbacks of the rest never make a quorum. */
static int freed_quorum(rl_notify *notify, size_t i)
{
	size_t j, n = 0;

	if (notify->freed == NULL || notify->quorum == 0) {
		return 0;
	}
	notify->freed[i] = 1;
	for (j = 0; j < notify->count; j++) {
		n += notify->freed[j];
	}
	return n >= notify->quorum;
}

/* Whether server i's announcement of another's token wakes the wait. The token's key went from the
 * servers that announced it: a quorum of them is a release (as many as listen, when fewer do: all a
 * release can show then), which wakes at once. Fewer is what a failed attempt's rollback frees, or a
 * release's first servers: that wakes at most once per minority_gap_ms, or waiters whose rollbacks wake
 * each other attempt thousands of times a second. A token wakes at most once as a minority and once as
 * a quorum: a release whose first server woke us, its others still held (a slow releaser), wakes us
 * again when its quorum is in; the rest of its servers' messages wake nothing. */
static int wakes(rl_notify *notify, size_t i, const char *token)
{
	size_t k = heard_slot(notify, token), listening = rl_notify_listening(notify), from = 0, j;
	size_t need = notify->quorum < listening ? notify->quorum : listening;
	double now;

	int freed = freed_quorum(notify, i);

	if (notify->quorum == 0) {
		return 1; /* heard while subscribing, before rl_notify_pace: counted as nothing, so the later
		           * servers' messages of a slow release still wake (a quorum of 0 would mark it whole) */
	}
	if (notify->heard_woke[k] == RL_HEARD_QUORUM) {
		return freed;
	}
	notify->heard_from[k * notify->count + i] = 1;
	for (j = 0; j < notify->count; j++) {
		from += notify->heard_from[k * notify->count + j];
	}
	if (from >= need) {
		notify->heard_woke[k] = RL_HEARD_QUORUM;
		return 1;
	}
	now = rl_now_ms();
	if (notify->heard_woke[k] == RL_HEARD_MINORITY
		|| (notify->minority_woke_ms >= 0 && now < notify->minority_woke_ms + notify->minority_gap_ms)) {
		return freed; /* no wake-up of a minority's now, unless the servers freed since the pause are a quorum */
	}
	notify->minority_woke_ms = now;
	notify->heard_woke[k] = RL_HEARD_MINORITY;
	return 1;
}

void rl_notify_pace(rl_notify *notify, unsigned quorum, double gap_ms)
{
	notify->quorum = quorum;
	notify->minority_gap_ms = gap_ms;
	notify->minority_woke_ms = -1;
}

void rl_notify_own(rl_notify *notify, const char *token)
{
	size_t k;

	if (token == NULL || token[0] == '\0' || strcmp(token, notify->own[0]) == 0) {
		return;
	}
	for (k = RL_NOTIFY_OWN - 1; k > 0; k--) {
		memcpy(notify->own[k], notify->own[k - 1], sizeof(notify->own[k]));
	}
	memcpy(notify->own[0], token, sizeof(notify->own[0]));
	notify->own[0][RL_TOKEN_LEN] = '\0';
}

/* Takes in every reply that has arrived on server i: subscribe confirmations first (one per
 * channel, which Redis sends before any message on them), then messages. Returns 0, or -1 when
 * the connection failed (it is closed: that server can no longer wake us). */
static int take_in(rl_notify *notify, size_t i, int *notified)
{
	rl_conn *conn = &notify->conns[i];

	for (;;) {
		rl_reply reply;
		rl_outcome out;
		const char *token;
		int got;

		conn->expected = 1; /* on a subscribed connection every reply is ours, asked or not */
		got = rl_conn_next_reply(conn, &reply, &out);
		if (got == 0) {
			conn->expected = 0;
			return 0;
		}
		if (got < 0) {
			rl_conn_close(conn);
			return -1;
		}
		if (reply.type == RL_REPLY_ERROR) {
			char message[RL_MESSAGE_MAX];
			size_t len = reply.str != NULL && reply.len < sizeof(message) ? reply.len : 0;

			memcpy(message, reply.str != NULL ? reply.str : "", len);
			message[len] = '\0';
			conn->expected = 0;
			if (notify->nodes[i].mode == RL_NOTIFY_PLAIN || notify->unconfirmed[i] != notify->channels
				|| subscribe_again(notify, i, message) != 0) {
				rl_conn_close(conn);
				return -1;
			}
			if (notify->nodes[i].mode == RL_NOTIFY_SHARDED_MOVED) {
				return 0; /* a new connection: its replies come with its events */
			}
			continue;
		}
		if (reply.type != RL_REPLY_ARRAY) {
			continue;
		}
		if (dropped(&reply)) {
			/* The slot of our sharded channels left this node (a failover, a resharding): Redis drops
			 * them, one "sunsubscribe" each, the count of those left last. A wake-up (a release may
			 * have gone unheard meanwhile), and once none are left, SUBSCRIBE on the same connection
			 * for the rest of this wait: the release's PUBLISH, made when its SPUBLISH reached nobody,
			 * reaches every node of the cluster, wherever the slot went (an SSUBSCRIBE again would
			 * need the new owner, or a replica of it that the owner already counts as one). The wait's
			 * attempt comes once it is confirmed (pump). */
			*notified = 1;
			if (reply.items[2].integer == 0) {
				if (send_subscribe(notify, i, RL_NOTIFY_PLAIN, 0) != 0) {
					return -1;
				}
				notify->nodes[i].again = 1;
			}
			continue;
		}
		if (notify->unconfirmed[i] > 0) {
			notify->nodes[i].again = --notify->unconfirmed[i] > 0 && notify->nodes[i].again;
		} else if ((token = token_of(&reply)) != NULL && own_message(notify, token)) {
			notify->own_heard++; /* our own rollback: waking on it made a loop of attempts */
			if (notify->freed != NULL) {
				notify->freed[i] = 1; /* freed there all the same: counted when another's wakes (wakes) */
			}
		} else if (token != NULL && !wakes(notify, i, token)) {
			notify->minority_heard++; /* a minority's, not its turn to wake us (wakes): the backoff will */
		} else {
			notify->notifications++;
			*notified = 1;
		}
	}
}

/* Whether a subscription made again after a drop (take_in) is still to be confirmed on a live connection. */
static int again_unconfirmed(const rl_notify *notify)
{
	size_t i;

	for (i = 0; i < notify->count; i++) {
		if (notify->conns[i].state != RL_CONN_DOWN && notify->nodes[i].again) {
			return 1;
		}
	}
	return 0;
}

static int all_confirmed(const rl_notify *notify)
{
	size_t i;

	for (i = 0; i < notify->count; i++) {
		if (notify->conns[i].state != RL_CONN_DOWN && notify->unconfirmed[i] > 0) {
			return 0;
		}
	}
	return 1;
}

/* One poll of the live subscriptions (fds, owner: room for every server) and what it brought in
 * (*notified set by a message, -1 when the wait was cancelled). 0 to poll again; 1 to stop: no server
 * left, the poll failed or was cancelled. */
static int pump_once(rl_notify *notify, rl_pollfd *fds, size_t *owner, double until_ms, double now, int *notified)
{
	size_t used = 0, i, k;
	int ready;

	for (i = 0; i < notify->count; i++) {
		if (notify->conns[i].state == RL_CONN_DOWN) {
			continue;
		}
		fds[used].fd = rl_conn_fd(&notify->conns[i]);
		fds[used].events = rl_conn_poll_events(&notify->conns[i]);
		fds[used].revents = 0;
		owner[used++] = i;
	}
	if (used == 0) {
		if (pause_cancelled(until_ms, now)) {
			*notified = -1;
		}
		return 1;
	}
	/* TLS-decrypted bytes count as readable: a release announced in them is seen now */
	ready = rl_conn_poll(fds, owner, used, notify->conns, until_ms, now);
	if (ready < 0 && !rl_poll_interrupted()) {
		if (rl_wait_cancelled(ready)) {
			*notified = -1;
		}
		return 1;
	}
	for (k = 0; ready > 0 && k < used; k++) {
		rl_conn *conn = &notify->conns[owner[k]];
		rl_outcome out;

		if (fds[k].revents == 0) {
			continue;
		}
		if (rl_conn_on_events(conn, endpoint_of(notify, owner[k]), fds[k].revents, &out) != 0) {
			rl_conn_close(conn);
			continue;
		}
		(void) take_in(notify, owner[k], notified);
	}
	return 0;
}

/* Polls the subscriptions until until_ms. stop_on_notice: return 1 at the first message;
 * otherwise return once every server confirmed (or failed). -1: the wait was cancelled. */
static int pump(rl_notify *notify, double until_ms, int stop_on_notice)
{
	rl_pollfd small[16];
	size_t owner_small[16];
	rl_pollfd *fds = notify->count <= 16 ? small : malloc(notify->count * sizeof(*fds));
	size_t *owner = notify->count <= 16 ? owner_small : malloc(notify->count * sizeof(*owner));
	int notified = 0;

	if (fds == NULL || owner == NULL) {
		if (fds != small) {
			free(fds);
			free(owner);
		}
		return pause_cancelled(until_ms, rl_now_ms()) ? -1 : 0;
	}
	for (;;) {
		double now = rl_now_ms();

		/* a notice ends the wait once a subscription made again (take_in) is confirmed: it hears the
		 * releases after the attempt that follows */
		if ((notified && stop_on_notice && !again_unconfirmed(notify)) || (!stop_on_notice && all_confirmed(notify))
			|| now >= until_ms
			|| pump_once(notify, fds, owner, until_ms, now, &notified) != 0) {
			break;
		}
	}
	if (fds != small) {
		free(fds);
		free(owner);
	}
	return notified;
}

/* Whether x (what follows the prefix: a key, or a fair waiter's "key:fair:w:id") has a hash tag. */
static int tagged(const char *x, size_t len)
{
	const char *open = memchr(x, '{', len), *close;

	return open != NULL && (close = memchr(open + 1, '}', len - (size_t) (open - x) - 1)) != NULL && close > open + 1;
}

/* The channels of keys in argv[1 ..] (argv[k + 1] replaced, the old one freed): the prefix, then a
 * fromCluster member's hash tag ({tag}: its keys carry it, rl_fanout_encode_tagged, so do the
 * channels its releases announce on), then the key: x. sharded: the channel in x's slot that the
 * scripts SPUBLISH on (RL_LUA_ANNOUNCE): the prefix and x when x is tagged, the prefix and "{x}"
 * when x holds no '}'. 0; 1 when sharded and a key has no such channel, or they lie in several slots
 * (SUBSCRIBE then); -1 when out of memory. */
static int build_channels(const char **argv, size_t *argvlen, const rl_lock_keys *keys, const char *tag, size_t tag_len,
	int sharded)
{
	size_t prefix_len = sizeof(RL_NOTIFY_CHANNEL_PREFIX) - 1, k;
	int slot = -1;

	for (k = 0; k < keys->count; k++) {
		char *channel = malloc(prefix_len + (tag_len > 0 ? tag_len + 2 : 0) + keys->lens[k] + 2);
		size_t at = prefix_len;
		int one;

		free((void *) argv[k + 1]);
		argv[k + 1] = channel;
		if (channel == NULL) {
			return -1;
		}
		memcpy(channel, RL_NOTIFY_CHANNEL_PREFIX, prefix_len);
		if (tag_len > 0) {
			channel[at++] = '{';
			memcpy(channel + at, tag, tag_len);
			at += tag_len;
			channel[at++] = '}';
		}
		memcpy(channel + at, keys->keys[k], keys->lens[k]);
		at += keys->lens[k];
		if (sharded && !tagged(channel + prefix_len, at - prefix_len)) {
			if (memchr(channel + prefix_len, '}', at - prefix_len) != NULL) {
				return 1;
			}
			memmove(channel + prefix_len + 1, channel + prefix_len, at - prefix_len);
			channel[prefix_len] = '{';
			channel[++at] = '}';
			at++;
		}
		argvlen[k + 1] = at;
		if (sharded) {
			one = rl_shards_key_slot(channel, at);
			if (slot >= 0 && one != slot) {
				return 1;
			}
			slot = one;
		}
	}
	return 0;
}

/* Server i's subscription sent on its connection (setup: AUTH and the like first, a new connection):
 * SSUBSCRIBE for mode sharded when its keys have channels in one slot, else SUBSCRIBE. 0, or -1 (the
 * connection is then closed: that server cannot wake us, the backoff still does). */
static int send_subscribe(rl_notify *notify, size_t i, int mode, int setup)
{
	rl_conn *conn = &notify->conns[i];
	const rl_endpoint *endpoint = endpoint_of(notify, i);
	const rl_shards *shards = notify->endpoints[i].shards;
	size_t tag_len = shards != NULL && shards->pin > 0 ? shards->tag_len : 0, k;
	const rl_lock_keys *keys = notify->keys;
	const char **argv = calloc(keys->count + 1, sizeof(*argv));
	size_t *argvlen = calloc(keys->count + 1, sizeof(*argvlen));
	rl_outcome out;
	int built = -1, rc = -1;

	if (argv != NULL && argvlen != NULL) {
		built = build_channels(argv, argvlen, keys, tag_len > 0 ? shards->tag : NULL, tag_len, mode != RL_NOTIFY_PLAIN);
		if (built == 1) {
			mode = RL_NOTIFY_PLAIN;
			built = build_channels(argv, argvlen, keys, tag_len > 0 ? shards->tag : NULL, tag_len, 0);
		}
	}
	if (built == 0) {
		argv[0] = mode == RL_NOTIFY_PLAIN ? "SUBSCRIBE" : "SSUBSCRIBE";
		argvlen[0] = strlen(argv[0]);
		notify->nodes[i].mode = (unsigned char) mode;
		if ((!setup || rl_conn_append_setup(conn, endpoint) == 0)
			&& rl_conn_append(conn, (int) keys->count + 1, argv, argvlen) == 0 && rl_conn_flush(conn, &out) == 0) {
			rc = 0;
		}
	}
	if (argv != NULL) {
		for (k = 1; k <= keys->count; k++) {
			free((void *) argv[k]);
		}
	}
	free(argv);
	free(argvlen);
	if (rc != 0) {
		rl_conn_close(conn);
		return -1;
	}
	conn->expected = 0; /* counted in unconfirmed instead */
	notify->unconfirmed[i] = notify->channels;
	return 0;
}

/* Server i's connection, its subscription sent: a cluster member's sharded, on the node its last
 * call went to (the master of its keys' slot, after the attempt), others' plain. */
static void subscribe(rl_notify *notify, size_t i, const rl_cluster *cluster, double now)
{
	rl_outcome out;

	if (cluster->endpoints[i].host == NULL || rl_conn_open(&notify->conns[i], &cluster->endpoints[i], now, &out) != 0) {
		return;
	}
	(void) send_subscribe(notify, i, cluster->endpoints[i].shards != NULL ? RL_NOTIFY_SHARDED : RL_NOTIFY_PLAIN, 1);
}

int rl_notify_open(rl_notify *notify, const rl_cluster *cluster, const rl_lock_keys *keys, double until_ms)
{
	double now = rl_now_ms();
	size_t i;

	memset(notify, 0, sizeof(*notify));
	notify->count = cluster->count;
	notify->endpoints = cluster->endpoints;
	notify->keys = keys;
	notify->channels = (unsigned) keys->count;
	notify->conns = calloc(cluster->count ? cluster->count : 1, sizeof(*notify->conns));
	notify->nodes = calloc(cluster->count ? cluster->count : 1, sizeof(*notify->nodes));
	notify->unconfirmed = calloc(cluster->count ? cluster->count : 1, sizeof(*notify->unconfirmed));
	notify->heard_from = calloc(RL_NOTIFY_HEARD, cluster->count ? cluster->count : 1);
	notify->freed = calloc(cluster->count ? cluster->count : 1, 1);
	if (notify->conns == NULL || notify->nodes == NULL || notify->unconfirmed == NULL || notify->heard_from == NULL
		|| notify->freed == NULL) {
		free(notify->conns);
		free(notify->nodes);
		free(notify->unconfirmed);
		free(notify->heard_from);
		free(notify->freed);
		memset(notify, 0, sizeof(*notify));
		return -1;
	}
	for (i = 0; i < cluster->count; i++) {
		rl_conn_init(&notify->conns[i]);
	}
	for (i = 0; i < cluster->count; i++) {
		subscribe(notify, i, cluster, now);
	}
	(void) pump(notify, until_ms, 0);
	return 0;
}

int rl_notify_wait(rl_notify *notify, double until_ms)
{
	if (notify->freed != NULL) {
		/* the attempt before this pause saw what those announced; what arrived since is still unread */
		memset(notify->freed, 0, notify->count);
	}
	return pump(notify, until_ms, 1);
}

size_t rl_notify_listening(const rl_notify *notify)
{
	size_t i, n = 0;

	for (i = 0; i < notify->count; i++) {
		if (notify->conns[i].state == RL_CONN_READY && notify->unconfirmed[i] == 0) {
			n++;
		}
	}
	return n;
}

void rl_notify_close(rl_notify *notify)
{
	size_t i;

	for (i = 0; notify->conns && i < notify->count; i++) {
		rl_conn_release(&notify->conns[i]); /* wipes the buffer that held AUTH */
	}
	free(notify->conns);
	free(notify->nodes);
	free(notify->unconfirmed);
	free(notify->heard_from);
	free(notify->freed);
	notify->freed = NULL;
	notify->conns = NULL;
	notify->nodes = NULL;
	notify->unconfirmed = NULL;
	notify->heard_from = NULL;
}

/* --- The deadline-bounded io ----------------------------------------------------------------- */

static double clamp(const rl_clamped_io *c, double deadline_ms)
{
	return deadline_ms <= 0 || deadline_ms > c->deadline_ms ? c->deadline_ms : deadline_ms;
}

static unsigned clamped_run(void *arg, const rl_request *request, unsigned quorum, double deadline_ms,
	rl_outcome *outcomes)
{
	rl_clamped_io *c = arg;
	return c->inner->run(c->inner->arg, request, quorum, clamp(c, deadline_ms), outcomes);
}

static void clamped_send(void *arg, const rl_command *command)
{
	rl_clamped_io *c = arg;
	c->inner->send(c->inner->arg, command);
}

static void clamped_send_to(void *arg, const rl_command *command, const unsigned char *to)
{
	rl_clamped_io *c = arg;
	c->inner->send_to(c->inner->arg, command, to);
}

static void clamped_pause(void *arg, double until_ms)
{
	rl_clamped_io *c = arg;
	c->inner->pause(c->inner->arg, clamp(c, until_ms));
}

static double clamped_now(void *arg)
{
	rl_clamped_io *c = arg;
	return c->inner->now(c->inner->arg);
}

static unsigned long long clamped_stream(void *arg, size_t server)
{
	rl_clamped_io *c = arg;
	return c->inner->stream != NULL ? c->inner->stream(c->inner->arg, server) : 0;
}

static int clamped_random(void *arg, void *into, size_t len)
{
	rl_clamped_io *c = arg;
	return c->inner->random(c->inner->arg, into, len);
}

void rl_clamped_io_init(rl_clamped_io *clamped, const rl_lock_io *inner, double deadline_ms)
{
	clamped->inner = inner;
	clamped->deadline_ms = deadline_ms;
	clamped->io.arg = clamped;
	clamped->io.run = clamped_run;
	clamped->io.send = clamped_send;
	clamped->io.send_to = clamped_send_to;
	clamped->io.pause = clamped_pause;
	clamped->io.now = clamped_now;
	clamped->io.stream = clamped_stream;
	clamped->io.random = clamped_random;
}

/* --- The loop -------------------------------------------------------------------------------- */

/* Subscribed to the keys' releases until subscribe_until, the connection sets at rest first (io is
 * not ours while subscribing and asleep). Without room for a subscription set, notify stays empty:
 * the backoff pauses alone. rolled_back: the first attempt's rollback, whose announcement may come
 * once we listen. 0, or -1 (the sets told). */
static int wait_subscribe(rl_notify *notify, rl_cluster *cluster, const rl_lock_keys *keys, double subscribe_until,
	const rl_wait_sets *sets, const char *rolled_back, unsigned quorum, int64_t retry_delay, rl_wait_stats *stats)
{
	if (sets != NULL) {
		sets->rest(sets->arg);
	}
	if (sets != NULL && !sets->subscribe(sets->arg)) {
		memset(notify, 0, sizeof(*notify));
	} else if (rl_notify_open(notify, cluster, keys, subscribe_until) != 0) {
		if (sets != NULL) {
			sets->unsubscribed(sets->arg);
		}
		return -1;
	}
	rl_notify_own(notify, rolled_back);
	rl_notify_pace(notify, quorum, (double) retry_delay);
	stats->listening = rl_notify_listening(notify);
	return 0;
}

/* The pause between attempts: until a release is notified or the backoff's random delay ends (the
 * sets at rest meanwhile); the announcement of the last attempt's rollback (rolled_back) is not one.
 * 0 to attempt again, 1 cancelled (net/rl_wait_cancel.h), -1 no random bytes. */
static int wait_pause(rl_notify *notify, const rl_lock_io *io, const rl_wait_sets *sets, double now, int64_t retry_delay,
	double deadline_ms, const char *rolled_back, rl_wait_stats *stats)
{
	uint32_t value = 0;
	int woke;

	rl_notify_own(notify, rolled_back);
	if (io->random(io->arg, &value, sizeof(value)) != 0) {
		return -1;
	}
	if (sets != NULL) {
		sets->rest(sets->arg);
	}
	woke = rl_notify_wait(notify, fmin(now + (double) rl_retry_delay_ms(retry_delay, value), deadline_ms));
	if (woke < 0) {
		return 1;
	}
	stats->notifications += (size_t) woke;
	stats->own_heard = notify->own_heard;
	stats->minority_heard = notify->minority_heard;
	return 0;
}

int rl_wait_acquire(rl_cluster *cluster, const rl_lock_io *io, const rl_lock_keys *keys, double deadline_ms,
	int64_t retry_delay, unsigned quorum, double subscribe_bound_ms, rl_attempt_fn attempt, void *arg,
	const rl_wait_sets *sets, rl_wait_stats *stats)
{
	rl_clamped_io clamped;
	rl_notify notify;
	char rolled_back[RL_TOKEN_LEN + 1] = "";
	double subscribe_until;
	int result;

	memset(stats, 0, sizeof(*stats));
	rl_clamped_io_init(&clamped, io, deadline_ms);
	/* First without subscribing: an uncontended lock costs nothing more than without waitTimeout.
	 * waitTimeout 0 means this one attempt, bounded as lock()'s (cut at the deadline, it could
	 * never be won). */
	stats->attempts++;
	result = attempt(arg, io->now(io->arg) >= deadline_ms ? io : &clamped.io, rolled_back);
	if (result != 0 || io->now(io->arg) >= deadline_ms) {
		return result;
	}
	subscribe_until = fmin(deadline_ms, io->now(io->arg) + subscribe_bound_ms);
	if (wait_subscribe(&notify, cluster, keys, subscribe_until, sets, rolled_back, quorum, retry_delay, stats) != 0) {
		return -1;
	}
	for (;;) {
		double now;
		int pause;

		if (sets != NULL) {
			const rl_lock_io *inner = sets->resume(sets->arg, deadline_ms);
			if (inner == NULL) {
				result = 0; /* no set came back before the deadline */
				break;
			}
			clamped.inner = inner; /* the one given back may be gone: its io with it */
			io = inner;
		}
		/* Subscribed before this attempt: a release after it wakes the wait below. */
		stats->attempts++;
		result = attempt(arg, &clamped.io, rolled_back);
		now = io->now(io->arg);
		if (result != 0 || now >= deadline_ms) {
			break;
		}
		if ((pause = wait_pause(&notify, io, sets, now, retry_delay, deadline_ms, rolled_back, stats)) != 0) {
			result = pause < 0 ? -1 : result; /* cancelled: the last attempt's result stands */
			break;
		}
	}
	rl_notify_close(&notify);
	if (sets != NULL) {
		sets->unsubscribed(sets->arg);
	}
	return result;
}
