/* Turns the PHP $servers argument into endpoints of an rl_cluster, rejecting bad input with
 * a ValueError/TypeError that names the argument, the server's index and the field; and turns
 * per-server state back into PHP arrays that never contain a credential. */
#ifndef REDLOCK_SERVERS_H
#define REDLOCK_SERVERS_H

#include "php.h"
#include "net/rl_fanout.h"

/* What getLastErrors() shows for a server whose reply was not needed: the quorum was settled
 * before it answered (its reply is read and dropped by the next call). */
#define REDLOCK_NO_REPLY_NEEDED "no reply needed"

/* Returns a cluster with one endpoint per server, or NULL with an exception thrown. Each
 * server is a [host, port, timeout] list, a keyed array or a redis:// / unix:// URI string. */
rl_cluster *redlock_servers_parse(HashTable *servers, uint32_t arg_num);

/* The one switch for connection reuse: true takes connections from (and returns them to) the
 * process' pool; false keeps private connections closed when the object goes. */
void redlock_servers_set_persistent(rl_cluster *cluster, bool persistent);

/* Before the first call every server reports "no error". */
void redlock_outcomes_reset(rl_outcome *outcomes, size_t count);

/* getLastErrors(): per server, null for a yes vote, else why not. */
void redlock_outcomes_to_array(zval *return_value, const rl_outcome *outcomes, size_t count);

/* ["redis://127.0.0.1:6379/0", "unix:///run/redis.sock?db=0", ...] without credentials. */
void redlock_servers_describe(zval *return_value, const rl_cluster *cluster);

#endif
