/* Swoole's Zend side: what the Swoole waiter (net/rl_wait_swoole.c, plain C) cannot see itself. */
#ifndef REDLOCK_SWOOLE_H
#define REDLOCK_SWOOLE_H

void redlock_swoole_startup(void);     /* MINIT: registers the Swoole waiter when Swoole is loaded */
void redlock_swoole_request_end(void); /* RSHUTDOWN: drops what a cancelled wait remembered */

#endif
