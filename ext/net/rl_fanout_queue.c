/* Queuing a command on every server before the fan-out waits. See rl_fanout_queue_private.h. */
#include <stdlib.h>
#include <string.h>

#include "net/rl_fanout_queue_private.h"
#include "protocol/rl_resp.h"
#include "net/rl_net_private.h"

/* count commands, pipelined in one buffer (a batch: MULTI ... EXEC; off the drop-in cycle's path) */
void rl_fanout_encode_all(const rl_command *commands, unsigned count, rl_encoded *enc)
{
	unsigned k;
	size_t at = 0;

	enc->len = 0;
	for (k = 0; k < count; k++) {
		enc->len += rl_resp_size(commands[k].argc, commands[k].argvlen);
	}
	enc->bytes = enc->len <= sizeof(enc->small) ? enc->small : malloc(enc->len);
	for (k = 0; enc->bytes != NULL && k < count; k++) {
		rl_resp_format(enc->bytes + at, commands[k].argc, commands[k].argv, commands[k].argvlen);
		at += rl_resp_size(commands[k].argc, commands[k].argvlen);
	}
}

void rl_fanout_encode_tagged(const rl_command *commands, unsigned count, const char *tag, size_t tag_len, rl_encoded *enc)
{
	rl_command *tagged = calloc(count ? count : 1, sizeof(*tagged));
	unsigned k;
	int failed = tagged == NULL;

	for (k = 0; !failed && k < count; k++) {
		const rl_command *in = &commands[k];
		const char **argv = calloc((size_t) (in->argc ? in->argc : 1), sizeof(*argv));
		size_t *argvlen = malloc((size_t) (in->argc ? in->argc : 1) * sizeof(*argvlen));
		int first = 0, last = -1, a;

		tagged[k].argc = in->argc;
		tagged[k].argv = argv;
		tagged[k].argvlen = argvlen;
		if (argv == NULL || argvlen == NULL) {
			failed = 1;
			break;
		}
		if (!rl_command_keys(in, &first, &last)) {
			first = 0, last = -1;
		}
		for (a = 0; a < in->argc; a++) {
			argv[a] = in->argv[a];
			argvlen[a] = in->argvlen[a];
			if (a >= first && a <= last) {
				char *key = malloc(tag_len + 2 + in->argvlen[a]);

				if (key == NULL) {
					argv[a] = NULL;
					failed = 1;
					continue;
				}
				key[0] = '{';
				memcpy(key + 1, tag, tag_len);
				key[tag_len + 1] = '}';
				memcpy(key + tag_len + 2, in->argv[a], in->argvlen[a]);
				argv[a] = key;
				argvlen[a] = tag_len + 2 + in->argvlen[a];
			}
		}
	}
	if (failed) {
		enc->bytes = NULL;
		enc->len = 0;
	} else {
		rl_fanout_encode_all(tagged, count, enc);
	}
	for (k = 0; tagged != NULL && k < count; k++) {
		int first = 0, last = -1, a;

		if (tagged[k].argv != NULL && rl_command_keys(&commands[k], &first, &last)) {
			for (a = first; a <= last && a < tagged[k].argc; a++) {
				free((char *) tagged[k].argv[a]);
			}
		}
		free((void *) tagged[k].argv);
		free((void *) tagged[k].argvlen);
	}
	free(tagged);
}

void rl_fanout_encode(const rl_command *command, rl_encoded *enc)
{
	if (rl_resp_bound(command->argc, command->argvlen) <= sizeof(enc->small)) {
		/* one pass: the exact size is where the writing ended */
		enc->bytes = enc->small;
		enc->len = (size_t) (rl_resp_format_command(enc->small, command) - enc->small);
		return;
	}
	enc->len = rl_resp_size(command->argc, command->argvlen);
	enc->bytes = enc->len <= sizeof(enc->small) ? enc->small : malloc(enc->len);
	if (enc->bytes != NULL) {
		rl_resp_format_command(enc->bytes, command);
	}
}

/* What has arrived on each ready connection since it was last used (stale replies, the server's
 * end-of-file): one poll() for the whole cluster, in seen[i]; RL_NOT_PROBED for the others. One
 * poll() per server was over a third of the syscalls of a lock+unlock cycle. */
