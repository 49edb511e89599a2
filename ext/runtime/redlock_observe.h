/* The observer's call (redlock_observe.c): the array of the object's last call, handed to its
 * observer under the callables' rule (redlock_callable.h); and a server's eviction warning. Converts
 * what the client recorded (rl_client.last); decides nothing. */
#ifndef REDLOCK_OBSERVE_H
#define REDLOCK_OBSERVE_H

#include "php.h"
#include "runtime/redlock_object.h"

/* Calls the object's observer, when it has one, with the array of its last call (client.last):
 * call is the public method's name, names the resource as the caller gave it. After the result is
 * known, before the method returns. An exception the observer throws is swallowed and counted
 * (metrics()['observer_errors']); one pending before is kept. Not reentrant: calls the observer
 * makes on the same object are not observed. */
void redlock_observe(redlock_object *intern, const char *call, const zval *names);

/* Server i's warning (getServerWarnings(), the observer's 'warning'): its maxmemory-policy can evict
 * lock keys, or is unknown; else null. From what the object's connections learnt. */
void redlock_server_warning(zval *into, const rl_cluster *cluster, size_t i);

#endif
