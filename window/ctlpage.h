/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control page: sdsi-shmem's control requests (shmem/control.h) carried
 * in the shared window itself, in the page after the sockets' slots.  It is
 * how a process on the other side of the window reaches the model when no
 * Unix socket can: the kernel rig's tests run in a guest while sdsi-shmem
 * plays the hardware from the host, through the guest's RAM file.
 *
 * Layout: sdsi/window.h (SDSI_CTLPAGE_*): magic and version, the request
 * and reply sequence words, the number of sockets, the doorbell words
 * (doorbell, ring, answered, timed), then the request text and the reply
 * text ("ok" or "error: REASON"), each NUL-terminated.
 * One client at a time: clients on the far side serialise among themselves
 * (tests/sdsikit/targets/kernel.py takes a flock).  A
 * client never rewrites the request text while a request is unanswered
 * (reply != request), and the server executes a text only if request did
 * not move while it copied it, so a client that gave up on a reply cannot
 * have a torn line executed.  The doorbell words are doorbell.h's.
 */
#ifndef SDSI_WINDOW_CTLPAGE_H
#define SDSI_WINDOW_CTLPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdsi/window.h"

struct window_ctlpage {
	uint32_t magic;
	uint32_t version;
	uint32_t request;
	uint32_t reply;
	uint32_t sockets;
	uint32_t doorbell;
	uint32_t ring;
	uint32_t answered;
	uint32_t timed;
	uint8_t reserved[SDSI_CTLPAGE_OFF_REQUEST_TEXT - SDSI_CTLPAGE_OFF_TIMED - 4];
	char request_text[SDSI_CTLPAGE_TEXT];
	char reply_text[SDSI_CTLPAGE_TEXT];
};

_Static_assert(sizeof(struct window_ctlpage) <= SDSI_CTLPAGE_SIZE,
	       "the control page outgrew its page");
/* The structure is the layout of sdsi/window.h, word for word. */
_Static_assert(offsetof(struct window_ctlpage, magic) == SDSI_CTLPAGE_OFF_MAGIC &&
	       offsetof(struct window_ctlpage, version) == SDSI_CTLPAGE_OFF_VERSION &&
	       offsetof(struct window_ctlpage, request) == SDSI_CTLPAGE_OFF_REQUEST &&
	       offsetof(struct window_ctlpage, reply) == SDSI_CTLPAGE_OFF_REPLY &&
	       offsetof(struct window_ctlpage, sockets) == SDSI_CTLPAGE_OFF_SOCKETS &&
	       offsetof(struct window_ctlpage, doorbell) == SDSI_CTLPAGE_OFF_DOORBELL &&
	       offsetof(struct window_ctlpage, ring) == SDSI_CTLPAGE_OFF_RING &&
	       offsetof(struct window_ctlpage, answered) == SDSI_CTLPAGE_OFF_ANSWERED &&
	       offsetof(struct window_ctlpage, timed) == SDSI_CTLPAGE_OFF_TIMED &&
	       offsetof(struct window_ctlpage, request_text) == SDSI_CTLPAGE_OFF_REQUEST_TEXT &&
	       offsetof(struct window_ctlpage, reply_text) == SDSI_CTLPAGE_OFF_REPLY_TEXT,
	       "struct window_ctlpage follows sdsi/window.h");

/* Where the page sits in a window of that many sockets. */
static inline uint64_t window_ctlpage_offset(unsigned int sockets)
{
	return (uint64_t)sockets * SDSI_WINDOW_SLOT_SIZE;
}

/*
 * Clear the page and announce it (call once the sockets are laid out).  A
 * server that answers the doorbell sets page->doorbell before this call.
 */
void window_ctlpage_open(struct window_ctlpage *page, unsigned int sockets);

/*
 * Withdraw the announcement and the doorbell (on exit: the far side must
 * not wait on us).
 */
void window_ctlpage_close(struct window_ctlpage *page);

/*
 * What a request means is the server's: the page only carries its text.
 * The server passes its commands in as this table (sdsi-shmem's are
 * shmem/control.h's), so the protocol depends on no daemon.
 */
struct window_ctlpage_handler {
	void *ctx;
	/*
	 * Execute one request line (NUL-terminated, at most
	 * SDSI_CTLPAGE_TEXT bytes) and write its answer, without newline,
	 * into reply: "ok", the command's output or "error: REASON", for a
	 * command it does not know too.  reply holds replylen bytes; the
	 * page cuts an answer left unterminated at its last byte.
	 */
	void (*execute)(void *ctx, const char *request, char *reply,
			size_t replylen);
};

/*
 * Answer the pending request, if any, through handler; true if it was
 * answered.  A request that changed during the copy is left for the next
 * call, and handler is not called for it.
 */
bool window_ctlpage_serve(struct window_ctlpage *page,
			  const struct window_ctlpage_handler *handler);

/*
 * test seam: the client side, for processes that share the window; only
 * tests/unit/window/ calls it (docs/testing.md, "Test seams").  It sends
 * one request line and waits up to timeout_ms for the reply, which is
 * copied to reply.  A request still unanswered (an earlier client's that
 * timed out) is waited for first, within the same timeout.  0, -ENODEV if
 * no server announced the page, -EBUSY if the earlier request was not
 * answered in time (nothing was sent), or -ETIMEDOUT.
 */
int window_ctlpage_request(struct window_ctlpage *page, const char *request,
			   char *reply, size_t replylen, unsigned int timeout_ms);

#endif /* SDSI_WINDOW_CTLPAGE_H */
