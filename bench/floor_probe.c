/* The floor probe: the Redlock cycle's network work with no PHP in between, over hiredis.
 * One cycle = SET key token NX PX ttl sent to every server at once, then EVALSHA of the unlock
 * script sent to every server at once. Like the extension, each step stops waiting as soon as
 * the quorum (N/2+1) is won; replies still in flight are read and dropped at the next step.
 * Commands are encoded once per step (ext/protocol/rl_resp.h) and written straight to each socket.
 *
 *   floor_probe -s 127.0.0.1:7501,127.0.0.1:7502 [-m reused|percycle|ping] [-T SECONDS | -n CYCLES]
 *
 * reused: connections opened once. percycle: opened (in parallel) and closed every cycle, like a
 * new RedLock per request. ping: one PING per cycle to the first server (measures the RTT).
 * Prints one line: cycles=.. seconds=.. p50_us=.. p99_us=.. failed=.. cpu_us=.. (user+sys CPU) */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <hiredis/hiredis.h>
#include "../ext/protocol/rl_resp.h"

#define MAX_SERVERS 16
#define UNLOCK_SCRIPT \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then\n" \
	"    return redis.call('DEL', KEYS[1])\n" \
	"else\n" \
	"    return 0\n" \
	"end\n"

typedef struct conn {
	redisContext *ctx;
	unsigned stale;  /* replies owed to an earlier step, dropped on arrival */
	int waiting;     /* this step still waits for our reply */
} conn;

static char *hosts[MAX_SERVERS];
static int ports[MAX_SERVERS];
static conn conns[MAX_SERVERS];
static size_t server_count;
static char unlock_sha[41];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "floor_probe: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(1);
}

/* Opens every connection at once and waits until all are writable. */
static void open_all(void)
{
	struct pollfd fds[MAX_SERVERS];
	size_t i, left = server_count;
	double give_up = now_s() + 5;

	for (i = 0; i < server_count; i++) {
		conns[i].ctx = redisConnectNonBlock(hosts[i], ports[i]);
		if (conns[i].ctx == NULL || conns[i].ctx->err) {
			die("connect", conns[i].ctx ? conns[i].ctx->errstr : "out of memory");
		}
		conns[i].stale = 0;
		conns[i].waiting = 0;
		fds[i].fd = conns[i].ctx->fd;
		fds[i].events = POLLOUT;
	}
	while (left > 0) {
		if (now_s() > give_up || poll(fds, server_count, 1000) < 0) {
			die("connect", "timeout");
		}
		for (i = 0; i < server_count; i++) {
			if (fds[i].fd >= 0 && fds[i].revents) {
				if (fds[i].revents & (POLLERR | POLLHUP)) {
					die("connect", hosts[i]);
				}
				fds[i].fd = -1; /* poll ignores negative fds */
				left--;
			}
		}
	}
}

static void close_all(void)
{
	size_t i;
	for (i = 0; i < server_count; i++) {
		redisFree(conns[i].ctx);
		conns[i].ctx = NULL;
	}
}

static int is_yes(const redisReply *r)
{
	return (r->type == REDIS_REPLY_STATUS && strcmp(r->str, "OK") == 0)
		|| (r->type == REDIS_REPLY_INTEGER && r->integer > 0)
		|| (r->type == REDIS_REPLY_STRING && r->len == 40); /* SCRIPT LOAD */
}

