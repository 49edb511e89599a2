/* Server URIs. See rl_uri.h.
 * Reserved characters in a password (/ ? # % and NUL) must be percent-encoded; '@' and ':' may
 * appear as they are since the user info ends at the last '@' and the user name at the first ':'. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_uri.h"
#include "net/rl_uri_private.h"
#include "net/rl_net_private.h"

int rl_uri_fail(char *error, size_t error_size, const char *reason)
{
	snprintf(error, error_size, "%s", reason);
	return -1;
}

static int ascii_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch;
}

int rl_span_has_prefix_nocase(span s, const char *prefix)
{
	size_t i, n = strlen(prefix);

	if (s.len < n) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (ascii_lower((unsigned char) s.p[i]) != prefix[i]) {
			return 0;
		}
	}
	return 1;
}

static int span_equals(span s, const char *word)
{
	return s.len == strlen(word) && memcmp(s.p, word, s.len) == 0;
}

const char *rl_span_find(span s, char ch)
{
	return s.len ? memchr(s.p, ch, s.len) : NULL;
}

const char *rl_span_find_last(span s, char ch)
{
	size_t i = s.len;

	while (i > 0) {
		if (s.p[--i] == ch) {
			return s.p + i;
		}
	}
	return NULL;
}

static int hex_value(int ch)
{
	if (ch >= '0' && ch <= '9') {
		return ch - '0';
	}
	ch = ascii_lower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Percent-decodes s into a new NUL-terminated string. Returns 0, -1 for a bad escape or a
 * decoded NUL, -2 when out of memory. */
static int decode(span s, char **out)
{
	char *buffer = malloc(s.len + 1);
	size_t i, n = 0;

	if (buffer == NULL) {
		return -2;
	}
	for (i = 0; i < s.len; i++) {
		int ch = (unsigned char) s.p[i];
		if (ch == '%') {
			int high = i + 2 < s.len ? hex_value((unsigned char) s.p[i + 1]) : -1;
			int low = i + 2 < s.len ? hex_value((unsigned char) s.p[i + 2]) : -1;
			if (high < 0 || low < 0) {
				memset(buffer, 0, s.len + 1);
				free(buffer);
				return -1;
			}
			ch = high * 16 + low;
			i += 2;
		}
		if (ch == '\0') {
			memset(buffer, 0, s.len + 1);
			free(buffer);
			return -1;
		}
		buffer[n++] = (char) ch;
	}
	buffer[n] = '\0';
	*out = buffer;
	return 0;
}

static int parse_long(span s, long max, long *out)
{
	long value = 0;
	size_t i;

	if (s.len == 0 || s.len > 10) {
		return -1;
	}
	for (i = 0; i < s.len; i++) {
		if (s.p[i] < '0' || s.p[i] > '9') {
			return -1;
		}
		value = value * 10 + (s.p[i] - '0');
	}
	if (value > max) {
		return -1;
	}
	*out = value;
	return 0;
}

/* A plain decimal number of seconds (digits, optionally '.' and digits); locale-independent. */
static int parse_seconds(span s, double *out)
{
	double value = 0, scale = 1;
	size_t i, digits = 0;
	int fraction = 0;

	if (s.len == 0 || s.len > 32) {
		return -1;
	}
	for (i = 0; i < s.len; i++) {
		char ch = s.p[i];
		if (ch == '.' && !fraction) {
			fraction = 1;
			continue;
		}
		if (ch < '0' || ch > '9') {
			return -1;
		}
		digits++;
		if (fraction) {
			scale /= 10;
			value += (ch - '0') * scale;
		} else {
			value = value * 10 + (ch - '0');
		}
	}
	if (digits == 0) {
		return -1;
	}
	*out = value;
	return 0;
}

static int valid_host_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
		|| ch == '-' || ch == '.' || ch == '_';
}

static int valid_ipv6_char(int ch)
{
	return hex_value(ch) >= 0 || ch == ':' || ch == '.';
}

