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

/* Takes in every reply that has arrived on server i: subscribe confirmations first (one per
 * channel, which Redis sends before any message on them), then messages. Returns 0, or -1 when
 * the connection failed (it is closed: that server can no longer wake us). */
static int take_in(rl_notify *notify, size_t i, int *notified)
{
	rl_conn *conn = &notify->conns[i];

	for (;;) {
		rl_reply reply;
		rl_outcome out;
		int got;

		conn->expected = 1; /* on a subscribed connection every reply is ours, asked or not */
		got = rl_conn_next_reply(conn, &reply, &out);
		if (got == 0) {
			conn->expected = 0;
			return 0;
		}
		if (got < 0 || reply.type == RL_REPLY_ERROR) {
			rl_conn_close(conn);
			return -1;
		}
		if (reply.type != RL_REPLY_ARRAY) {
			continue;
		}
		if (notify->unconfirmed[i] > 0) {
			notify->unconfirmed[i]--;
		} else {
			notify->notifications++;
			*notified = 1;
		}
	}
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
		if (rl_conn_on_events(conn, &notify->endpoints[owner[k]], fds[k].revents, &out) != 0) {
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

		if ((notified && stop_on_notice) || (!stop_on_notice && all_confirmed(notify)) || now >= until_ms
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

/* The channels of keys in argv[1 ..] (argv[k + 1] replaced, the old one freed): the prefix, then a
 * fromCluster member's hash tag ({tag}: its keys carry it, rl_fanout_encode_tagged, so do the
 * channels its releases PUBLISH on), then the key. 0, or -1 when out of memory. */
static int build_channels(const char **argv, size_t *argvlen, const rl_lock_keys *keys, const char *tag, size_t tag_len)
{
	size_t prefix_len = sizeof(RL_NOTIFY_CHANNEL_PREFIX) - 1, k;

	for (k = 0; k < keys->count; k++) {
		char *channel = malloc(prefix_len + (tag_len > 0 ? tag_len + 2 : 0) + keys->lens[k]);
		size_t at = prefix_len;

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
		argvlen[k + 1] = at + keys->lens[k];
	}
	return 0;
}

/* Server i's connection, SUBSCRIBE sent (argv: its first word, the channels built here); a server
 * that cannot be reached or written to cannot wake us: the backoff still does. */
static void subscribe(rl_notify *notify, size_t i, const rl_cluster *cluster, const rl_lock_keys *keys,
	const char **argv, size_t *argvlen, double now)
{
	rl_conn *conn = &notify->conns[i];
	const rl_shards *shards = cluster->endpoints[i].shards;
	size_t tag_len = shards != NULL && shards->pin > 0 ? shards->tag_len : 0;
	rl_outcome out;

	if (cluster->endpoints[i].host == NULL || rl_conn_open(conn, &cluster->endpoints[i], now, &out) != 0) {
		return;
	}
	if (build_channels(argv, argvlen, keys, tag_len > 0 ? shards->tag : NULL, tag_len) != 0
		|| rl_conn_append_setup(conn, &cluster->endpoints[i]) != 0
		|| rl_conn_append(conn, (int) keys->count + 1, argv, argvlen) != 0
		|| rl_conn_flush(conn, &out) != 0) {
		rl_conn_close(conn);
		return;
	}
	conn->expected = 0; /* counted in unconfirmed instead */
	notify->unconfirmed[i] = notify->channels;
}

int rl_notify_open(rl_notify *notify, const rl_cluster *cluster, const rl_lock_keys *keys, double until_ms)
{
	const char **argv = NULL;
	size_t *argvlen = NULL;
	double now = rl_now_ms();
	size_t i;
	int rc = -1;

	memset(notify, 0, sizeof(*notify));
	notify->count = cluster->count;
	notify->endpoints = cluster->endpoints;
	notify->channels = (unsigned) keys->count;
	notify->conns = calloc(cluster->count ? cluster->count : 1, sizeof(*notify->conns));
	notify->unconfirmed = calloc(cluster->count ? cluster->count : 1, sizeof(*notify->unconfirmed));
	argv = calloc(keys->count + 1, sizeof(*argv));
	argvlen = calloc(keys->count + 1, sizeof(*argvlen));
	if (notify->conns == NULL || notify->unconfirmed == NULL || argv == NULL || argvlen == NULL) {
		goto done;
	}
	for (i = 0; i < cluster->count; i++) {
		rl_conn_init(&notify->conns[i]);
	}
	argv[0] = "SUBSCRIBE";
	argvlen[0] = 9;
	for (i = 0; i < cluster->count; i++) {
		subscribe(notify, i, cluster, keys, argv, argvlen, now);
	}
	rc = 0;
done:
	if (argv != NULL) {
		for (i = 1; i <= keys->count; i++) {
			free((void *) argv[i]);
		}
	}
	free(argv);
	free(argvlen);
	if (rc != 0) {
		rl_notify_close(notify);
		return -1;
	}
	(void) pump(notify, until_ms, 0);
	return 0;
}

int rl_notify_wait(rl_notify *notify, double until_ms)
{
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
	free(notify->unconfirmed);
	notify->conns = NULL;
	notify->unconfirmed = NULL;
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
	clamped->io.random = clamped_random;
}

/* --- The loop -------------------------------------------------------------------------------- */

/* Subscribed to the keys' releases until subscribe_until, the connection sets at rest first (io is
 * not ours while subscribing and asleep). Without room for a subscription set, notify stays empty:
 * the backoff pauses alone. 0, or -1 (the sets told). */
static int wait_subscribe(rl_notify *notify, rl_cluster *cluster, const rl_lock_keys *keys, double subscribe_until,
	const rl_wait_sets *sets)
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
	return 0;
}

/* The pause between attempts: until a release is notified or the backoff's random delay ends (the
 * sets at rest meanwhile). 0 to attempt again, 1 cancelled (net/rl_wait_cancel.h), -1 no random bytes. */
static int wait_pause(rl_notify *notify, const rl_lock_io *io, const rl_wait_sets *sets, double now, int64_t retry_delay,
	double deadline_ms, rl_wait_stats *stats)
{
	uint32_t value = 0;
	int woke;

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
	return 0;
}

int rl_wait_acquire(rl_cluster *cluster, const rl_lock_io *io, const rl_lock_keys *keys, double deadline_ms,
	int64_t retry_delay, double subscribe_bound_ms, rl_attempt_fn attempt, void *arg, const rl_wait_sets *sets,
	rl_wait_stats *stats)
{
	rl_clamped_io clamped;
	rl_notify notify;
	double subscribe_until;
	int result;

	memset(stats, 0, sizeof(*stats));
	rl_clamped_io_init(&clamped, io, deadline_ms);
	/* First without subscribing: an uncontended lock costs nothing more than without waitTimeout.
	 * waitTimeout 0 means this one attempt, bounded as lock()'s (cut at the deadline, it could
	 * never be won). */
	stats->attempts++;
	result = attempt(arg, io->now(io->arg) >= deadline_ms ? io : &clamped.io);
	if (result != 0 || io->now(io->arg) >= deadline_ms) {
		return result;
	}
	subscribe_until = fmin(deadline_ms, io->now(io->arg) + subscribe_bound_ms);
	if (wait_subscribe(&notify, cluster, keys, subscribe_until, sets) != 0) {
		return -1;
	}
	stats->listening = rl_notify_listening(&notify);
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
		result = attempt(arg, &clamped.io);
		now = io->now(io->arg);
		if (result != 0 || now >= deadline_ms) {
			break;
		}
		if ((pause = wait_pause(&notify, io, sets, now, retry_delay, deadline_ms, stats)) != 0) {
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
