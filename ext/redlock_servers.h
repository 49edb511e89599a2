/* Turns the PHP $servers argument into endpoints of an rl_cluster, rejecting bad input with
 * a ValueError/TypeError that names the argument and the server's index. */
#ifndef REDLOCK_SERVERS_H
#define REDLOCK_SERVERS_H

#include "php.h"
#include "rl_fanout.h"

/* Returns a cluster with one endpoint per server, or NULL with an exception thrown. */
rl_cluster *redlock_servers_parse(HashTable *servers, uint32_t arg_num);

#endif
