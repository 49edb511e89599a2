/* faultproxy: a TCP proxy on 127.0.0.1 that injects network faults per connection, driven at run
 * time through a control port. Used by tests/5xx (through tests/faultproxy.inc) and chaos/netchaos.php.
 *
 *   faultproxy -c CONTROL_PORT [-t MAX_SECONDS] LISTEN:UPSTREAM [LISTEN:UPSTREAM ...]
 *
 * Every listen port forwards to 127.0.0.1:UPSTREAM. Prints "ready" on stdout once all ports listen.
 * Lives at most MAX_SECONDS (default 600) and ends when its parent dies or on SIGTERM/SIGINT.
 * Connections are numbered per listen port from 1, in accept order.
 *
 * Control protocol: one command per line, one reply line per command ("OK ..." or "ERR reason").
 *   SET <lport> <sel> key=value ...   set rules; replies "OK <connections touched>"
 *      sel: N       connection number N (now if open, else when it is accepted)
 *           next    the next accepted connection;  next:K  the next K accepted connections
 *           new     every future connection (the port's default)
 *           all     the port's default and every open connection
 *           open    every open connection only
 *      keys (unset keys keep their value on an open connection, are 0/off on a new rule):
 *           delay_c2s=MS delay_s2c=MS  deliver each chunk MS after it arrived (order kept)
 *           hold=MS        keep client->server bytes until a later connection of the port has had
 *                          bytes forwarded to the server, or until MS after accept
 *           stall_c2s=N stall_s2c=N   forward N bytes in that direction (counted from the
 *                          connection's start), then read and drop the rest; the socket stays open
 *           rst_c2s=N rst_s2c=N       forward N bytes in that direction, then reset both sides
 *           pace_c2s=MS pace_s2c=MS   at least MS between two chunks (or pieces) of that direction
 *           piece=N        with pacing, cut what is read into pieces of at most N bytes
 *           lines=1        with pacing, cut it after every newline (one RESP line per piece)
 *           mode=normal|blackhole|noread|refuse|rst
 *                          blackhole: read and drop both ways, never answer (no upstream for a new one)
 *                          noread: accept and never read (new connections; open ones stop reading)
 *                          refuse: close new connections at once; rst: reset now (open) / at accept
 *   CLEAR [lport]    every rule back to plain forwarding (open connections too); "OK"
 *   STATS            "OK <lport>>UP acc=N open=N refused=N resets=N down=N c2s=B s2c=B dropped=B; ..."
 *                    (down: upstream refused the connect, the client got a reset)
 *   CONNS <lport>    "OK <ids of open connections>"
 *   PING             "OK pong"
 * A client that closes still has its already received (delayed, held) bytes delivered to the
 * server, as a network would: then the upstream write side is shut and the server's answers are
 * read and dropped until it closes (at most 10 s). Memory: at most 1 MiB queued per direction per
 * connection (reading pauses above it), at most 512 connections. */
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

#define MAX_PORTS 16
#define MAX_CONNS 512
#define MAX_CTL 8
#define MAX_BYID 64
#define QUEUE_CAP (1u << 20)
#define LINGER_MS 10000

enum { M_NORMAL, M_BLACKHOLE, M_NOREAD, M_REFUSE, M_RST };
static const char *mode_names[] = {"normal", "blackhole", "noread", "refuse", "rst"};

typedef struct rules {
	int mode;
	long delay[2];     /* [0] client->server, [1] server->client; ms */
	long hold;         /* ms, 0 = none */
	long stall[2];     /* byte limits, -1 = none */
	long rst[2];
	long pace[2];      /* ms between pieces, 0 = none */
	long piece;        /* bytes per piece when pacing, 0 = as read */
	int lines;         /* with pacing, one piece per line (a RESP reply line) */
} rules;

typedef struct chunk {
	struct chunk *next;
	uint64_t due;
	size_t len, off;
	char data[];
} chunk;

typedef struct dir {
	chunk *head, *tail;
	size_t queued;
	uint64_t forwarded;
	int eof;           /* the source has ended: shut the destination once drained */
	int shut;
} dir;

typedef struct conn {
	int used, port;
	unsigned id;
	int cfd, ufd;      /* -1 when gone */
	int connecting;
	int client_gone;
	uint64_t hold_until, linger_until;
	rules r;
	dir d[2];          /* 0: client->server, 1: server->client */
} conn;

typedef struct lport {
	int fd, port, up;
	unsigned next_id;
	rules dflt, pend;
	int pend_n;
	int nbyid;
	struct { unsigned id; rules r; } byid[MAX_BYID];
	unsigned long acc, refused, resets, down;
	unsigned long long bytes[2], dropped;
} lport;

typedef struct ctl { int fd; size_t len; char buf[512]; } ctl;

static lport ports[MAX_PORTS];
static int nports;
static conn conns[MAX_CONNS];
static ctl ctls[MAX_CTL];
static int ctl_fd = -1;
static volatile sig_atomic_t stop_requested;

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000u + (uint64_t) ts.tv_nsec / 1000000u;
}

