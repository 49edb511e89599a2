/* A TCP proxy that adds a fixed one-way delay in each direction, standing in for netem on a
 * machine without it. Single-threaded, epoll, several port mappings in one process:
 *
 *   delay_proxy -d DELAY_US [-H 0|1] [-t MAX_SECONDS] LISTEN:UPSTREAM [LISTEN:UPSTREAM ...]
 *
 * forwards 127.0.0.1:LISTEN -> 127.0.0.1:UPSTREAM. Every chunk read from one side is written to
 * the other DELAY_US later (order kept), so a request/reply costs 2 x DELAY_US more.
 *
 * -H 1 (default) also emulates the TCP handshake's round trip, which a user-space proxy cannot
 * delay (the kernel completes it at once): the first chunk a client sends is not delivered
 * before connect time + 3 x DELAY_US, when it would arrive had connect() taken one RTT.
 * -t bounds the proxy's life (default 3600 s); SIGTERM/SIGINT end it at once. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_MAPPINGS 32
#define READ_CHUNK 65536

struct pair;

typedef struct side {
	int fd;
	struct side *peer;
	struct pair *pair;
	char *out;          /* due bytes the socket would not take yet */
	size_t out_len;
	int eof_pending;    /* peer closed: shut down our write side once out drains */
	int read_closed;
	uint64_t last_due;  /* the due time of the last chunk read here: a later one is never due before it */
} side;

typedef struct pair {
	side client, upstream;
	uint64_t connected_ns;
	int client_sent;    /* the client's first chunk has been queued */
	int dead;
	unsigned queued;    /* chunks still referring to this pair */
	struct pair *next_dead;
} pair;

typedef struct chunk {
	struct chunk *next;
	side *dst;
	uint64_t due_ns;
	size_t len;         /* 0 = end of stream */
	char data[];
} chunk;

typedef struct listener {
	int fd;
	int upstream_port;
} listener;

/* epoll data tags: listeners are small integers, sides are pointers. */
static listener listeners[MAX_MAPPINGS];
static size_t listener_count;
static chunk *queue_head, *queue_tail;
static uint64_t delay_ns;
static int emulate_handshake = 1;
static int epfd;
static volatile sig_atomic_t stop_requested;
/* How late the kernel wakes us (EWMA, ns). Timer wake-ups in a VM run 50-200 us late, which
 * would add that much to every hop; waking this much early keeps the mean delay on target. */
static uint64_t wake_lateness_ns;
static pair *graveyard; /* closed pairs, freed once no queued chunk or pending event refers to them */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void on_signal(int sig)
{
	(void) sig;
	stop_requested = 1;
}

static void set_nonblocking_nodelay(int fd)
{
	int one = 1;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* The kernel's receive time, not the time we woke up to read: our own wake-up latency
	 * (50-100 us in a VM) would otherwise add to every hop. */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
}

/* Reads like read(2); *arrived_ns is when the kernel received the data (monotonic clock), or
 * the current time when the kernel gives no timestamp. */
static ssize_t read_stamped(int fd, char *buf, size_t len, uint64_t *arrived_ns)
{
	char control[CMSG_SPACE(sizeof(struct timespec))];
	struct iovec iov = {buf, len};
	struct msghdr msg = {0};
	struct cmsghdr *cmsg;
	ssize_t n;

	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control;
	msg.msg_controllen = sizeof(control);
	n = recvmsg(fd, &msg, 0);
	*arrived_ns = now_ns();
	for (cmsg = CMSG_FIRSTHDR(&msg); n > 0 && cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec stamp, real;
			uint64_t stamp_ns, real_ns;

			memcpy(&stamp, CMSG_DATA(cmsg), sizeof(stamp));
			clock_gettime(CLOCK_REALTIME, &real);
			stamp_ns = (uint64_t) stamp.tv_sec * 1000000000u + (uint64_t) stamp.tv_nsec;
			real_ns = (uint64_t) real.tv_sec * 1000000000u + (uint64_t) real.tv_nsec;
			/* The stamp is wall-clock: take its age and apply it to the monotonic clock. */
			if (real_ns >= stamp_ns && real_ns - stamp_ns < 1000000000u) {
				*arrived_ns -= real_ns - stamp_ns;
			}
		}
	}
	return n;
}

static void watch(side *s)
{
	struct epoll_event ev = {0};
	ev.events = (s->read_closed ? 0 : EPOLLIN) | (s->out_len ? EPOLLOUT : 0);
	ev.data.ptr = s;
	epoll_ctl(epfd, EPOLL_CTL_MOD, s->fd, &ev);
}

