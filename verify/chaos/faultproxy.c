/* faultproxy, part 1 of 2: listen ports, connections and forwarding (delays, holds, stalls, resets,
 * pacing, lingering after the client left) and the poll loop. Usage and the control protocol are
 * described in faultproxy.h; the protocol itself is in faultproxy_ctl.c. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "faultproxy.h"

lport ports[MAX_PORTS];
int nports;
conn conns[MAX_CONNS];
static ctl ctls[MAX_CTL];
static int ctl_fd = -1;
static volatile sig_atomic_t stop_requested;

uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000u + (uint64_t) ts.tv_nsec / 1000000u;
}

static void on_signal(int sig) { (void) sig; stop_requested = 1; }

void set_nb(int fd)
{
	int one = 1;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int listen_on(int port)
{
	struct sockaddr_in a = {0};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t) port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *) &a, sizeof(a)) < 0 || listen(fd, 128) < 0) {
		fprintf(stderr, "faultproxy: cannot listen on 127.0.0.1:%d: %s\n", port, strerror(errno));
		exit(1);
	}
	set_nb(fd);
	return fd;
}

void rules_plain(rules *r)
{
	memset(r, 0, sizeof(*r));
	r->stall[0] = r->stall[1] = r->rst[0] = r->rst[1] = -1;
}

/* Closing with SO_LINGER 0 sends RST instead of FIN. */
static void close_rst(int fd)
{
	struct linger l = {1, 0};
	if (fd < 0) {
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

void dir_free(dir *d)
{
	while (d->head) {
		chunk *c = d->head;
		d->head = c->next;
		free(c);
	}
	d->tail = NULL;
	d->queued = 0;
}

void conn_close(conn *c, int reset)
{
	if (reset) {
		close_rst(c->cfd);
		close_rst(c->ufd);
		ports[c->port].resets++;
	} else {
		if (c->cfd >= 0) close(c->cfd);
		if (c->ufd >= 0) close(c->ufd);
	}
	dir_free(&c->d[0]);
	dir_free(&c->d[1]);
	c->used = 0;
}

static int upstream_connect(int port)
{
	struct sockaddr_in a = {0};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		return -1;
	}
	set_nb(fd);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t) port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *) &a, sizeof(a)) < 0 && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static void on_accept(int pi)
{
	lport *p = &ports[pi];
	int fd = accept(p->fd, NULL, NULL), i, slot = -1;
	rules r = p->dflt;
	unsigned id;
	conn *c;

	if (fd < 0) {
		return;
	}
	id = ++p->next_id;
	p->acc++;
	for (i = 0; i < p->nbyid; i++) {
		if (p->byid[i].id == id) {
			r = p->byid[i].r;
			p->byid[i] = p->byid[--p->nbyid];
			i = -1;
			break;
		}
	}
	if (i != -1 && p->pend_n > 0) {
		r = p->pend;
		p->pend_n--;
	}
	for (i = 0; i < MAX_CONNS && slot < 0; i++) {
		slot = conns[i].used ? -1 : i;
	}
	if (r.mode == M_REFUSE || r.mode == M_RST || slot < 0) {
		p->refused += r.mode == M_REFUSE || slot < 0;
		p->resets += r.mode == M_RST;
		close_rst(fd);
		return;
	}
	set_nb(fd);
	c = &conns[slot];
	memset(c, 0, sizeof(*c));
	c->used = 1;
	c->port = pi;
	c->id = id;
	c->cfd = fd;
	c->ufd = -1;
	c->r = r;
	c->hold_until = r.hold > 0 ? now_ms() + (uint64_t) r.hold : 0;
	if (r.mode == M_NORMAL) {
		c->ufd = upstream_connect(p->up);
		if (c->ufd < 0) {
			conn_close(c, 1);   /* upstream down: the client sees a reset, like a refused connect */
			p->resets--, p->down++;
			return;
		}
		c->connecting = 1;
	}
}

static int dir_src(conn *c, int k) { return k == 0 ? c->cfd : c->ufd; }
static int dir_dst(conn *c, int k) { return k == 0 ? c->ufd : c->cfd; }

/* Whether direction k is currently dropping what it reads. */
static int dropping(conn *c, int k)
{
	if (c->r.mode == M_BLACKHOLE) {
		return 1;
	}
	if (k == 1 && c->client_gone) {
		return 1;
	}
	return c->r.stall[k] >= 0 && c->d[k].forwarded + c->d[k].queued >= (uint64_t) c->r.stall[k];
}

