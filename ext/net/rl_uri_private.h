/* What rl_uri.c shares with rl_uri_sentinel.c: spans of the input and the pieces of a redis:// URI
 * that a sentinel:// URI reuses. Private to net/. */
#ifndef RL_URI_PRIVATE_H
#define RL_URI_PRIVATE_H

#include <stddef.h>
#include "net/rl_uri.h"

typedef struct {
	const char *p;
	size_t len;
} span;

int rl_uri_fail(char *error, size_t error_size, const char *reason);
int rl_span_has_prefix_nocase(span s, const char *prefix);
const char *rl_span_find(span s, char ch);
const char *rl_span_find_last(span s, char ch);
int rl_uri_take_secret(span value, char **slot, const char *field, char *error, size_t error_size);
/* The user info before the authority's last '@' (user:password, or :password), if any, taken into out
 * and cut off *authority. 0, or -1 with error set. */
int rl_uri_take_user_info(span *authority, rl_uri *out, char *error, size_t error_size);
/* A TLS scheme (rediss://, sentinels://, clusters://): TLS on, the peer and its name verified. */
void rl_uri_secure(rl_uri *out);
/* The query after the first '?' of *rest ({NULL, 0}: none), cut off *rest. */
span rl_uri_split_query(span *rest);
/* The fields that need another: local_pk needs local_cert, a user name a password. 0, or -1 with error set. */
int rl_uri_check_pairs(const rl_uri *out, char *error, size_t error_size);
int rl_uri_host_port(span hostport, int default_port, char **host, int *port, char *error, size_t error_size);
int rl_uri_set_database(span value, int *seen, rl_uri *out, char *error, size_t error_size);
int rl_uri_parse_query(span query, int *db_seen, rl_uri *out, char *error, size_t error_size);
/* sentinel:// and sentinels:// (text is the whole URI). */
int rl_uri_parse_sentinel(span text, rl_uri *out, char *error, size_t error_size);
/* cluster:// and clusters:// (text is the whole URI). */
int rl_uri_parse_cluster(span text, rl_uri *out, char *error, size_t error_size);

#endif