/* Copies a secret (user name or password), percent-decoded. Rejects a second value and empty ones. */
int rl_uri_take_secret(span value, char **slot, const char *field, char *error, size_t error_size)
{
	char message[RL_URI_ERROR_MAX];
	int status;

	if (*slot != NULL) {
		snprintf(message, sizeof(message), "URI gives the %s twice", field);
		return rl_uri_fail(error, error_size, message);
	}
	if (value.len == 0) {
		snprintf(message, sizeof(message), "URI %s must not be empty", field);
		return rl_uri_fail(error, error_size, message);
	}
	status = decode(value, slot);
	if (status == -2) {
		return rl_uri_fail(error, error_size, "out of memory");
	}
	if (status != 0) {
		snprintf(message, sizeof(message), "URI %s has a bad percent-escape or a NUL byte", field);
		return rl_uri_fail(error, error_size, message);
	}
	return 0;
}

static int parse_user_info(span info, rl_uri *out, char *error, size_t error_size)
{
	const char *colon = rl_span_find(info, ':');
	span user, password;

	if (colon == NULL) {
		return rl_uri_fail(error, error_size, "URI user info needs a password: use redis://user:password@host, "
			"or redis://:password@host for a password alone");
	}
	user.p = info.p;
	user.len = (size_t) (colon - info.p);
	password.p = colon + 1;
	password.len = info.len - user.len - 1;
	if (user.len > 0 && rl_uri_take_secret(user, &out->username, "user name", error, error_size) != 0) {
		return -1;
	}
	return rl_uri_take_secret(password, &out->password, "password", error, error_size);
}

int rl_uri_take_user_info(span *authority, rl_uri *out, char *error, size_t error_size)
{
	const char *at = rl_span_find_last(*authority, '@');
	span info;

	if (at == NULL) {
		return 0;
	}
	info.p = authority->p;
	info.len = (size_t) (at - authority->p);
	if (parse_user_info(info, out, error, error_size) != 0) {
		return -1;
	}
	authority->p = at + 1;
	authority->len -= info.len + 1;
	return 0;
}

void rl_uri_secure(rl_uri *out)
{
	out->tls = 1;
	out->tls_config.verify_peer = 1;
	out->tls_config.verify_peer_name = 1;
}

span rl_uri_split_query(span *rest)
{
	const char *question = rl_span_find(*rest, '?');
	span query = {NULL, 0};

	if (question != NULL) {
		query.p = question + 1;
		query.len = rest->len - (size_t) (question - rest->p) - 1;
		rest->len = (size_t) (question - rest->p);
	}
	return query;
}

int rl_uri_check_pairs(const rl_uri *out, char *error, size_t error_size)
{
	if (out->tls_config.key_file != NULL && out->tls_config.cert_file == NULL) {
		return rl_uri_fail(error, error_size, "URI local_pk needs local_cert");
	}
	if (out->username != NULL && out->password == NULL) {
		return rl_uri_fail(error, error_size, "URI user name needs a password");
	}
	return 0;
}

/* "[v6]" or "[v6]:port": the host inside the brackets (IPv6 characters only) and the port's text. */
static int bracketed_host(span hostport, span *host, span *port, int *has_port, char *error, size_t error_size)
{
	const char *close = rl_span_find(hostport, ']');
	size_t i;

	if (close == NULL) {
		return rl_uri_fail(error, error_size, "URI host has an unclosed '[' (IPv6 addresses are written [::1])");
	}
	host->p = hostport.p + 1;
	host->len = (size_t) (close - host->p);
	if (close + 1 < hostport.p + hostport.len) {
		if (close[1] != ':') {
			return rl_uri_fail(error, error_size, "URI host is malformed");
		}
		*has_port = 1;
		port->p = close + 2;
		port->len = (size_t) (hostport.p + hostport.len - port->p);
	}
	for (i = 0; i < host->len; i++) {
		if (!valid_ipv6_char((unsigned char) host->p[i])) {
			return rl_uri_fail(error, error_size, "URI host is malformed");
		}
	}
	return 0;
}

/* "host" or "host:port" (the first colon): the host (host name characters only) and the port's text. */
static int plain_host(span hostport, span *host, span *port, int *has_port, char *error, size_t error_size)
{
	const char *colon = rl_span_find(hostport, ':');
	size_t i;

	if (colon != NULL) {
		host->len = (size_t) (colon - hostport.p);
		*has_port = 1;
		port->p = colon + 1;
		port->len = hostport.len - host->len - 1;
	}
	for (i = 0; i < host->len; i++) {
		if (!valid_host_char((unsigned char) host->p[i])) {
			return rl_uri_fail(error, error_size, "URI host is malformed (percent-encode '/', '?' and '#' in a password)");
		}
	}
	return 0;
}