/* Sends argv to every server, returns the yes votes once the quorum is won or lost. */
static unsigned fan_out(int argc, const char **argv, const size_t *argvlen, unsigned quorum)
{
	struct pollfd fds[MAX_SERVERS];
	unsigned yes = 0, answered = 0, servers = (unsigned) server_count;
	size_t i;
	double give_up = now_s() + 5;

	char bytes[1024];
	size_t size = rl_resp_size(argc, argvlen);

	if (size > sizeof(bytes)) {
		die("command too long", NULL);
	}
	rl_resp_format(bytes, argc, argv, argvlen);
	for (i = 0; i < server_count; i++) {
		if (send(conns[i].ctx->fd, bytes, size, MSG_NOSIGNAL) != (ssize_t) size) {
			die("send", strerror(errno)); /* a few hundred bytes always fit an idle socket */
		}
		conns[i].waiting = 1;
	}
	while (yes < quorum && yes + (servers - answered) >= quorum) {
		size_t used = 0;
		size_t owner[MAX_SERVERS];

		for (i = 0; i < server_count; i++) {
			if (conns[i].waiting) {
				fds[used].fd = conns[i].ctx->fd;
				fds[used].events = POLLIN;
				owner[used++] = i;
			}
		}
		if (now_s() > give_up || poll(fds, used, 1000) < 0) {
			die("poll", "timeout");
		}
		for (i = 0; i < used; i++) {
			conn *c = &conns[owner[i]];
			if (fds[i].revents == 0) {
				continue;
			}
			if (redisBufferRead(c->ctx) != REDIS_OK) {
				die("read", c->ctx->errstr);
			}
			while (c->waiting) {
				redisReply *r = NULL;
				if (redisGetReplyFromReader(c->ctx, (void **) &r) != REDIS_OK) {
					die("protocol", c->ctx->errstr);
				}
				if (r == NULL) {
					break;
				}
				if (c->stale > 0) {
					c->stale--;
				} else {
					c->waiting = 0;
					answered++;
					yes += is_yes(r) ? 1 : 0;
				}
				freeReplyObject(r);
			}
		}
	}
	for (i = 0; i < server_count; i++) {
		if (conns[i].waiting) {
			conns[i].stale++;
			conns[i].waiting = 0;
		}
	}
	return yes;
}

static int one_cycle(const char *prefix, unsigned long counter, unsigned quorum)
{
	unsigned char random_bytes[16];
	char token[33], key[128];
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (getrandom(random_bytes, sizeof(random_bytes), 0) != (ssize_t) sizeof(random_bytes)) {
		die("getrandom", strerror(errno));
	}
	for (i = 0; i < 16; i++) {
		token[2 * i] = hex[random_bytes[i] >> 4];
		token[2 * i + 1] = hex[random_bytes[i] & 15];
	}
	token[32] = '\0';
	snprintf(key, sizeof(key), "%s:%lu", prefix, counter);

	const char *set_argv[] = {"SET", key, token, "NX", "PX", "10000"};
	size_t set_len[] = {3, strlen(key), 32, 2, 2, 5};
	const char *unlock_argv[] = {"EVALSHA", unlock_sha, "1", key, token};
	size_t unlock_len[] = {7, 40, 1, strlen(key), 32};

	if (fan_out(6, set_argv, set_len, quorum) < quorum) {
		return 0;
	}
	return fan_out(5, unlock_argv, unlock_len, quorum) >= quorum;
}

static int ping_cycle(void)
{
	const char *argv[] = {"PING"};
	size_t len[] = {4};
	return fan_out(1, argv, len, 1) == 0; /* PONG is a status but not OK: 0 yes, 1 answer */
}

static double cpu_us(const struct rusage *a, const struct rusage *b)
{
	return (double) (b->ru_utime.tv_sec - a->ru_utime.tv_sec + b->ru_stime.tv_sec - a->ru_stime.tv_sec) * 1e6
		+ (double) (b->ru_utime.tv_usec - a->ru_utime.tv_usec + b->ru_stime.tv_usec - a->ru_stime.tv_usec);
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;
	return x < y ? -1 : x > y;
}