static void pair_kill(pair *p)
{
	if (p->dead) {
		return;
	}
	p->dead = 1;
	close(p->client.fd);
	close(p->upstream.fd);
	free(p->client.out);
	free(p->upstream.out);
	p->client.out = p->upstream.out = NULL;
	p->client.out_len = p->upstream.out_len = 0;
	p->next_dead = graveyard;
	graveyard = p;
}

/* Called between epoll batches only, so no event in hand can point at a freed pair. */
static void sweep_graveyard(void)
{
	pair **link = &graveyard;

	while (*link) {
		pair *p = *link;
		if (p->queued == 0) {
			*link = p->next_dead;
			free(p);
		} else {
			link = &p->next_dead;
		}
	}
}

/* Both directions finished and nothing left to deliver: close. */
static void pair_maybe_finish(pair *p)
{
	if (p->client.read_closed && p->upstream.read_closed && p->queued == 0
		&& p->client.out_len == 0 && p->upstream.out_len == 0) {
		pair_kill(p);
	}
}

/* Kept sorted by due time; nearly every insert lands at the tail. */
static void enqueue(chunk *c)
{
	chunk **link;

	c->next = NULL;
	if (queue_tail == NULL || queue_tail->due_ns <= c->due_ns) {
		if (queue_tail) {
			queue_tail->next = c;
		} else {
			queue_head = c;
		}
		queue_tail = c;
		return;
	}
	for (link = &queue_head; *link && (*link)->due_ns <= c->due_ns; link = &(*link)->next) {
	}
	c->next = *link;
	*link = c;
}

static void flush_side(side *s)
{
	while (s->out_len > 0) {
		ssize_t n = write(s->fd, s->out, s->out_len);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				break;
			}
			pair_kill(s->pair);
			return;
		}
		memmove(s->out, s->out + n, s->out_len - (size_t) n);
		s->out_len -= (size_t) n;
	}
	if (s->out_len == 0 && s->eof_pending) {
		shutdown(s->fd, SHUT_WR);
		s->eof_pending = 0;
	}
	watch(s);
}

static void deliver(chunk *c)
{
	side *s = c->dst;

	if (c->len == 0) {
		s->eof_pending = 1;
	} else {
		char *grown = realloc(s->out, s->out_len + c->len);
		if (grown == NULL) {
			pair_kill(s->pair);
			return;
		}
		s->out = grown;
		memcpy(s->out + s->out_len, c->data, c->len);
		s->out_len += c->len;
	}
	flush_side(s);
}

static void run_due(uint64_t now)
{
	while (queue_head && queue_head->due_ns <= now) {
		chunk *c = queue_head;
		pair *p = c->dst->pair;

		queue_head = c->next;
		if (queue_head == NULL) {
			queue_tail = NULL;
		}
		p->queued--;
		if (!p->dead) {
			deliver(c);
			if (!p->dead) {
				pair_maybe_finish(p);
			}
		}
		free(c);
	}
}

static void on_readable(side *s)
{
	pair *p = s->pair;

	for (;;) {
		chunk *c = malloc(sizeof(chunk) + READ_CHUNK);
		ssize_t n;
		uint64_t now;

		if (c == NULL) {
			pair_kill(p);
			return;
		}
		n = read_stamped(s->fd, c->data, READ_CHUNK, &now);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			free(c);
			return;
		}
		if (n < 0) {
			free(c);
			pair_kill(p);
			return;
		}
		c->dst = s->peer;
		c->len = (size_t) n;
		c->due_ns = now + delay_ns;
		if (s == &p->client && !p->client_sent) {
			uint64_t after_handshake = p->connected_ns + 3 * delay_ns;
			p->client_sent = 1;
			if (emulate_handshake && after_handshake > c->due_ns) {
				c->due_ns = after_handshake;
			}
		}
		/* Kernel stamps are per read: a write split over two reads can stamp the second earlier than
		 * the first was queued. The stream's order is kept (a split EVAL arrived reordered, and the
		 * server answered "Protocol error"). */
		if (c->due_ns < s->last_due) {
			c->due_ns = s->last_due;
		}
		s->last_due = c->due_ns;
		p->queued++;
		enqueue(c);
		if (n == 0) {
			s->read_closed = 1;
			watch(s);
			return;
		}
		if (n < READ_CHUNK) {
			return;
		}
	}
}