int rl_uri_host_port(span hostport, int default_port, char **host_out, int *port_out, char *error, size_t error_size)
{
	span host = hostport, port = {NULL, 0};
	int has_port = 0, split;

	split = hostport.len > 0 && hostport.p[0] == '[' ? bracketed_host(hostport, &host, &port, &has_port, error, error_size)
		: plain_host(hostport, &host, &port, &has_port, error, error_size);
	if (split != 0) {
		return -1;
	}
	if (host.len == 0 || host.len > 255) {
		return rl_uri_fail(error, error_size, "URI host must not be empty");
	}
	*port_out = default_port;
	if (has_port) {
		long value;
		if (parse_long(port, 65535, &value) != 0 || value < 1) {
			return rl_uri_fail(error, error_size, "URI port must be an integer between 1 and 65535");
		}
		*port_out = (int) value;
	}
	*host_out = malloc(host.len + 1);
	if (*host_out == NULL) {
		return rl_uri_fail(error, error_size, "out of memory");
	}
	memcpy(*host_out, host.p, host.len);
	(*host_out)[host.len] = '\0';
	return 0;
}

int rl_uri_set_database(span value, int *seen, rl_uri *out, char *error, size_t error_size)
{
	if (*seen) {
		return rl_uri_fail(error, error_size, "URI gives the database twice");
	}
	*seen = 1;
	if (parse_long(value, INT_MAX, &out->database) != 0) {
		return rl_uri_fail(error, error_size, "URI database must be an integer between 0 and 2147483647");
	}
	return 0;
}

/* A TLS setting of a rediss:// URI: a path or name (percent-decoded), or a switch. 1 when key
 * is none of them. */
static int take_tls_setting(span key, span value, rl_uri *out, char *error, size_t error_size)
{
	static const char *const names[] = {"cafile", "capath", "local_cert", "local_pk", "peer_name", "passphrase"};
	rl_tls_config *tls = &out->tls_config;
	char **slots[] = {&tls->ca_file, &tls->ca_path, &tls->cert_file, &tls->key_file, &tls->peer_name,
		&tls->passphrase};
	size_t i;

	if (span_equals(key, "verify_peer") || span_equals(key, "verify_peer_name")) {
		int *flag = span_equals(key, "verify_peer") ? &tls->verify_peer : &tls->verify_peer_name;
		if (!out->tls) {
			return rl_uri_fail(error, error_size, "URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme");
		}
		if (span_equals(value, "1") || span_equals(value, "true") || span_equals(value, "yes")) {
			*flag = 1;
		} else if (span_equals(value, "0") || span_equals(value, "false") || span_equals(value, "no")) {
			*flag = 0;
		} else {
			return rl_uri_fail(error, error_size, "URI verify_peer and verify_peer_name must be 1 or 0 (true or false)");
		}
		return 0;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (span_equals(key, names[i])) {
			if (!out->tls) {
				return rl_uri_fail(error, error_size, "URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme");
			}
			/* take_secret: decoded, not empty, not twice; the passphrase is wiped when freed. */
			return rl_uri_take_secret(value, slots[i], names[i], error, error_size);
		}
	}
	return 1;
}

/* ?timeout=seconds: once, at most 60 s, kept in ms. */
static int set_timeout(span value, rl_uri *out, char *error, size_t error_size)
{
	if (out->has_timeout) {
		return rl_uri_fail(error, error_size, "URI gives the timeout twice");
	}
	if (parse_seconds(value, &out->timeout_ms) != 0) {
		return rl_uri_fail(error, error_size, "URI timeout must be a number of seconds >= 0, like 0.5");
	}
	if (!rl_timeout_seconds_ok(out->timeout_ms)) {
		return rl_uri_fail(error, error_size, "URI timeout must be at most 60 seconds");
	}
	out->timeout_ms *= 1000.0;
	out->has_timeout = 1;
	return 0;
}