static void load_script(void)
{
	const char *argv[] = {"SCRIPT", "LOAD", UNLOCK_SCRIPT};
	size_t len[] = {6, 4, sizeof(UNLOCK_SCRIPT) - 1};
	size_t i;
	redisContext *ctx = redisConnect(hosts[0], ports[0]);
	redisReply *r;

	if (ctx == NULL || ctx->err) {
		die("connect", ctx ? ctx->errstr : "out of memory");
	}
	for (i = 0; i < server_count; i++) {
		redisFree(ctx);
		ctx = redisConnect(hosts[i], ports[i]);
		if (ctx == NULL || ctx->err) {
			die("connect", ctx ? ctx->errstr : "out of memory");
		}
		r = redisCommandArgv(ctx, 3, argv, len);
		if (r == NULL || r->type != REDIS_REPLY_STRING || r->len != 40) {
			die("SCRIPT LOAD", NULL);
		}
		memcpy(unlock_sha, r->str, 40);
		unlock_sha[40] = '\0';
		freeReplyObject(r);
	}
	redisFree(ctx);
}

int main(int argc, char **argv)
{
	const char *servers = NULL, *mode = "reused";
	double seconds = 0, start, end, *latencies;
	unsigned long max_cycles = 0, cycles = 0, failed = 0, capacity = 1 << 16;
	char prefix[64];
	unsigned quorum;
	int opt;

	while ((opt = getopt(argc, argv, "s:m:T:n:")) != -1) {
		switch (opt) {
			case 's': servers = optarg; break;
			case 'm': mode = optarg; break;
			case 'T': seconds = atof(optarg); break;
			case 'n': max_cycles = strtoul(optarg, NULL, 10); break;
			default: die("usage: floor_probe -s H:P,H:P [-m reused|percycle|ping] [-T S | -n N]", NULL);
		}
	}
	if (servers == NULL || (seconds <= 0 && max_cycles == 0)) {
		die("usage: floor_probe -s H:P,H:P [-m reused|percycle|ping] [-T S | -n N]", NULL);
	}
	if (seconds <= 0 || seconds > 600) {
		seconds = seconds <= 0 ? 600 : 600; /* every run is bounded in time */
	}
	{
		char *list = strdup(servers), *item, *save = NULL;
		for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
			char *colon = strrchr(item, ':');
			if (colon == NULL || server_count == MAX_SERVERS) {
				die("bad server list", servers);
			}
			*colon = '\0';
			hosts[server_count] = item;
			ports[server_count++] = atoi(colon + 1);
		}
	}
	quorum = (unsigned) server_count / 2 + 1;
	snprintf(prefix, sizeof(prefix), "bench:floor:%d", (int) getpid());
	load_script();
	latencies = malloc(capacity * sizeof(double));

	int reuse = strcmp(mode, "percycle") != 0, ping = strcmp(mode, "ping") == 0;
	if (reuse) {
		open_all();
		if (!ping) {
			one_cycle(prefix, 0, quorum); /* warm-up, as the PHP runs do */
		}
	}
	struct rusage usage_before, usage_after;
	getrusage(RUSAGE_SELF, &usage_before);
	start = now_s();
	end = start + seconds;
	for (;;) {
		double t0 = now_s(), t1;
		int ok;

		if (t0 >= end || (max_cycles && cycles >= max_cycles)) {
			break;
		}
		if (!reuse) {
			open_all();
		}
		ok = ping ? ping_cycle() : one_cycle(prefix, cycles + 1, quorum);
		if (!reuse) {
			close_all();
		}
		t1 = now_s();
		if (!ok) {
			failed++;
		}
		if (cycles == capacity) {
			capacity *= 2;
			latencies = realloc(latencies, capacity * sizeof(double));
		}
		latencies[cycles++] = (t1 - t0) * 1e6;
	}
	end = now_s();
	getrusage(RUSAGE_SELF, &usage_after);
	if (reuse) {
		close_all();
	}
	qsort(latencies, cycles, sizeof(double), compare_double);
	printf("cycles=%lu seconds=%.4f p50_us=%.1f p99_us=%.1f failed=%lu cpu_us=%.0f\n", cycles, end - start,
		cycles ? latencies[(cycles - 1) / 2] : 0.0, cycles ? latencies[(size_t) ((cycles - 1) * 0.99)] : 0.0,
		failed, cpu_us(&usage_before, &usage_after));
	free(latencies);
	return 0;
}