static void on_readable(conn *c, int k, uint64_t now)
{
	char buf[65536];
	dir *d = &c->d[k];
	ssize_t n = read(dir_src(c, k), buf, sizeof(buf));
	size_t off, len;
	chunk *ch;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		d->eof = 1;
		if (k == 0) {
			/* The client is gone: what it sent still goes to the server, then upstream is shut. */
			c->client_gone = 1;
			c->linger_until = now + LINGER_MS;
			dir_free(&c->d[1]);
			if (c->r.mode != M_NORMAL || c->ufd < 0) {
				conn_close(c, 0);
			}
		}
		return;
	}
	if (n < 0) {
		return;
	}
	if (dropping(c, k)) {
		ports[c->port].dropped += (unsigned long long) n;
		return;
	}
	for (off = 0; off < (size_t) n; off += len) {
		len = (size_t) n - off;
		if (c->r.pace[k] > 0 && c->r.piece > 0 && len > (size_t) c->r.piece) {
			len = (size_t) c->r.piece;
		}
		if (c->r.pace[k] > 0 && c->r.lines) {
			char *nl = memchr(buf + off, '\n', len);
			len = nl ? (size_t) (nl - (buf + off)) + 1 : len;
		}
		ch = malloc(sizeof(*ch) + len);
		if (!ch) {
			conn_close(c, 1);
			return;
		}
		memcpy(ch->data, buf + off, len);
		ch->len = len;
		ch->off = 0;
		ch->next = NULL;
		ch->due = now + (uint64_t) c->r.delay[k];
		/* Order within the connection is kept (a later rule may shorten the delay); pacing
		 * spaces the pieces so that replies trickle in one by one. */
		if (d->tail && d->tail->due + (uint64_t) c->r.pace[k] > ch->due) {
			ch->due = d->tail->due + (uint64_t) c->r.pace[k];
		}
		if (d->tail) d->tail->next = ch; else d->head = ch;
		d->tail = ch;
		d->queued += len;
	}
}

static void release_holds(int pi, unsigned later_than)
{
	int i;
	for (i = 0; i < MAX_CONNS; i++) {
		if (conns[i].used && conns[i].port == pi && conns[i].id < later_than) {
			conns[i].hold_until = 0;
		}
	}
}

/* Writes what is due in direction k; returns 0 if the connection was closed. */
static int flush_dir(conn *c, int k, uint64_t now)
{
	dir *d = &c->d[k];
	int fd = dir_dst(c, k);
	long lim_rst = c->r.rst[k], lim_stall = c->r.stall[k];

	if (fd < 0 || (k == 0 && (c->connecting || (c->hold_until && now < c->hold_until)))) {
		return 1;
	}
	while (d->head && d->head->due <= now) {
		chunk *ch = d->head;
		size_t want = ch->len - ch->off;
		ssize_t w;
		if (lim_rst >= 0 && d->forwarded + want > (uint64_t) lim_rst) {
			want = (size_t) ((uint64_t) lim_rst - d->forwarded);
		}
		if (lim_stall >= 0 && d->forwarded + want > (uint64_t) lim_stall) {
			want = (size_t) ((uint64_t) lim_stall - d->forwarded);
		}
		w = want ? write(fd, ch->data + ch->off, want) : 0;
		if (w < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				return 1;
			}
			if (k == 1) {           /* the client went away: drop its replies, keep delivering to the server */
				c->client_gone = 1;
				c->linger_until = now + LINGER_MS;
				dir_free(d);
				return 1;
			}
			conn_close(c, 1);
			return 0;
		}
		d->forwarded += (uint64_t) w;
		ports[c->port].bytes[k] += (unsigned long long) w;
		if (k == 0 && w > 0) {
			release_holds(c->port, c->id);
		}
		if (lim_rst >= 0 && d->forwarded >= (uint64_t) lim_rst) {
			conn_close(c, 1);
			return 0;
		}
		if ((size_t) w < want) {
			ch->off += (size_t) w;
			return 1;
		}
		if (lim_stall >= 0 && d->forwarded >= (uint64_t) lim_stall) {
			ports[c->port].dropped += d->queued - (uint64_t) w;
			dir_free(d);
			return 1;
		}
		ch->off += (size_t) w;
		d->queued -= ch->off;
		d->head = ch->next;
		if (!d->head) d->tail = NULL;
		free(ch);
	}
	if (!d->head && d->eof && !d->shut) {
		d->shut = 1;
		shutdown(fd, SHUT_WR);
	}
	return 1;
}

