/* fork() and the threads of the plain-C layers (the renewal thread, the lookup threads, the memory://
 * servers' thread): a mutex a thread holds when another thread forks stays locked in the child, where
 * no thread is left to unlock it. */
#ifndef RL_FORK_H
#define RL_FORK_H

/* Registers the handlers that take a mutex before fork() and release it after, in the parent and in
 * the child, and keeps the module loaded until the process ends: PHP unloads extensions at shutdown
 * (dlclose), and the handlers (and a thread still running) must not point into unmapped code then.
 * Call once per mutex (from a pthread_once). Nothing on Windows, which has no fork(). */
void rl_fork_guard(void (*prepare)(void), void (*in_parent)(void), void (*in_child)(void));

#endif