void rl_fanout_probe_idle(const rl_cluster *cluster, short seen[RL_SMALL_CLUSTER])
{
	rl_pollfd fds[RL_SMALL_CLUSTER];
	size_t owner[RL_SMALL_CLUSTER];
	size_t used = 0, i, k;

	for (i = 0; i < RL_SMALL_CLUSTER; i++) {
		seen[i] = RL_NOT_PROBED;
	}
	for (i = 0; i < cluster->count && i < RL_SMALL_CLUSTER; i++) {
		if (cluster->conns[i].state == RL_CONN_READY) {
			fds[used].fd = rl_conn_fd(&cluster->conns[i]);
			fds[used].events = POLLIN | RL_POLL_PEER_CLOSED;
			fds[used].revents = 0;
			owner[used++] = i;
		}
	}
	if (used == 0 || rl_poll(fds, (unsigned long) used, 0) < 0) {
		return;
	}
	for (k = 0; k < used; k++) {
		seen[owner[k]] = fds[k].revents;
	}
}

/* prepare() beyond its common case: takes in what arrived, opens or checks out the connection,
 * queues command and flushes. */
int rl_fanout_prepare_any(rl_cluster *cluster, size_t i, const rl_encoded *lua, rl_natives *natives, double now,
	double call_deadline, rl_outcome *out, int queue_behind_silent, short seen, int lua_forbidden, unsigned leading,
	int asking)
{
	rl_conn *conn = &cluster->conns[i];
	const rl_endpoint *endpoint = &cluster->endpoints[i];
	const rl_encoded *command;

	if (endpoint->host == NULL) {
		rl_outcome_set(out, RL_OUTCOME_CONNECT, "connect: out of memory");
		return -1;
	}
	if (queue_behind_silent && conn->state == RL_CONN_READY && !conn->peer_closed) {
		conn->deadline = rl_conn_due(endpoint, now, call_deadline);
	} else if (seen != RL_CALL_BEGUN) {
		rl_fanout_begin_call(cluster, i, seen, now, call_deadline);
	}
	if (conn->state == RL_CONN_DOWN && cluster->pool != NULL && endpoint->pool_key != NULL && rl_sentinel_pool_ok(endpoint)) {
		rl_pool_checkout(cluster->pool, endpoint, conn, now, call_deadline);
	}
	if (conn->state == RL_CONN_DOWN) {
		if (rl_sentinel_before_open(&cluster->endpoints[i], queue_behind_silent, call_deadline, out) != 0
			|| rl_conn_open(conn, endpoint, now, out) != 0) {
			return -1;
		}
		if (rl_conn_append_setup(conn, endpoint) != 0 || rl_conn_append_probes(conn) != 0) {
			goto out_of_memory;
		}
	}
	if (!queue_behind_silent && (now >= conn->clock_due || cluster->clock_every_call)) {
		/* The server's clock, sampled with the command: its reply comes first on the stream
		 * (docs/design/verification.md#clock-jumps). Not on a memory:// server (the test clock). */
		if (endpoint->test_double) {
			conn->clock_due = HUGE_VAL;
		} else if (rl_conn_queue_time(conn, now) != 0) {
			goto out_of_memory;
		}
	}
	command = rl_fanout_pick(conn, lua, natives); /* a pooled connection may have come in */
	if (lua_forbidden && command == lua) {
		rl_outcome_set(out, RL_OUTCOME_ERROR, rl_conn_natives_pending(conn)
			? "no script sent ('scripts' => false): this server has not yet said whether it has DELEX or DELIFEQ"
			: "no script sent ('scripts' => false): this server has neither DELEX (Redis >= 8.4) nor DELIFEQ (Valkey >= 9)");
		return -1;
	}
	if (asking) {
		static const char asking_command[] = "*1\r\n$6\r\nASKING\r\n";

		if (rl_conn_append_encoded(conn, asking_command, sizeof(asking_command) - 1) != 0) {
			goto out_of_memory;
		}
		leading++; /* its +OK is passed over as a batch's first replies are */
		conn->expected--;
	}
	if (command->bytes == NULL || rl_conn_append_encoded(conn, command->bytes, command->len) != 0) {
		goto out_of_memory;
	}
	conn->expected += leading;
	if (rl_conn_flush(conn, out) != 0) {
		rl_conn_close(conn);
		return -1;
	}
	return 0;

out_of_memory:
	rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
	rl_conn_close(conn);
	return -1;
}