static void on_signal(int sig) { (void) sig; stop_requested = 1; }

static void set_nb(int fd)
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

static void rules_plain(rules *r)
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

static void dir_free(dir *d)
{
	while (d->head) {
		chunk *c = d->head;
		d->head = c->next;
		free(c);
	}
	d->tail = NULL;
	d->queued = 0;
}

static void conn_close(conn *c, int reset)
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
static int parse_rules(char *args, rules *r, const char **why)
{
	char *tok, *save = NULL;
	for (tok = strtok_r(args, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '='), *end;
		long v;
		int m;
		if (!eq) {
			*why = "expected key=value";
			return 0;
		}
		*eq++ = '\0';
		if (strcmp(tok, "mode") == 0) {
			for (m = 0; m < 5 && strcmp(eq, mode_names[m]) != 0; m++) {}
			if (m == 5) {
				*why = "unknown mode";
				return 0;
			}
			r->mode = m;
			continue;
		}
		v = strtol(eq, &end, 10);
		if (*eq == '\0' || *end != '\0' || v < -1 || v > 100000000) {
			*why = "bad number";
			return 0;
		}
		if (strcmp(tok, "delay_c2s") == 0 && v >= 0) r->delay[0] = v;
		else if (strcmp(tok, "delay_s2c") == 0 && v >= 0) r->delay[1] = v;
		else if (strcmp(tok, "hold") == 0 && v >= 0) r->hold = v;
		else if (strcmp(tok, "stall_c2s") == 0) r->stall[0] = v;
		else if (strcmp(tok, "stall_s2c") == 0) r->stall[1] = v;
		else if (strcmp(tok, "rst_c2s") == 0) r->rst[0] = v;
		else if (strcmp(tok, "rst_s2c") == 0) r->rst[1] = v;
		else if (strcmp(tok, "pace_c2s") == 0 && v >= 0) r->pace[0] = v;
		else if (strcmp(tok, "pace_s2c") == 0 && v >= 0) r->pace[1] = v;
		else if (strcmp(tok, "piece") == 0 && v >= 0) r->piece = v;
		else if (strcmp(tok, "lines") == 0 && v >= 0) r->lines = v > 0;
		else {
			*why = "unknown key or negative value";
			return 0;
		}
	}
	return 1;
}

/* New rules on an open connection take effect at once. */
static void apply_open(conn *c, const rules *r, uint64_t now)
{
	int k;
	c->r = *r;
	c->hold_until = r->hold > 0 ? now + (uint64_t) r->hold : 0;
	if (r->mode == M_RST) {
		conn_close(c, 1);
	} else if (r->mode == M_BLACKHOLE) {
		ports[c->port].dropped += c->d[0].queued + c->d[1].queued;
		dir_free(&c->d[0]);
		dir_free(&c->d[1]);
	}
	for (k = 0; c->used && k < 2; k++) {   /* a stall limit already passed drops what is queued */
		if (r->stall[k] >= 0 && c->d[k].forwarded >= (uint64_t) r->stall[k]) {
			dir_free(&c->d[k]);
		}
	}
}

static int find_port(const char *s)
{
	int i, n = atoi(s);
	for (i = 0; i < nports; i++) {
		if (ports[i].port == n) {
			return i;
		}
	}
	return -1;
}

static void cmd_set(char *args, char *reply, size_t cap, uint64_t now)
{
	char *save = NULL, *ps = strtok_r(args, " \t", &save), *sel = strtok_r(NULL, " \t", &save);
	char *rest = save ? save : (char *) "";
	int pi = ps ? find_port(ps) : -1, touched = 0, i;
	const char *why = NULL;
	rules fresh;
	lport *p;

	if (pi < 0 || !sel) {
		snprintf(reply, cap, "ERR usage: SET <listen port> <sel> key=value ...");
		return;
	}
	p = &ports[pi];
	rules_plain(&fresh);
	{
		char copy[512];
		snprintf(copy, sizeof(copy), "%s", rest);
		if (!parse_rules(copy, &fresh, &why)) {
			snprintf(reply, cap, "ERR %s", why);
			return;
		}
	}
	if (strcmp(sel, "new") == 0 || strcmp(sel, "all") == 0) {
		p->dflt = fresh;
	}
	if (strncmp(sel, "next", 4) == 0) {
		p->pend = fresh;
		p->pend_n = sel[4] == ':' ? atoi(sel + 5) : 1;
		snprintf(reply, cap, "OK 0");
		return;
	}
	for (i = 0; i < MAX_CONNS; i++) {
		conn *c = &conns[i];
		rules r;
		char copy[512];
		if (!c->used || c->port != pi) {
			continue;
		}
		if (strcmp(sel, "all") != 0 && strcmp(sel, "open") != 0 && c->id != (unsigned) atoi(sel)) {
			continue;
		}
		r = c->r;   /* unset keys keep their value on an open connection */
		snprintf(copy, sizeof(copy), "%s", rest);
		parse_rules(copy, &r, &why);
		apply_open(c, &r, now);
		touched++;
	}
	if (atoi(sel) > 0 && touched == 0) {
		if ((unsigned) atoi(sel) <= p->next_id) {
			snprintf(reply, cap, "ERR connection %s is closed", sel);
			return;
		}
		if (p->nbyid == MAX_BYID) {
			snprintf(reply, cap, "ERR too many rules for future connections");
			return;
		}
		p->byid[p->nbyid].id = (unsigned) atoi(sel);
		p->byid[p->nbyid++].r = fresh;
	} else if (atoi(sel) <= 0 && strcmp(sel, "all") && strcmp(sel, "open") && strcmp(sel, "new")) {
		snprintf(reply, cap, "ERR unknown selector");
		return;
	}
	snprintf(reply, cap, "OK %d", touched);
}

