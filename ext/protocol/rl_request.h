/* The vocabulary between the driver (core/) and the network (net/): a command, a request to every
 * server with the vote it expects, each server's outcome, when a fan-out is settled, and the
 * rl_lock_io interface through which the driver reaches the servers (net/rl_fanout.c on sockets,
 * verify/sim/ on a virtual clock). Types only: no sockets, no zvals. */
#ifndef RL_REQUEST_H
#define RL_REQUEST_H

#include <stddef.h>

/* One command: argc arguments, binary-safe. head, when not NULL, is the first head_argc arguments
 * already encoded (rl_resp_put_args: an EVAL and its script, written once at startup), so that
 * the fan-out copies them rather than encoding them on every call; argv still holds every
 * argument, for whoever reads them one by one. */
typedef struct rl_command {
	int argc;
	const char **argv;
	const size_t *argvlen;
	const char *head;
	size_t head_len;
	int head_argc;
} rl_command;

/* Whether a script (its source) builds keys from its KEYS ("KEYS[i] .. 'suffix'": a semaphore's slots, a
 * fence counter, the writers' marks, a fair queue): on a cluster those keys share KEYS[i]'s slot only through
 * a hash tag (net/rl_shards.c), and the memory store bounds the names they derive from (memory/). */
static inline int rl_script_derives_keys(const char *source, size_t len)
{
	static const char pattern[] = "] .. '";
	size_t at, i;

	for (at = 0; at + sizeof(pattern) - 1 <= len; at++) {
		for (i = 0; i < sizeof(pattern) - 1 && source[at + i] == pattern[i]; i++) {
		}
		if (i == sizeof(pattern) - 1) {
			return 1;
		}
	}
	return 0;
}

typedef enum {
	RL_EXPECT_OK = 0,       /* SET NX PX: +OK wins the key, nil means someone else holds it */
	RL_EXPECT_POSITIVE_INT, /* a script: an integer > 0 means done, 0 means not ours */
	RL_EXPECT_HELD,         /* EXEC of [GET key, PTTL key]: yes, with the ms left, where key holds held_token */
	RL_EXPECT_INT,          /* any integer means done (DEL) */
	RL_EXPECT_INSPECT       /* EXEC of core/rl_inspect.c's reads: yes where the key is held, taken where free */
} rl_expect;

typedef enum {
	RL_OUTCOME_PENDING = 0,
	RL_OUTCOME_YES,
	RL_OUTCOME_TAKEN,    /* a clean "no": held by another owner, or not held by us */
	RL_OUTCOME_CONNECT,  /* could not connect */
	RL_OUTCOME_TIMEOUT,  /* no answer within the server's timeout or the call's deadline */
	RL_OUTCOME_IO,       /* the connection broke */
	RL_OUTCOME_ERROR     /* the server answered with an error */
} rl_outcome_kind;

#define RL_MESSAGE_MAX 160

typedef struct rl_outcome {
	rl_outcome_kind kind;
	long long integer;            /* an integer reply's value, when there was one */
	char message[RL_MESSAGE_MAX]; /* why it was not a yes, truncated */
	double latency_ms;            /* ms from the send to this outcome (telemetry); < 0 while PENDING */
} rl_outcome;

/* RL_EXPECT_INSPECT: what one server's EXEC said of a resource key (rl_reply_classify_inspect). */
typedef enum {
	RL_KEY_NONE = 0,
	RL_KEY_STRING, /* an exclusive (or fenced) lock's token */
	RL_KEY_HASH,   /* a shared lock's readers */
	RL_KEY_OTHER
} rl_key_type;

#define RL_INSPECT_VALUE_MAX 64 /* a string key's value kept whole up to this (a token is 48) */

/* A shared reader's token (a field of the hash: HKEYS) or a semaphore slot's (MGET of the slot keys). */
typedef struct rl_inspected_token {
	long long slot;  /* the slot, -1 for a reader */
	long long whole; /* the string's whole length: a value longer than bytes is kept by its head */
	size_t len;      /* of bytes */
	char bytes[RL_INSPECT_VALUE_MAX];
} rl_inspected_token;

typedef struct rl_inspected {
	rl_key_type type;
	char value[RL_INSPECT_VALUE_MAX]; /* a string key's value (its token), when it fits whole */
	size_t value_len;                 /* 0: none, or longer than RL_INSPECT_VALUE_MAX */
	long long pttl;    /* the key's PTTL: -2 none, -1 no expiry */
	long long holders; /* a hash's fields (HKEYS' count), else 0 */
	long long fence;   /* the key's fence counter, -1 when it has none */
	long long slots;   /* semaphore slot keys that hold a string (MGET), 0 when none were asked */
	/* the readers' and the slots' tokens, malloc'd (rl_reply_classify_inspect frees the last ones
	 * first: start from zeroes); the caller frees tokens */
	rl_inspected_token *tokens;
	size_t ntokens;
	long long waiters; /* fair waiting's queue (ZCARD <key>:fair), 0 when none */
} rl_inspected;