static void on_accept(listener *l)
{
	for (;;) {
		struct sockaddr_in addr = {0};
		struct epoll_event ev = {0};
		int cfd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC), ufd;
		pair *p;

		if (cfd < 0) {
			return;
		}
		ufd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		addr.sin_family = AF_INET;
		addr.sin_port = htons((uint16_t) l->upstream_port);
		addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (ufd < 0 || connect(ufd, (struct sockaddr *) &addr, sizeof(addr)) != 0) {
			if (ufd >= 0) {
				close(ufd);
			}
			close(cfd);
			continue;
		}
		set_nonblocking_nodelay(cfd);
		set_nonblocking_nodelay(ufd);
		p = calloc(1, sizeof(*p));
		if (p == NULL) {
			close(cfd);
			close(ufd);
			continue;
		}
		p->connected_ns = now_ns();
		p->client.fd = cfd;
		p->upstream.fd = ufd;
		p->client.peer = &p->upstream;
		p->upstream.peer = &p->client;
		p->client.pair = p->upstream.pair = p;
		ev.events = EPOLLIN;
		ev.data.ptr = &p->client;
		epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &ev);
		ev.data.ptr = &p->upstream;
		epoll_ctl(epfd, EPOLL_CTL_ADD, ufd, &ev);
	}
}

static int listen_on(int port)
{
	struct sockaddr_in addr = {0};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		die("socket");
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t) port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *) &addr, sizeof(addr)) != 0) {
		die("bind");
	}
	if (listen(fd, 512) != 0) {
		die("listen");
	}
	return fd;
}

static void usage(void)
{
	fprintf(stderr, "usage: delay_proxy -d DELAY_US [-H 0|1] [-t MAX_SECONDS] LISTEN:UPSTREAM ...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long delay_us = -1, max_seconds = 3600;
	uint64_t end_ns;
	int opt;
	size_t i;

	while ((opt = getopt(argc, argv, "d:H:t:")) != -1) {
		switch (opt) {
			case 'd': delay_us = strtol(optarg, NULL, 10); break;
			case 'H': emulate_handshake = atoi(optarg) != 0; break;
			case 't': max_seconds = strtol(optarg, NULL, 10); break;
			default: usage();
		}
	}
	if (delay_us < 0 || optind >= argc || max_seconds <= 0) {
		usage();
	}
	delay_ns = (uint64_t) delay_us * 1000u;
	prctl(PR_SET_TIMERSLACK, 1UL); /* wake on time: the default 50 us slack is 10% of 0.5 ms */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	if ((epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		die("epoll_create1");
	}
	for (; optind < argc; optind++) {
		int listen_port, upstream_port;
		struct epoll_event ev = {0};

		if (listener_count == MAX_MAPPINGS || sscanf(argv[optind], "%d:%d", &listen_port, &upstream_port) != 2) {
			usage();
		}
		listeners[listener_count].fd = listen_on(listen_port);
		listeners[listener_count].upstream_port = upstream_port;
		ev.events = EPOLLIN;
		ev.data.u64 = listener_count; /* below any heap pointer */
		epoll_ctl(epfd, EPOLL_CTL_ADD, listeners[listener_count].fd, &ev);
		listener_count++;
	}

	end_ns = now_ns() + (uint64_t) max_seconds * 1000000000u;
	while (!stop_requested) {
		struct epoll_event events[64];
		struct timespec timeout, *timeout_ptr = NULL;
		uint64_t now = now_ns();
		uint64_t wake = end_ns;
		int n, k;

		if (now >= end_ns) {
			break;
		}
		int timed = 0;

		if (queue_head && queue_head->due_ns - wake_lateness_ns < wake) {
			wake = queue_head->due_ns - wake_lateness_ns;
			timed = 1;
		}
		uint64_t intended = wake;
		wake = wake > now ? wake - now : 0;
		timeout.tv_sec = (time_t) (wake / 1000000000u);
		timeout.tv_nsec = (long) (wake % 1000000000u);
		timeout_ptr = &timeout;
		n = epoll_pwait2(epfd, events, 64, timeout_ptr, NULL);
		if (n < 0 && errno != EINTR) {
			die("epoll_pwait2");
		}
		if (n == 0 && timed && wake > 0) {
			uint64_t woke = now_ns();
			int64_t late = woke > intended ? (int64_t) (woke - intended) : 0;
			int64_t ewma = (int64_t) wake_lateness_ns;
			ewma += (late - ewma) / 16;
			wake_lateness_ns = ewma < 0 ? 0 : (uint64_t) ewma > delay_ns / 2 ? delay_ns / 2 : (uint64_t) ewma;
		}
		for (k = 0; k < n; k++) {
			if (events[k].data.u64 < MAX_MAPPINGS) {
				on_accept(&listeners[events[k].data.u64]);
				continue;
			}
			side *s = events[k].data.ptr;
			if (s->pair->dead) {
				continue;
			}
			if (events[k].events & EPOLLOUT) {
				flush_side(s);
			}
			if (!s->pair->dead && (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !s->read_closed) {
				on_readable(s);
			}
		}
		run_due(now_ns() + wake_lateness_ns);
		sweep_graveyard();
	}
	for (i = 0; i < listener_count; i++) {
		close(listeners[i].fd);
	}
	return 0;
}
