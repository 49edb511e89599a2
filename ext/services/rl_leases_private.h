/* What the registry of leases (rl_leases.c) and its renewal thread (rl_renewal.c) share. Private
 * to services/: see rl_leases.h for the API. */
#ifndef RL_LEASES_PRIVATE_H
#define RL_LEASES_PRIVATE_H

#include "services/rl_leases.h"

#ifdef _WIN32
/* No threads here: the registry is used by the PHP thread alone and renew is refused. */
# define LOCK() ((void) 0)
# define UNLOCK() ((void) 0)
#else
# include <pthread.h>
/* One mutex for every registry: held only for bookkeeping, never across I/O. */
extern pthread_mutex_t rl_leases_lock;
# define LOCK() pthread_mutex_lock(&rl_leases_lock)
# define UNLOCK() pthread_mutex_unlock(&rl_leases_lock)
#endif

/* One tracked lock. Its strings are the registry's own copies. */
typedef struct lease {
	struct lease *next;
	char *token;
	size_t token_len;
	rl_lock_target held; /* keys point into keys_copy/lens_copy */
	char **keys_copy;
	size_t *lens_copy;
	int64_t ttl;
	double due;          /* rl_now_ms() of the next renewal */
	double valid_until;  /* end of the last validity won: past it the lease is lost */
	double expires_at;   /* past it no server can still hold the keys: safe to forget */
	double taken_at;     /* rl_now_ms() when it was taken (tracked): the clock-jump rule's "before" */
	int64_t left;        /* extensions still allowed; < 0: no cap */
	int lost;
	int loss_counted;    /* telemetry: its loss was counted (once) */
	rl_loss_reason loss_reason; /* set with loss_counted */
	int loss_taken;      /* 'onLoss': handed to rl_leases_take_losses */
	int pinned;
	void (*raise)(void *); /* abortOnLoss: told at once when the lease is found lost */
	void *raise_arg;
	int converting;      /* promote()/demote() is changing its form: renewed, never judged lost */
	int renewal_failing; /* its last renewal missed the quorum without a clean "no": retried while valid */
	int busy;            /* the thread is renewing it, without the lock held */
	int alone;           /* its last renewal in a batch did not win: the next one goes alone */
	int removed;         /* forgotten while busy: the thread frees it when done */
	uint32_t *masters;   /* per server, the master that holds it (rl_cluster_note_masters); NULL: no Sentinel member */
	unsigned char *lost_on; /* per server, known to have lost its key (rl_leases_note_votes); NULL: none known */
	rl_heal *heals;      /* per server, a heal not known to have landed in time (rl_leases_heals); NULL: none */
} lease;

/* The heals of a lock the registry does not track as a lease (an object without autoExtend, maxExtensions
 * or onLoss; a lock handed to it), kept until they are known landed or the lock is unlocked. */
typedef struct heal_record {
	struct heal_record *next;
	char *token;
	size_t token_len;
	rl_heal *heals;
} heal_record;

/* At most this many heal records: beyond it the oldest is forgotten (docs/design/renewal.md#a-heal-that-lands-late). */
#define RL_HEAL_RECORDS_MAX 1024

/* The votes of a round trip on e's keys (count servers), under the lock: rl_leases_note_votes. */
void rl_lease_note_votes(lease *e, const rl_outcome *outcomes, size_t count, int acquired);
/* Heals kept (NULL: none) copied for an extend, and what it made of them merged back, under the lock:
 * rl_leases_heals, rl_leases_note_heals. The merge returns 1 when some are still pending. */
void rl_heals_copy(const rl_heal *kept, rl_heal *into, size_t count);
int rl_heals_merge(rl_heal **kept, const rl_heal *before, const rl_heal *after, size_t count);

struct rl_leases {
	struct rl_leases *next_all; /* every registry of the process, for rl_leases_stop_owned */
	const void *owner;
	lease *leases;
	size_t count;
	heal_record *records; /* newest first */
	size_t nrecords;
	int64_t max_extensions;
	double drift_factor;
	int renew;
	uint64_t renewed_events, lost_events; /* telemetry since the last rl_leases_take_events */
	void (*loss_notice)(void *);          /* 'onLoss' (rl_leases_set_loss_notice) */
	void *loss_notice_arg;
	/* The renewal thread and its own connections (renew only). */
	rl_cluster *cluster;
	rl_outcome *outcomes;
	unsigned char *lost_on; /* the renewed lease's lost_on, copied under the lock for its extend */
	rl_heal *heals;         /* its heals as copied [0, count), and as its extend left them [count, 2 count) */
	int has_sentinel;       /* a Sentinel member: every lease is renewed alone (the master-changed rule) */
	rl_lock_policy policy;
	rl_lock_io io;
#ifndef _WIN32
	pthread_cond_t wake;
	pthread_t thread;
	int running, stop;
	int io_busy;        /* the thread is using the connections (matters to a forked child) */
	int forked;         /* wake was initialised again in a forked child */
#endif
	long owner_pid;
};

/* Called with the lock held: mark e lost and raise its alarm (its loss counted and noticed once,
 * with its reason); count a renewal; unlink and free a lease. */
void rl_lease_mark_lost(rl_leases *w, lease *e, rl_loss_reason reason);
void rl_lease_count_loss(rl_leases *w, lease *e, rl_loss_reason reason);
void rl_lease_count_renewal(rl_leases *w);
/* Why e, whose validity ran out, is lost: capped or expired. */
rl_loss_reason rl_lease_ran_out(const rl_leases *w, const lease *e);
void rl_lease_unlink(rl_leases *w, lease *e);
void rl_lease_free(lease *e);

/* rl_renewal.c: the thread's connections and condition (0, or -1 when out of memory), its start
 * and join (lock held; join drops it while waiting), what a forked child does with them (lock
 * held), and their end. */
int rl_renewal_init(rl_leases *w, const rl_leases_config *config);
int rl_renewal_start_locked(rl_leases *w);
void rl_renewal_join_locked(rl_leases *w);
void rl_renewal_after_fork_locked(rl_leases *w);
void rl_renewal_free(rl_leases *w);

#endif
