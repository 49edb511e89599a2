/* The simulated kernel and servers of the real-code simulation. See kernel.h and seam.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <ucontext.h>

#include "core/rl_lock.h"
#include "core/rl_scripts.h"
#include "memory/rl_memory_store.h"
#include "kernel.h"
#include "../common/bytes.h"

double k_now;
k_stats k_st;
int k_trace;

/* --- PRNG (xorshift64*) ------------------------------------------------------------------- */
static uint64_t rng_state;

uint64_t k_rand(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

double k_unit(void)
{
	return (double) (k_rand() >> 11) / 9007199254740992.0;
}

static double range(double lo, double hi)
{
	return lo + (hi - lo) * k_unit();
}

/* --- Byte buffers ------------------------------------------------------------------------- */
typedef struct buf {
	char *p;
	size_t len, cap;
} buf;

static void buf_add(buf *b, const char *bytes, size_t len)
{
	b->p = bytes_room(b->p, &b->cap, b->len + len);
	memcpy(b->p + b->len, bytes, len);
	b->len += len;
}

static void buf_drop(buf *b, size_t n)
{
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

/* --- Servers: the test double's store (ext/memory/rl_memory_store.c) on each server's clock --- */
typedef struct server {
	double rate, offset;
	double pause_from, pause_to;
	double crash_at, restart_at; /* down in between: keys and connections lost */
	rl_memory_store *store;      /* answers DELIFEQ (Valkey 9) or not, drawn per server */
} server;

static server servers[K_MAX_SERVERS];
static k_params P;

static int64_t server_ms(void *arg)
{
	const server *s = arg;
	return (int64_t) floor(s->offset + s->rate * k_now);
}

/* --- Connections -------------------------------------------------------------------------- */
#define FD_BASE 1000
#define MAX_SOCKS 4096

enum { S_FREE = 0, S_CONNECTING, S_CONNECTED, S_REFUSED, S_CLOSED, S_RESET };

typedef struct sock {
	int state;
	int server;
	int connect_done;     /* the connect finished (the client may not have looked yet) */
	double delay;         /* base one-way delay */
	double last_c2s, last_s2c;
	buf at_server;        /* arrived at the server, not yet parsed */
	buf at_client;        /* arrived at the client, not yet read */
	int owner;            /* the client that opened it */
	char *sub[4];         /* channels SUBSCRIBEd on it */
	size_t sublen[4];
	int nsub;
} sock;

static sock socks[MAX_SOCKS];
static int nsocks;

static sock *sock_of(int fd)
{
	if (fd < FD_BASE || fd >= FD_BASE + nsocks || socks[fd - FD_BASE].state == S_FREE) {
		return NULL;
	}
	return &socks[fd - FD_BASE];
}

static int current = -1; /* the running client (scheduler below) */

/* --- Events ------------------------------------------------------------------------------- */
enum { EV_CONNECT, EV_TO_SERVER, EV_TO_CLIENT, EV_CRASH };

typedef struct event {
	double at;
	uint64_t seq;
	int kind, fd;
	char *bytes;
	size_t len;
} event;

static event *heap;
static size_t nheap, capheap;
static uint64_t seq;

static int before(const event *a, const event *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void push(double at, int kind, int fd, const char *bytes, size_t len)
{
	size_t i;
	event ev = {at, seq++, kind, fd, NULL, len};

	if (len > 0) {
		ev.bytes = malloc(len);
		memcpy(ev.bytes, bytes, len);
	}
	if (nheap == capheap) {
		capheap = capheap ? capheap * 2 : 256;
		heap = realloc(heap, capheap * sizeof(*heap));
	}
	i = nheap++;
	while (i > 0 && before(&ev, &heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = ev;
}

static event pop(void)
{
	event top = heap[0], last = heap[--nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= nheap) {
			break;
		}
		if (c + 1 < nheap && before(&heap[c + 1], &heap[c])) {
			c++;
		}
		if (!before(&heap[c], &last)) {
			break;
		}
		heap[i] = heap[c];
		i = c;
	}
	if (nheap > 0) {
		heap[i] = last;
	}
	return top;
}

static double one_way(sock *s, double *last)
{
	double at = k_now + s->delay + (k_unit() < P.spike_p ? range(0, P.spike_max) : 0);

	if (at < *last) {
		at = *last; /* one TCP stream: in order */
	}
	*last = at;
	return at;
}

/* --- Pub/sub: SUBSCRIBE connections, the scripts' announcements (RL_LUA_ANNOUNCE) ----------- */
void (*k_observe)(int client, int server, int argc, const char **argv, const size_t *lens, const char *reply,
	size_t reply_len);

static void resp_bulk(buf *b, const char *bytes, size_t len)
{
	char head[32];
	int n = snprintf(head, sizeof(head), "$%zu\r\n", len);

	buf_add(b, head, (size_t) n);
	buf_add(b, bytes, len);
	buf_add(b, "\r\n", 2);
}

/* SUBSCRIBE ch...: each recorded on the connection, each confirmed. */
static void subscribe(sock *c, int argc, const char **argv, const size_t *lens, rl_memory_buf *out)
{
	buf b = {0};
	int i;

	for (i = 1; i < argc; i++) {
		char count[32];
		int n;

		if (c->nsub < 4) {
			c->sub[c->nsub] = malloc(lens[i]);
			memcpy(c->sub[c->nsub], argv[i], lens[i]);
			c->sublen[c->nsub++] = lens[i];
		}
		buf_add(&b, "*3\r\n", 4);
		resp_bulk(&b, "subscribe", 9);
		resp_bulk(&b, argv[i], lens[i]);
		n = snprintf(count, sizeof(count), ":%d\r\n", c->nsub);
		buf_add(&b, count, (size_t) n);
	}
	if (rl_memory_buf_add(out, b.p, b.len) != 0) {
		abort();
	}
	free(b.p);
}

/* The store's PUBLISH: a message to every live connection of that server subscribed to the channel. */
static void publish(void *arg, const char *channel, size_t len)
{
	int index = (int) ((server *) arg - servers), i, j;

	for (i = 0; i < nsocks; i++) {
		sock *c = &socks[i];

		if (c->state != S_CONNECTED || c->server != index) {
			continue;
		}
		for (j = 0; j < c->nsub; j++) {
			if (c->sublen[j] == len && memcmp(c->sub[j], channel, len) == 0) {
				buf b = {0};

				buf_add(&b, "*3\r\n", 4);
				resp_bulk(&b, "message", 7);
				resp_bulk(&b, channel, len);
				resp_bulk(&b, "", 0);
				push(one_way(c, &c->last_s2c), EV_TO_CLIENT, FD_BASE + i, b.p, b.len);
				free(b.p);
			}
		}
	}
}

/* --- RESP on the server side ------------------------------------------------------------- */
static void server_take(int fd)
{
	sock *c = &socks[fd - FD_BASE];
	server *s = &servers[c->server];
	rl_memory_buf out = {0};
	const char *argv[64];
	size_t lens[64];
	int argc;
	long used;

	while ((used = rl_memory_parse_command(c->at_server.p, c->at_server.len, 64, &argc, argv, lens)) > 0) {
		size_t before = out.len;

		k_st.commands++;
		if (argc >= 2 && lens[0] == 9 && strncasecmp(argv[0], "SUBSCRIBE", 9) == 0) {
			subscribe(c, argc, argv, lens, &out);
		} else if (rl_memory_store_execute(s->store, argc, argv, lens, &out) != 0) {
			abort(); /* a script this simulation does not run, or out of memory */
		}
		if (k_observe != NULL) {
			k_observe(c->owner, c->server, argc, argv, lens, out.bytes + before, out.len - before);
		}
		buf_drop(&c->at_server, (size_t) used);
	}
	if (used < 0) {
		abort(); /* the real code wrote something that is not a RESP array */
	}
	if (out.len > 0) {
		push(one_way(c, &c->last_s2c), EV_TO_CLIENT, fd, out.bytes, out.len);
	}
	rl_memory_buf_free(&out);
}

/* --- System calls (seam.h) ---------------------------------------------------------------- */
int sim_socket(int domain, int type, int protocol)
{
	sock *s;

	(void) domain, (void) type, (void) protocol;
	if (nsocks == MAX_SOCKS) {
		errno = EMFILE;
		return -1;
	}
	s = &socks[nsocks];
	memset(s, 0, sizeof(*s));
	s->state = S_CONNECTING;
	s->owner = current;
	return FD_BASE + nsocks++;
}

int sim_connect(int fd, const struct sockaddr *address, socklen_t len)
{
	sock *s = sock_of(fd);
	const struct sockaddr_in *in = (const struct sockaddr_in *) address;
	int port;

	(void) len;
	if (s == NULL || address->sa_family != AF_INET) {
		errno = EBADF;
		return -1;
	}
	port = ntohs(in->sin_port);
	if (port < K_BASE_PORT || port >= K_BASE_PORT + (int) P.servers) {
		errno = ECONNREFUSED;
		return -1;
	}
	s->server = port - K_BASE_PORT;
	s->delay = k_unit() < P.slow_p ? range(P.slow_lo, P.slow_hi) : range(P.fast_lo, P.fast_hi);
	k_st.connects++;
	push(k_now + 2 * s->delay, EV_CONNECT, fd, NULL, 0);
	errno = EINPROGRESS;
	return -1;
}

int sim_fcntl(int fd, int cmd, ...)
{
	(void) fd, (void) cmd;
	return 0;
}

int sim_setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
	(void) fd, (void) level, (void) name, (void) value, (void) len;
	return 0;
}

int sim_getsockopt(int fd, int level, int name, void *value, socklen_t *len)
{
	sock *s = sock_of(fd);

	(void) level, (void) name;
	if (s == NULL) {
		errno = EBADF;
		return -1;
	}
	*(int *) value = s->state == S_REFUSED ? ECONNREFUSED : 0;
	*len = sizeof(int);
	return 0;
}

ssize_t sim_send(int fd, const void *bytes, size_t len, int flags)
{
	sock *s = sock_of(fd);

	(void) flags;
	if (s == NULL || s->state != S_CONNECTED) {
		errno = s == NULL ? EBADF : s->state == S_RESET ? ECONNRESET : ENOTCONN;
		return -1;
	}
	k_st.sends++;
	push(one_way(s, &s->last_c2s), EV_TO_SERVER, fd, bytes, len);
	return (ssize_t) len;
}

ssize_t sim_recv(int fd, void *into, size_t room, int flags)
{
	sock *s = sock_of(fd);
	size_t n;

	(void) flags;
	if (s == NULL) {
		errno = EBADF;
		return -1;
	}
	if (s->at_client.len == 0) {
		errno = s->state == S_RESET ? ECONNRESET : EAGAIN;
		return -1;
	}
	n = s->at_client.len < room ? s->at_client.len : room;
	memcpy(into, s->at_client.p, n);
	buf_drop(&s->at_client, n);
	return (ssize_t) n;
}

int sim_close(int fd)
{
	sock *s = sock_of(fd);

	if (s == NULL) {
		errno = EBADF;
		return -1;
	}
	/* What was sent still reaches the server and runs there; replies find no reader. */
	s->state = S_CLOSED;
	return 0;
}

int sim_clock_gettime(clockid_t clock, struct timespec *ts)
{
	(void) clock;
	ts->tv_sec = (time_t) (k_now / 1000.0);
	ts->tv_nsec = (long) ((k_now - (double) ts->tv_sec * 1000.0) * 1e6);
	return 0;
}

static short ready_events(const struct pollfd *p)
{
	sock *s = sock_of(p->fd);
	short r = 0;

	if (s == NULL) {
		return POLLNVAL;
	}
	if (s->state == S_REFUSED) {
		return (short) ((p->events & (POLLOUT | POLLIN)) | POLLERR);
	}
	if (s->state == S_RESET) {
		return (short) ((p->events & POLLIN) | POLLERR | POLLHUP);
	}
	if (s->state == S_CONNECTED) {
		if (p->events & POLLOUT) {
			r |= POLLOUT;
		}
		if ((p->events & POLLIN) && s->at_client.len > 0) {
			r |= POLLIN;
		}
	}
	return r;
}

static int count_ready(struct pollfd *fds, nfds_t n)
{
	nfds_t i;
	int ready = 0;

	for (i = 0; i < n; i++) {
		fds[i].revents = ready_events(&fds[i]);
		ready += fds[i].revents != 0;
	}
	return ready;
}

/* --- Scheduler ---------------------------------------------------------------------------- */
typedef struct client {
	ucontext_t ctx;
	char *stack;
	int started, done, blocked, killed;
	double wake_at, die_at;
	struct pollfd *fds;
	nfds_t nfds;
} client;

static client clients[K_MAX_CLIENTS];
static ucontext_t main_ctx;
static void (*client_fn)(int);

int sim_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	client *c;
	int ready = count_ready(fds, n);

	k_st.polls++;
	if (ready > 0 || timeout == 0) {
		return ready;
	}
	if (current < 0) {
		abort(); /* poll() outside a client */
	}
	c = &clients[current];
	c->fds = fds;
	c->nfds = n;
	c->wake_at = timeout < 0 ? HUGE_VAL : k_now + timeout;
	c->blocked = 1;
	k_st.switches++;
	swapcontext(&c->ctx, &main_ctx);
	return count_ready(fds, n);
}

void k_sleep(double ms)
{
	client *c = &clients[current];

	c->fds = NULL;
	c->nfds = 0;
	c->wake_at = k_now + ms;
	c->blocked = 1;
	k_st.switches++;
	swapcontext(&c->ctx, &main_ctx);
}

int k_current(void)
{
	return current;
}

int k_faulty(void)
{
	unsigned i;

	for (i = 0; i < P.servers; i++) {
		if (servers[i].pause_to > servers[i].pause_from || servers[i].crash_at >= 0) {
			return 1;
		}
	}
	return 0;
}

void k_die_at(double at)
{
	clients[current].die_at = at;
}

struct rl_memory_store *k_store(int server)
{
	return servers[server].store;
}

int k_killed(int i)
{
	return clients[i].killed;
}

#if defined(__SANITIZE_ADDRESS__)
#define K_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define K_ASAN 1
#endif
#endif
#ifdef K_ASAN
/* A killed client's stack, kept: what it allocated stays reachable (no leak report for a SIGKILL). */
static char **graveyard;
static size_t ngraves;
#endif

/* SIGKILL: never resumed, its connections closed (sent bytes still arrive and run). */
static void kill_client(int i)
{
	int j;

	clients[i].done = clients[i].killed = 1;
	for (j = 0; j < nsocks; j++) {
		if (socks[j].owner == i && (socks[j].state == S_CONNECTED || socks[j].state == S_CONNECTING)) {
			socks[j].state = S_CLOSED;
		}
	}
#ifdef K_ASAN
	graveyard = realloc(graveyard, (ngraves + 1) * sizeof(*graveyard));
	graveyard[ngraves++] = clients[i].stack;
	clients[i].stack = NULL;
#endif
}

static void trampoline(int i)
{
	client_fn(i);
	clients[i].done = 1;
	current = -1;
	swapcontext(&clients[i].ctx, &main_ctx);
}

static void resume(int i)
{
	current = i;
	clients[i].blocked = 0;
	swapcontext(&main_ctx, &clients[i].ctx);
	current = -1;
}

static int down(const server *sv)
{
	return k_now >= sv->crash_at && k_now < sv->restart_at;
}

static void crash(int index)
{
	server *sv = &servers[index];
	int i;

	k_st.crashes++;
	/* The lock keys are gone (Redlock's model: no persistence, a delayed restart instead). The
	 * fence counters, which never expire, survive: fencing asks for appendfsync always
	 * (docs/design/primitives.md), and a counter that restarted at 0 would hand out old fences again. */
	rl_memory_store_restart(sv->store);
	for (i = 0; i < nsocks; i++) {
		if (socks[i].server == index && (socks[i].state == S_CONNECTED || socks[i].state == S_CONNECTING)) {
			socks[i].state = socks[i].state == S_CONNECTED ? S_RESET : S_REFUSED;
		}
	}
}

static void apply(event *ev)
{
	sock *s = ev->kind == EV_CRASH ? NULL : &socks[ev->fd - FD_BASE];
	server *sv = s != NULL ? &servers[s->server] : NULL;

	k_st.events++;
	switch (ev->kind) {
	case EV_CRASH:
		crash(ev->fd);
		break;
	case EV_CONNECT:
		if (s->state == S_CONNECTING) {
			s->state = down(sv) ? S_REFUSED : S_CONNECTED;
		}
		break;
	case EV_TO_SERVER:
		if (s->state == S_RESET || down(sv)) {
			break; /* lost with the crash */
		}
		if (k_now >= sv->pause_from && k_now < sv->pause_to) {
			push(sv->pause_to, EV_TO_SERVER, ev->fd, ev->bytes, ev->len); /* a paused server: later */
			break;
		}
		buf_add(&s->at_server, ev->bytes, ev->len);
		server_take(ev->fd);
		break;
	case EV_TO_CLIENT:
		if (s->state == S_CLOSED || s->state == S_RESET) {
			k_st.replies_dropped++;
		} else {
			buf_add(&s->at_client, ev->bytes, ev->len);
		}
		break;
	}
	free(ev->bytes);
}

void k_init(uint64_t seed, const k_params *p)
{
	unsigned i;

	k_free();
	P = *p;
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
	if (rng_state == 0) {
		rng_state = 1;
	}
	k_now = 1000.0;
	memset(&k_st, 0, sizeof(k_st));
	for (i = 0; i < P.servers; i++) {
		server *s = &servers[i];
		memset(s, 0, sizeof(*s));
		s->rate = range(1 - P.drift, 1 + P.drift);
		s->offset = range(0, 1e6);
		if ((s->store = rl_memory_store_create(server_ms, s)) == NULL) {
			abort();
		}
		rl_memory_store_set_delifeq(s->store, (int) (k_rand() & 1));
		rl_memory_store_set_publish(s->store, publish, s);
		s->pause_from = s->pause_to = -1;
		if (k_unit() < P.pause_p) {
			s->pause_from = range(1000, 4000);
			s->pause_to = s->pause_from + range(0, P.pause_max);
		}
		s->crash_at = s->restart_at = -1;
		if (k_unit() < P.crash_p) {
			s->crash_at = range(1000, 5000);
			s->restart_at = s->crash_at + P.restart_after;
			push(s->crash_at, EV_CRASH, (int) i, NULL, 0);
		}
	}
}

int k_run(void (*fn)(int), double limit_ms)
{
	unsigned i;
	int live;

	client_fn = fn;
	for (i = 0; i < P.clients; i++) {
		client *c = &clients[i];
		memset(c, 0, sizeof(*c));
		c->die_at = HUGE_VAL;
		c->stack = malloc(256 * 1024);
		getcontext(&c->ctx);
		c->ctx.uc_stack.ss_sp = c->stack;
		c->ctx.uc_stack.ss_size = 256 * 1024;
		c->ctx.uc_link = NULL;
		makecontext(&c->ctx, (void (*)(void)) trampoline, 1, (int) i);
		resume((int) i); /* runs until its first poll or sleep */
	}
	for (;;) {
		double next = HUGE_VAL;
		int woke = 0;

		live = 0;
		for (i = 0; i < P.clients; i++) {
			client *c = &clients[i];
			if (c->done) {
				continue;
			}
			if (c->blocked && k_now >= c->die_at) {
				kill_client((int) i);
				continue;
			}
			live++;
			if (c->blocked && (k_now >= c->wake_at || (c->nfds > 0 && count_ready(c->fds, c->nfds) > 0))) {
				resume((int) i);
				woke = 1;
			}
		}
		if (live == 0) {
			return 0;
		}
		if (woke) {
			continue;
		}
		for (i = 0; i < P.clients; i++) {
			if (!clients[i].done && clients[i].wake_at < next) {
				next = clients[i].wake_at;
			}
			if (!clients[i].done && clients[i].die_at < next) {
				next = clients[i].die_at;
			}
		}
		if (nheap > 0 && heap[0].at <= next) {
			event ev = pop();
			if (ev.at > k_now) {
				k_now = ev.at;
			}
			apply(&ev);
		} else if (next < HUGE_VAL) {
			k_now = next;
		} else {
			abort(); /* every client waits forever: a deadlock in the real code */
		}
		if (k_now > limit_ms) {
			return -1;
		}
	}
}

void k_free(void)
{
	int i;

	for (i = 0; i < nsocks; i++) {
		int j;

		free(socks[i].at_server.p);
		free(socks[i].at_client.p);
		for (j = 0; j < socks[i].nsub; j++) {
			free(socks[i].sub[j]);
		}
	}
	nsocks = 0;
	while (nheap > 0) {
		event ev = pop();
		free(ev.bytes);
	}
	for (i = 0; i < K_MAX_CLIENTS; i++) {
		free(clients[i].stack);
		clients[i].stack = NULL;
	}
	for (i = 0; i < K_MAX_SERVERS; i++) {
		rl_memory_store_destroy(servers[i].store);
		servers[i].store = NULL;
	}
}
