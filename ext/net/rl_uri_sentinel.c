/* sentinel:// and sentinels:// URIs: a member whose master the sentinels name. See rl_uri.h. */
#include <stdlib.h>
#include <string.h>

#include "net/rl_uri.h"
#include "net/rl_uri_private.h"

int rl_uri_master_name_ok(const char *name, size_t len)
{
	size_t i;

	if (len == 0 || len > 128) {
		return 0;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char) name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '-')) {
			return 0;
		}
	}
	return 1;
}

int rl_uri_parse_host_port(const char *text, size_t len, int default_port, char **host, int *port, char *error,
	size_t error_size)
{
	span s = {text, len};

	*host = NULL;
	if (memchr(text, '\0', len) != NULL) {
		return rl_uri_fail(error, error_size, "URI host is malformed");
	}
	return rl_uri_host_port(s, default_port, host, port, error, error_size);
}

/* 1 when text starts with a TLS scheme, 0 with another scheme ("x://"), -1 with none. */
static int seed_scheme(const char *text, size_t len)
{
	static const char *const secure[] = {"rediss", "valkeys", "clusters", "sentinels", "tls", "ssl"};
	const char *colon = memchr(text, ':', len);
	size_t scheme, i;

	if (colon == NULL || (size_t) (colon - text) + 3 > len || colon[1] != '/' || colon[2] != '/') {
		return -1;
	}
	scheme = (size_t) (colon - text);
	for (i = 0; i < sizeof(secure) / sizeof(secure[0]); i++) {
		if (strlen(secure[i]) == scheme && strncasecmp(text, secure[i], scheme) == 0) {
			return 1;
		}
	}
	return 0;
}

int rl_uri_seed_schemes(const char *const *texts, const size_t *lens, size_t count, int bare_tls, char *error,
	size_t error_size)
{
	size_t i, tls = 0, plain = 0, schemes = 0;

	for (i = 0; i < count; i++) {
		int one = seed_scheme(texts[i], lens[i]);

		schemes += one >= 0;
		tls += one == 1 || (one < 0 && bare_tls);
		plain += one == 0 || (one < 0 && !bare_tls);
	}
	if (schemes == 0) {
		return 0;
	}
	return rl_uri_fail(error, error_size, tls > 0 && plain > 0
		? "the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS "
		  "once for the member (clusters://, sentinels:// or \"tls\")"
		: "a seed takes no scheme: write it host:port and give TLS once for the member (clusters://, sentinels:// "
		  "or \"tls\")");
}

/* The seeds of list (h1[:p1],h2[:p2],...) written with a scheme: rl_uri_seed_schemes. */
static int list_schemes(span list, int bare_tls, char *error, size_t error_size)
{
	const char *texts[RL_URI_SENTINELS_MAX];
	size_t lens[RL_URI_SENTINELS_MAX], count = 0;

	while (count < RL_URI_SENTINELS_MAX) {
		const char *comma = rl_span_find(list, ',');

		texts[count] = list.p;
		lens[count++] = comma ? (size_t) (comma - list.p) : list.len;
		if (comma == NULL) {
			break;
		}
		list.len -= (size_t) (comma + 1 - list.p);
		list.p = comma + 1;
	}
	return rl_uri_seed_schemes(texts, lens, count, bare_tls, error, error_size);
}

/* h1[:p1],h2[:p2],... into out->sentinel_hosts/ports (a cluster's seeds too). */
static int parse_sentinel_list(span list, int default_port, rl_uri *out, char *error, size_t error_size)
{
	while (1) {
		const char *comma = rl_span_find(list, ',');
		span one = {list.p, comma ? (size_t) (comma - list.p) : list.len};

		if (out->sentinel_count == RL_URI_SENTINELS_MAX) {
			return rl_uri_fail(error, error_size, out->cluster ? "URI names more than 16 seeds" : "URI names more than 16 sentinels");
		}
		if (rl_uri_host_port(one, default_port, &out->sentinel_hosts[out->sentinel_count],
				&out->sentinel_ports[out->sentinel_count], error, error_size) != 0) {
			return -1;
		}
		out->sentinel_count++;
		if (comma == NULL) {
			return 0;
		}
		list.p = comma + 1;
		list.len -= one.len + 1;
	}
}

