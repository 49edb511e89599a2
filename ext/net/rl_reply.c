/* What a server's reply means for a vote. See rl_reply.h. */
#include <string.h>

#include "net/rl_reply.h"

void rl_outcome_set_bytes(rl_outcome *out, rl_outcome_kind kind, const char *bytes, size_t len)
{
	size_t i;

	out->kind = kind;
	if (len >= RL_MESSAGE_MAX) {
		len = RL_MESSAGE_MAX - 1;
	}
	/* Error texts are shown to users: keep them printable and free of embedded NULs. */
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char) bytes[i];
		out->message[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char) ch;
	}
	out->message[len] = '\0';
}

void rl_outcome_set(rl_outcome *out, rl_outcome_kind kind, const char *message)
{
	rl_outcome_set_bytes(out, kind, message, message ? strlen(message) : 0);
}

void rl_reply_classify_any(const rl_reply *reply, rl_expect expect, rl_outcome *out)
{
	out->integer = 0;
	if (reply->type == RL_REPLY_ERROR) {
		rl_outcome_set_bytes(out, RL_OUTCOME_ERROR, reply->str, reply->len);
		return;
	}
	switch (expect) {
		case RL_EXPECT_OK:
			if (reply->type == RL_REPLY_STATUS && reply->len == 2 && reply->str[0] == 'O' && reply->str[1] == 'K') {
				out->kind = RL_OUTCOME_YES;
				out->message[0] = '\0';
				return;
			}
			if (reply->type == RL_REPLY_NIL) {
				rl_outcome_set(out, RL_OUTCOME_TAKEN, "taken");
				return;
			}
			break;
		case RL_EXPECT_POSITIVE_INT:
			if (reply->type == RL_REPLY_INTEGER) {
				out->integer = reply->integer;
				if (reply->integer > 0) {
					out->kind = RL_OUTCOME_YES;
					out->message[0] = '\0';
				} else {
					rl_outcome_set(out, RL_OUTCOME_TAKEN, "taken");
				}
				return;
			}
			break;
	}
	rl_outcome_set(out, RL_OUTCOME_ERROR, "unexpected reply type");
}

int rl_outcomes_scripts_refused(const rl_outcome *outcomes, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (outcomes[i].kind == RL_OUTCOME_ERROR && strncmp(outcomes[i].message, "NOPERM", 6) == 0
			&& strstr(outcomes[i].message, "'eval'") != NULL) {
			return 1;
		}
	}
	return 0;
}
