/* What rl_conn.c (the connection's state machine) and rl_connect.c (opening it) share, and no other
 * file sees. Private to net/. */
#ifndef RL_CONN_PRIVATE_H
#define RL_CONN_PRIVATE_H

#include "net/rl_conn.h"

/* rl_connect.c: RESOLVING and the lookup's descriptor turned readable: connect to what it found;
 * CONNECTING and the socket turned writable (or failed): READY, or the next address. 0, or -1 with
 * the reason in *out. And the lookup and addresses a connection holds while opening, let go. */
int rl_conn_finish_lookup(rl_conn *conn, rl_outcome *out);
int rl_conn_finish_connect(rl_conn *conn, rl_outcome *out);
void rl_conn_drop_connect_state(rl_conn *conn);

#endif
