/* faultproxy, part 2 of 2: the control protocol (SET, CLEAR, STATS, CONNS, PING; see faultproxy.h):
 * parsing rules, applying them to ports, future and open connections, and the replies. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "faultproxy.h"

static const char *mode_names[] = {"normal", "blackhole", "noread", "refuse", "rst"};

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

void on_ctl_readable(ctl *k, uint64_t now)
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