/* A cluster URI's ?member=i (0 to 255): once, kept as i + 1 (0: none). */
static int set_member(span value, rl_uri *out, char *error, size_t error_size)
{
	size_t d;
	unsigned member = 0;

	if (out->cluster_member != 0) {
		return rl_uri_fail(error, error_size, "URI gives the member twice");
	}
	for (d = 0; d < value.len && value.p[d] >= '0' && value.p[d] <= '9' && member < 1000; d++) {
		member = member * 10 + (unsigned) (value.p[d] - '0');
	}
	if (value.len == 0 || d != value.len || member > 255) {
		return rl_uri_fail(error, error_size, "URI member must be a whole number from 0 to 255");
	}
	out->cluster_member = member + 1;
	return 0;
}

/* A key the URI's scheme does not know, refused with the ones it knows. The key is not quoted: a
 * mistyped one might be a secret. */
static int unknown_parameter(const rl_uri *out, char *error, size_t error_size)
{
	return rl_uri_fail(error, error_size, out->tls
		? (out->sentinel ? "URI has an unknown query parameter (known: timeout, db, password, username, "
		  "sentinel_username, sentinel_password, cafile, capath, local_cert, local_pk, passphrase, peer_name, "
		  "verify_peer, verify_peer_name)"
		  : "URI has an unknown query parameter (known: timeout, db, password, username, cafile, capath, "
		  "local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name)")
		: out->sentinel ? "URI has an unknown query parameter (known: timeout, db, password, username, "
		  "sentinel_username, sentinel_password)"
		: out->cluster ? "URI has an unknown query parameter (known: timeout, password, username, member)"
		: "URI has an unknown query parameter (known: timeout, db, password, username)");
}

int rl_uri_parse_query(span query, int *db_seen, rl_uri *out, char *error, size_t error_size)
{
	while (query.len > 0) {
		const char *amp = rl_span_find(query, '&');
		span item = {query.p, amp ? (size_t) (amp - query.p) : query.len};
		const char *equals = rl_span_find(item, '=');
		span key = {item.p, equals ? (size_t) (equals - item.p) : item.len};
		span value = {equals ? equals + 1 : item.p + item.len, equals ? item.len - key.len - 1 : 0};
		int status;

		query.p += item.len + (amp ? 1 : 0);
		query.len -= item.len + (amp ? 1 : 0);
		if (item.len == 0) {
			continue;
		}
		if (span_equals(key, "timeout")) {
			status = set_timeout(value, out, error, error_size);
		} else if (span_equals(key, "db") || span_equals(key, "database")) {
			status = rl_uri_set_database(value, db_seen, out, error, error_size);
		} else if (span_equals(key, "password")) {
			status = rl_uri_take_secret(value, &out->password, "password", error, error_size);
		} else if (span_equals(key, "username")) {
			status = rl_uri_take_secret(value, &out->username, "user name", error, error_size);
		} else if (out->cluster && span_equals(key, "member")) {
			status = set_member(value, out, error, error_size);
		} else if (out->sentinel && span_equals(key, "sentinel_password")) {
			status = rl_uri_take_secret(value, &out->sentinel_password, "sentinel_password", error, error_size);
		} else if (out->sentinel && span_equals(key, "sentinel_username")) {
			status = rl_uri_take_secret(value, &out->sentinel_username, "sentinel_username", error, error_size);
		} else if ((status = take_tls_setting(key, value, out, error, error_size)) == 1) {
			return unknown_parameter(out, error, error_size);
		}
		if (status != 0) {
			return -1;
		}
	}
	return 0;
}

static int parse_redis(span rest, span query, rl_uri *out, char *error, size_t error_size)
{
	const char *slash = rl_span_find(rest, '/');
	span authority = {rest.p, slash ? (size_t) (slash - rest.p) : rest.len};
	span path = {slash ? slash + 1 : rest.p + rest.len, slash ? rest.len - authority.len - 1 : 0};
	span hostport = authority;
	int db_seen = 0;

	if (rl_uri_take_user_info(&hostport, out, error, error_size) != 0) {
		return -1;
	}
	if (rl_uri_host_port(hostport, RL_URI_DEFAULT_PORT, &out->host, &out->port, error, error_size) != 0) {
		return -1;
	}
	if (path.len > 0 && rl_uri_set_database(path, &db_seen, out, error, error_size) != 0) {
		return -1;
	}
	return rl_uri_parse_query(query, &db_seen, out, error, error_size);
}

