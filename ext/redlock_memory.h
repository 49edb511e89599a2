/* RedLockMemory (redlock_memory.c): the test double's control. */
#ifndef REDLOCK_MEMORY_H
#define REDLOCK_MEMORY_H

/* MSHUTDOWN: the memory servers' thread stopped, their sockets removed. */
void redlock_memory_shutdown(void);

#endif
