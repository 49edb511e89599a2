/* The one unlink of the intrusive doubly linked lists (the resolver's lookups, the objects watching
 * for loss, the objects inside run()): plain C, no I/O. Here, at the bottom of the layers, so that
 * net/ and runtime/ alike use it (scripts/layers.txt). */
#ifndef RL_LIST_H
#define RL_LIST_H

/* Takes node out of the list whose first node is head, through node's link fields prev and next
 * (their names in its struct); node's own links are left for the caller. */
#define RL_LIST_UNLINK(head, node, prev, next) \
	do { \
		if ((node)->prev) { \
			(node)->prev->next = (node)->next; \
		} else { \
			(head) = (node)->next; \
		} \
		if ((node)->next) { \
			(node)->next->prev = (node)->prev; \
		} \
	} while (0)

#endif