/* Applies the keys of "key=value ..." on top of r. Returns 0 and a reason on a bad key. */
int main(int argc, char **argv)
{
	int opt, i, ctl_port = 0;
	long max_seconds = 600;
	uint64_t end;
	struct pollfd pfd[MAX_PORTS + 1 + MAX_CTL + 5 * MAX_CONNS];
	struct { int kind, idx, k; } who[MAX_PORTS + 1 + MAX_CTL + 5 * MAX_CONNS];

	while ((opt = getopt(argc, argv, "c:t:")) != -1) {
		if (opt == 'c') ctl_port = atoi(optarg);
		else if (opt == 't') max_seconds = atol(optarg);
		else break;
	}
	if (ctl_port <= 0 || optind >= argc) {
		fprintf(stderr, "usage: faultproxy -c CONTROL_PORT [-t MAX_SECONDS] LISTEN:UPSTREAM ...\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (; optind < argc && nports < MAX_PORTS; optind++) {
		lport *p = &ports[nports];
		if (sscanf(argv[optind], "%d:%d", &p->port, &p->up) != 2) {
			fprintf(stderr, "faultproxy: bad mapping %s\n", argv[optind]);
			return 2;
		}
		p->fd = listen_on(p->port);
		rules_plain(&p->dflt);
		nports++;
	}
	ctl_fd = listen_on(ctl_port);
	for (i = 0; i < MAX_CTL; i++) ctls[i].fd = -1;
	printf("ready\n");
	fflush(stdout);
	end = now_ms() + (uint64_t) max_seconds * 1000u;

	while (!stop_requested) {
		uint64_t now = now_ms(), wake = now + 100;
		int n = 0, j, timeout;
		if (now >= end) break;
		for (i = 0; i < nports; i++) {
			pfd[n] = (struct pollfd) {ports[i].fd, POLLIN, 0};
			who[n++].kind = 0, who[n - 1].idx = i;
		}
		pfd[n] = (struct pollfd) {ctl_fd, POLLIN, 0};
		who[n++].kind = 1;
		for (i = 0; i < MAX_CTL; i++) {
			if (ctls[i].fd >= 0) {
				pfd[n] = (struct pollfd) {ctls[i].fd, POLLIN, 0};
				who[n].kind = 2, who[n++].idx = i;
			}
		}
		for (i = 0; i < MAX_CONNS; i++) {
			conn *c = &conns[i];
			int k;
			if (!c->used) continue;
			if (c->client_gone && (now >= c->linger_until || (c->d[0].shut && c->d[1].eof) || c->ufd < 0)) {
				conn_close(c, 0);
				continue;
			}
			for (k = 0; k < 2; k++) {
				int fd = dir_src(c, k), dst = dir_dst(c, k);
				short ev = 0;
				/* pieces cost a header each: pacing queues less */
				if (fd >= 0 && !c->d[k].eof && c->r.mode != M_NOREAD
					&& c->d[k].queued < (c->r.pace[k] && (c->r.piece || c->r.lines) ? QUEUE_CAP / 64 : QUEUE_CAP)
					&& !(k == 1 && c->connecting)) ev |= POLLIN;
				if (k == 0 && c->connecting) {
					pfd[n] = (struct pollfd) {c->ufd, POLLOUT, 0};
					who[n].kind = 5, who[n++].idx = i;
				} else if (c->d[k].head) {
					uint64_t due = c->d[k].head->due;
					if (k == 0 && c->hold_until > due) due = c->hold_until;
					if (due <= now && dst >= 0) {
						/* due now: wait for room in the destination, polled on its own entry */
						pfd[n] = (struct pollfd) {dst, POLLOUT, 0};
						who[n].kind = 4, who[n].idx = i, who[n++].k = k;
					} else if (due < wake) wake = due;
				}
				if (ev && fd >= 0) {
					pfd[n] = (struct pollfd) {fd, ev, 0};
					who[n].kind = 3, who[n].idx = i, who[n++].k = k;
				}
			}
		}
		timeout = (int) (wake > now ? wake - now : 0);
		if (poll(pfd, (nfds_t) n, timeout) < 0 && errno != EINTR) {
			perror("poll");
			return 1;
		}
		now = now_ms();
		for (j = 0; j < n; j++) {
			short re = pfd[j].revents;
			if (!re) continue;
			if (who[j].kind == 0) {
				on_accept(who[j].idx);
			} else if (who[j].kind == 1) {
				int fd = accept(ctl_fd, NULL, NULL);
				for (i = 0; fd >= 0 && i < MAX_CTL && ctls[i].fd >= 0; i++) {}
				if (fd >= 0 && i == MAX_CTL) close(fd);
				else if (fd >= 0) { set_nb(fd); ctls[i].fd = fd; ctls[i].len = 0; }
			} else if (who[j].kind == 2) {
				if (ctls[who[j].idx].fd >= 0) on_ctl_readable(&ctls[who[j].idx], now);
			} else if (who[j].kind == 5 && conns[who[j].idx].used && conns[who[j].idx].connecting) {
				conn *c = &conns[who[j].idx];
				int err = 0;
				socklen_t el = sizeof(err);
				getsockopt(c->ufd, SOL_SOCKET, SO_ERROR, &err, &el);
				if (err) {   /* upstream down: the client sees a reset, counted apart */
					conn_close(c, 1);
					ports[c->port].resets--, ports[c->port].down++;
				}
				else c->connecting = 0;
			} else if (who[j].kind == 3 && conns[who[j].idx].used) {
				if (re & (POLLIN | POLLHUP | POLLERR)) on_readable(&conns[who[j].idx], who[j].k, now);
			}
		}
		/* Deliver whatever is due (also covers the POLLOUT entries). */
		for (i = 0; i < MAX_CONNS; i++) {
			if (conns[i].used && flush_dir(&conns[i], 0, now) && conns[i].used) flush_dir(&conns[i], 1, now);
		}
	}
	for (i = 0; i < MAX_CONNS; i++) {
		if (conns[i].used) conn_close(&conns[i], 0);
	}
	return 0;
}