typedef struct rl_request {
	rl_command command;
	rl_expect expect;
	/* Optional, for votes that are not plain yes/no (a semaphore's slots): whether the outcomes so
	 * far (PENDING for servers still out) leave the call undecided. NULL: until the quorum of yes
	 * votes is won or lost. */
	int (*undecided)(const rl_outcome *outcomes, size_t count, unsigned quorum);
	/* Sent instead of command to a connection whose server has it (net/rl_conn.h RL_NATIVE_*): [0] for
	 * DELEX, [1] for DELIFEQ; argc 0 when none. Same expect. */
	rl_command native[2];
	/* 'scripts' => false: never send command (the script) itself. A connection whose server has
	 * neither native command, or has not yet said which, gets an error vote instead. */
	int lua_forbidden;
	/* batch_len > 0: batch's commands are sent instead of command, pipelined, and the last one's
	 * reply is the vote (MULTI ... EXEC); the others' are read and passed over. */
	const rl_command *batch;
	unsigned batch_len;
	/* An extend (every kind, explicit or a renewal): the members known to have lost our key are
	 * awaited within the call's deadline, whatever the quorum, so that the self-healing that follows
	 * sees their "not ours" (docs/design/renewal.md#which-members-an-extend-awaits). Known: lost_on[i]
	 * set by the caller (its last extend found the key missing there; NULL: none), or a connection
	 * this call opens over one that had been ready (the server restarted or dropped it). */
	int heals;
	const unsigned char *lost_on;
	/* RL_EXPECT_HELD: the token the key must hold */
	const char *held_token;
	size_t held_token_len;
	/* RL_EXPECT_INSPECT: one per server, filled from its EXEC reply */
	rl_inspected *inspected;
	/* spread > 0: the reply answers for spread requests at once, a status line of one character each,
	 * '1' or '0' read as the integer 1 or 0 (RL_SCRIPT_EXTEND_MANY; rl_reply_classify_row): request
	 * r's votes are spread rows of rl_fanout_run_many's outcomes. 0: one reply, one row. */
	unsigned spread;
} rl_request;

/* An rl_request.undecided that waits for every server's reply (or its timeout), whatever the
 * quorum: for round trips whose every vote is needed. */
static inline int rl_request_every_reply(const struct rl_outcome *outcomes, size_t count, unsigned quorum)
{
	(void) outcomes, (void) count, (void) quorum;
	return 1;
}

typedef enum {
	RL_QUORUM_UNDECIDED = 0,
	RL_QUORUM_WON,
	RL_QUORUM_LOST
} rl_quorum_state;

/* Decided as soon as the yes votes reach the quorum, or the servers still out cannot lift them there. */
static inline rl_quorum_state rl_quorum_decide(unsigned yes, unsigned answered, unsigned servers, unsigned quorum)
{
	if (yes >= quorum) {
		return RL_QUORUM_WON;
	}
	if (yes + (servers - answered) < quorum) {
		return RL_QUORUM_LOST;
	}
	return RL_QUORUM_UNDECIDED;
}

/* Where the driver's commands go, and where its clock and randomness come from. The real one
 * (rl_fanout_io) runs on sockets; a simulation substitutes its own. */
typedef struct rl_lock_io {
	void *arg;
	/* Sends request to every server and gathers the votes (see rl_fanout_run). */
	unsigned (*run)(void *arg, const rl_request *request, unsigned quorum, double deadline_ms,
		rl_outcome *outcomes);
	/* Sends a command everywhere without waiting for its replies. */
	void (*send)(void *arg, const rl_command *command);
	/* As send, to the servers i whose to[i] is non-zero only (one flag per server). */
	void (*send_to)(void *arg, const rl_command *command, const unsigned char *to);
	/* Waits until until_ms (rl_now_ms clock), keeping the connections in step meanwhile. */
	void (*pause)(void *arg, double until_ms);
	double (*now)(void *arg);
	/* The stream what is sent to server goes on now (a connection's life, unique in the process): what
	 * was sent before on it is answered before. 0 when none is open. NULL: not known (then no reply
	 * shows an earlier command landed). */
	unsigned long long (*stream)(void *arg, size_t server);
	/* Fills len bytes from a CSPRNG: 0, or -1 when none can be had (the call then fails). */
	int (*random)(void *arg, void *into, size_t len);
} rl_lock_io;

#endif