static void cmd_clear(const char *arg, uint64_t now)
{
	int i, pi = arg && *arg ? find_port(arg) : -1;
	for (i = 0; i < nports; i++) {
		if (pi < 0 || i == pi) {
			rules_plain(&ports[i].dflt);
			ports[i].pend_n = 0;
			ports[i].nbyid = 0;
		}
	}
	for (i = 0; i < MAX_CONNS; i++) {
		if (conns[i].used && (pi < 0 || conns[i].port == pi)) {
			rules plain;
			rules_plain(&plain);
			plain.mode = conns[i].r.mode == M_NOREAD || conns[i].r.mode == M_BLACKHOLE ? conns[i].r.mode : M_NORMAL;
			apply_open(&conns[i], &plain, now);
		}
	}
}

static void run_command(char *line, int fd, uint64_t now)
{
	char reply[4096], *arg = strchr(line, ' ');
	size_t len;
	int i;
	if (arg) *arg++ = '\0';
	if (strcmp(line, "SET") == 0) {
		cmd_set(arg ? arg : (char *) "", reply, sizeof(reply), now);
	} else if (strcmp(line, "CLEAR") == 0) {
		cmd_clear(arg, now);
		snprintf(reply, sizeof(reply), "OK");
	} else if (strcmp(line, "PING") == 0) {
		snprintf(reply, sizeof(reply), "OK pong");
	} else if (strcmp(line, "STATS") == 0) {
		len = (size_t) snprintf(reply, sizeof(reply), "OK");
		for (i = 0; i < nports && len < sizeof(reply); i++) {
			int j, open = 0;
			lport *p = &ports[i];
			for (j = 0; j < MAX_CONNS; j++) open += conns[j].used && conns[j].port == i;
			len += (size_t) snprintf(reply + len, sizeof(reply) - len,
				"%s %d>%d acc=%lu open=%d refused=%lu resets=%lu down=%lu c2s=%llu s2c=%llu dropped=%llu",
				i ? ";" : "", p->port, p->up, p->acc, open, p->refused, p->resets, p->down, p->bytes[0], p->bytes[1], p->dropped);
		}
	} else if (strcmp(line, "CONNS") == 0 && arg && find_port(arg) >= 0) {
		int pi = find_port(arg);
		len = (size_t) snprintf(reply, sizeof(reply), "OK");
		for (i = 0; i < MAX_CONNS && len < sizeof(reply) - 16; i++) {
			if (conns[i].used && conns[i].port == pi) {
				len += (size_t) snprintf(reply + len, sizeof(reply) - len, " %u", conns[i].id);
			}
		}
	} else {
		snprintf(reply, sizeof(reply), "ERR unknown command or port");
	}
	len = strlen(reply);
	reply[len++] = '\n';
	if (write(fd, reply, len) < 0) {
		/* the controller went away; its socket is closed on the next read */
	}
}

static void on_ctl_readable(ctl *k, uint64_t now)
{
	ssize_t n = read(k->fd, k->buf + k->len, sizeof(k->buf) - 1 - k->len);
	char *nl;
	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			close(k->fd);
			k->fd = -1;
		}
		return;
	}
	k->len += (size_t) n;
	while ((nl = memchr(k->buf, '\n', k->len)) != NULL) {
		size_t used = (size_t) (nl - k->buf) + 1;
		*nl = '\0';
		if (nl > k->buf && nl[-1] == '\r') nl[-1] = '\0';
		/* The controller waits for the reply (blocking write is fine: replies are small). */
		fcntl(k->fd, F_SETFL, fcntl(k->fd, F_GETFL) & ~O_NONBLOCK);
		run_command(k->buf, k->fd, now);
		fcntl(k->fd, F_SETFL, fcntl(k->fd, F_GETFL) | O_NONBLOCK);
		memmove(k->buf, k->buf + used, k->len - used);
		k->len -= used;
	}
	if (k->len == sizeof(k->buf) - 1) {
		close(k->fd);   /* a line longer than the buffer: not a controller */
		k->fd = -1;
	}
}

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