int rl_uri_parse_sentinel(span all, rl_uri *out, char *error, size_t error_size)
{
	size_t scheme = all.p[8] == 's' || all.p[8] == 'S' ? 12 : 11; /* sentinels:// or sentinel:// */
	span rest = {all.p + scheme, all.len - scheme}, query, authority, name;
	const char *slash;
	int db_seen = 0, status = -1;

	out->sentinel = 1;
	if (scheme == 12) {
		rl_uri_secure(out);
	}
	query = rl_uri_split_query(&rest);
	slash = rl_span_find(rest, '/');
	if (slash == NULL || slash + 1 == rest.p + rest.len) {
		rl_uri_fail(error, error_size, "sentinel URI must end with the master's name, like sentinel://host:26379/mymaster");
		goto done;
	}
	authority.p = rest.p;
	authority.len = (size_t) (slash - rest.p);
	name.p = slash + 1;
	name.len = rest.len - authority.len - 1;
	if (!rl_uri_master_name_ok(name.p, name.len)) {
		rl_uri_fail(error, error_size, "sentinel URI master name must be 1 to 128 letters, digits, '.', '_' or '-'");
		goto done;
	}
	if (rl_uri_take_user_info(&authority, out, error, error_size) != 0
		|| parse_sentinel_list(authority, RL_URI_DEFAULT_SENTINEL_PORT, out, error, error_size) != 0
		|| rl_uri_parse_query(query, &db_seen, out, error, error_size) != 0) {
		goto done;
	}
	if ((out->master_name = malloc(name.len + 1)) == NULL) {
		rl_uri_fail(error, error_size, "out of memory");
		goto done;
	}
	memcpy(out->master_name, name.p, name.len);
	out->master_name[name.len] = '\0';
	if (rl_uri_check_pairs(out, error, error_size) != 0) {
		goto done;
	}
	if (out->sentinel_username != NULL && out->sentinel_password == NULL) {
		rl_uri_fail(error, error_size, "URI sentinel_username needs a sentinel_password");
	} else {
		status = 0;
	}
done:
	if (status != 0) {
		rl_uri_free(out);
	}
	return status;
}

int rl_uri_parse_cluster(span all, rl_uri *out, char *error, size_t error_size)
{
	size_t scheme = all.p[7] == 's' || all.p[7] == 'S' ? 11 : 10; /* clusters:// or cluster:// */
	span rest = {all.p + scheme, all.len - scheme}, query;
	int db_seen = 0, status = -1;

	out->cluster = 1;
	if (scheme == 11) {
		rl_uri_secure(out);
	}
	query = rl_uri_split_query(&rest);
	if (rl_span_find(rest, '/') != NULL && list_schemes(rest, scheme == 11, error, error_size) != 0) {
		goto done; /* cluster://host:port,rediss://host:port: not a path */
	}
	if (rl_span_find(rest, '/') != NULL) {
		rl_uri_fail(error, error_size, "cluster URI takes no path: a cluster has database 0 only");
		goto done;
	}
	if (rl_uri_take_user_info(&rest, out, error, error_size) != 0) {
		goto done;
	}
	if (rest.len == 0) {
		rl_uri_fail(error, error_size, "cluster URI must name at least one seed, like cluster://host:6379");
		goto done;
	}
	if (parse_sentinel_list(rest, RL_URI_DEFAULT_PORT, out, error, error_size) != 0
		|| rl_uri_parse_query(query, &db_seen, out, error, error_size) != 0) {
		goto done;
	}
	if (out->database != 0) {
		rl_uri_fail(error, error_size, "cluster URI database must be 0: a cluster has database 0 only");
	} else if (rl_uri_check_pairs(out, error, error_size) == 0) {
		status = 0;
	}
done:
	if (status != 0) {
		rl_uri_free(out);
	}
	return status;
}
