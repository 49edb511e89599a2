/* The RedLock object: what the face's method files and the runtime share. Zend only: every
 * decision is the plain-C client's (client/rl_client.h). The steps the methods share are in
 * redlock_calls.h; run()'s registry in redlock_running.h. */
#ifndef REDLOCK_OBJECT_H
#define REDLOCK_OBJECT_H

#include "php.h"
#include "client/rl_client.h"

typedef struct redlock_object {
	rl_client client;    /* client.cluster is NULL until the constructor succeeded */
	zend_string *prefix; /* 'prefix': prepended to every key; NULL for none */
	uint32_t running;    /* run() calls in progress */
	struct redlock_object *run_prev, *run_next; /* on the list of objects with run() calls in progress */
	bool run_listed;
	zval observer;       /* 'observer' / setObserver(): a callable, UNDEF for none */
	zval on_loss;        /* 'onLoss': a callable, UNDEF for none */
	HashTable *loss_locks; /* 'onLoss': token => the lock array handed out (redlock_loss.c) */
	struct redlock_loss_watch *loss_watch;
	zend_object std;
} redlock_object;

extern zend_class_entry *redlock_exception_ce;

static inline redlock_object *redlock_from_obj(zend_object *obj)
{
	return (redlock_object *) ((char *) obj - offsetof(redlock_object, std));
}

#define Z_REDLOCK_P(zv) redlock_from_obj(Z_OBJ_P(zv))

#endif