static int parse_unix(span rest, span query, rl_uri *out, char *error, size_t error_size)
{
	int db_seen = 0;

	if (rest.len < 2 || rest.p[0] != '/') {
		return rl_uri_fail(error, error_size, "unix URI must name an absolute socket path, like unix:///run/redis.sock");
	}
	out->host = malloc(rest.len + 1);
	if (out->host == NULL) {
		return rl_uri_fail(error, error_size, "out of memory");
	}
	memcpy(out->host, rest.p, rest.len);
	out->host[rest.len] = '\0';
	out->port = 0;
	return rl_uri_parse_query(query, &db_seen, out, error, error_size);
}

/* memory://NAME: the name alone. */
static int parse_memory(const char *name, size_t len, rl_uri *out, char *error, size_t error_size)
{
	size_t i;

	if (len == 0 || len > 64) {
		return rl_uri_fail(error, error_size, "memory URI must name its server in 1 to 64 characters, like memory://a");
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char) name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '-')) {
			return rl_uri_fail(error, error_size, "memory URI names take letters, digits, '.', '_' and '-' only");
		}
	}
	if ((out->host = malloc(len + 1)) == NULL) {
		return rl_uri_fail(error, error_size, "out of memory");
	}
	memcpy(out->host, name, len);
	out->host[len] = '\0';
	out->memory = 1;
	return 0;
}

int rl_uri_parse(const char *text, size_t len, rl_uri *out, char *error, size_t error_size)
{
	span all = {text, len}, rest, query;
	int status;

	memset(out, 0, sizeof(*out));
	if (error_size > 0) {
		error[0] = '\0';
	}
	if (rl_span_find(all, '\0') != NULL) {
		return rl_uri_fail(error, error_size, "URI must not contain NUL bytes");
	}
	if (rl_span_find(all, '#') != NULL) {
		return rl_uri_fail(error, error_size, "URI must not have a #fragment (percent-encode '#' in a password)");
	}
	if (rl_span_has_prefix_nocase(all, "rediss://")) {
		rl_uri_secure(out);
		rest.p = text + 9;
		rest.len = len - 9;
	} else if (rl_span_has_prefix_nocase(all, "redis://")) {
		rest.p = text + 8;
		rest.len = len - 8;
	} else if (rl_span_has_prefix_nocase(all, "unix://")) {
		rest.p = text + 7;
		rest.len = len - 7;
	} else if (rl_span_has_prefix_nocase(all, "sentinel://") || rl_span_has_prefix_nocase(all, "sentinels://")) {
		return rl_uri_parse_sentinel(all, out, error, error_size);
	} else if (rl_span_has_prefix_nocase(all, "cluster://") || rl_span_has_prefix_nocase(all, "clusters://")) {
		return rl_uri_parse_cluster(all, out, error, error_size);
	} else if (rl_span_has_prefix_nocase(all, "memory://")) {
		return parse_memory(text + 9, len - 9, out, error, error_size);
	} else {
		return rl_uri_fail(error, error_size, "URI must start with redis://, rediss://, unix://, sentinel://, sentinels://, cluster://, clusters:// or memory://");
	}
	query = rl_uri_split_query(&rest);
	status = text[0] == 'u' || text[0] == 'U'
		? parse_unix(rest, query, out, error, error_size)
		: parse_redis(rest, query, out, error, error_size);
	if (status == 0) {
		status = rl_uri_check_pairs(out, error, error_size);
	}
	if (status != 0) {
		rl_uri_free(out);
		return -1;
	}
	return 0;
}

void rl_secret_free(char *secret)
{
	if (secret != NULL) {
		volatile char *p = secret;
		while (*p) {
			*p++ = '\0';
		}
		free(secret);
	}
}

void rl_uri_free(rl_uri *uri)
{
	size_t i;

	free(uri->host);
	rl_secret_free(uri->username);
	rl_secret_free(uri->password);
	free(uri->tls_config.ca_file);
	free(uri->tls_config.ca_path);
	free(uri->tls_config.cert_file);
	free(uri->tls_config.key_file);
	free(uri->tls_config.peer_name);
	rl_secret_free(uri->tls_config.passphrase);
	for (i = 0; i < uri->sentinel_count; i++) {
		free(uri->sentinel_hosts[i]);
	}
	free(uri->master_name);
	rl_secret_free(uri->sentinel_username);
	rl_secret_free(uri->sentinel_password);
	memset(uri, 0, sizeof(*uri));
}
