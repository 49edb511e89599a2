/* Force-included (-include) before every ext/ file the real-code simulation compiles, and only
 * there: the system calls the connection layer makes become the simulated kernel's (kernel.c).
 * The ext/ sources are the extension's own, byte for byte; nothing in ext/ knows about this.
 * Build with -U_FORTIFY_SOURCE, so that glibc's inline wrappers do not call the real recv(). */
#ifndef SIM_SEAM_H
#define SIM_SEAM_H

#define socket sim_socket
#define connect sim_connect
#define fcntl sim_fcntl
#define setsockopt sim_setsockopt
#define getsockopt sim_getsockopt
#define send sim_send
#define recv sim_recv
#define poll sim_poll
#define close sim_close
#define clock_gettime sim_clock_gettime

#endif
