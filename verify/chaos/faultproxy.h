/* faultproxy: a TCP proxy on 127.0.0.1 that injects network faults per connection, driven at run
 * time through a control port. Used by tests/network (through tests/inc/faultproxy.inc) and verify/chaos/netchaos.php.
 * Two sources: faultproxy.c (connections, forwarding, the poll loop) and faultproxy_ctl.c (the
 * control protocol below); this header is what they share. Build:
 *   cc -O2 -Wall -o faultproxy verify/chaos/faultproxy.c verify/chaos/faultproxy_ctl.c
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
#ifndef FAULTPROXY_H
#define FAULTPROXY_H

#include <stddef.h>
#include <stdint.h>

#define MAX_PORTS 16
#define MAX_CONNS 512
#define MAX_CTL 8
#define MAX_BYID 64
#define QUEUE_CAP (1u << 20)
#define LINGER_MS 10000

enum { M_NORMAL, M_BLACKHOLE, M_NOREAD, M_REFUSE, M_RST };

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

/* faultproxy.c: the state of the listen ports and connections, and what the control side uses. */
extern lport ports[MAX_PORTS];
extern int nports;
extern conn conns[MAX_CONNS];
uint64_t now_ms(void);
void set_nb(int fd);
void rules_plain(rules *r);
void dir_free(dir *d);
void conn_close(conn *c, int reset);

/* faultproxy_ctl.c: reads a controller's commands, runs each and writes its reply line. */
void on_ctl_readable(ctl *k, uint64_t now);

#endif
