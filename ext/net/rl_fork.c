/* See rl_fork.h. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
# define _GNU_SOURCE /* dladdr() */
#endif
#include "net/rl_fork.h"

#ifndef _WIN32
# include <dlfcn.h>
# include <pthread.h>

void rl_fork_guard(void (*prepare)(void), void (*in_parent)(void), void (*in_child)(void))
{
# if defined(RTLD_NODELETE) && defined(RTLD_NOLOAD)
	Dl_info info;

	if (dladdr((void *) &rl_fork_guard, &info) != 0 && info.dli_fname != NULL) {
		(void) dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE); /* never closed */
	}
# endif
	pthread_atfork(prepare, in_parent, in_child);
}

#else

void rl_fork_guard(void (*prepare)(void), void (*in_parent)(void), void (*in_child)(void))
{
	(void) prepare;
	(void) in_parent;
	(void) in_child;
}

#endif
