/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control page: sdsi-shmem's control requests (control.h) carried in
 * the shared window itself, in the page after the sockets' slots.  It is
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
#ifndef SDSI_SHMEM_CTLPAGE_H
#define SDSI_SHMEM_CTLPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdsi/window.h"

/* sdsi-shmem's (control.h): only its server half serves the page. */
struct shmem_machine;

struct sdsi_ctlpage {
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

_Static_assert(sizeof(struct sdsi_ctlpage) <= SDSI_CTLPAGE_SIZE,
	       "the control page outgrew its page");
/* The structure is the layout of sdsi/window.h, word for word. */
_Static_assert(offsetof(struct sdsi_ctlpage, magic) == SDSI_CTLPAGE_OFF_MAGIC &&
	       offsetof(struct sdsi_ctlpage, version) == SDSI_CTLPAGE_OFF_VERSION &&
	       offsetof(struct sdsi_ctlpage, request) == SDSI_CTLPAGE_OFF_REQUEST &&
	       offsetof(struct sdsi_ctlpage, reply) == SDSI_CTLPAGE_OFF_REPLY &&
	       offsetof(struct sdsi_ctlpage, sockets) == SDSI_CTLPAGE_OFF_SOCKETS &&
	       offsetof(struct sdsi_ctlpage, doorbell) == SDSI_CTLPAGE_OFF_DOORBELL &&
	       offsetof(struct sdsi_ctlpage, ring) == SDSI_CTLPAGE_OFF_RING &&
	       offsetof(struct sdsi_ctlpage, answered) == SDSI_CTLPAGE_OFF_ANSWERED &&
	       offsetof(struct sdsi_ctlpage, timed) == SDSI_CTLPAGE_OFF_TIMED &&
	       offsetof(struct sdsi_ctlpage, request_text) == SDSI_CTLPAGE_OFF_REQUEST_TEXT &&
	       offsetof(struct sdsi_ctlpage, reply_text) == SDSI_CTLPAGE_OFF_REPLY_TEXT,
	       "struct sdsi_ctlpage follows sdsi/window.h");

/* Where the page sits in a window of that many sockets. */
static inline uint64_t sdsi_ctlpage_offset(unsigned int sockets)
{
	return (uint64_t)sockets * SDSI_WINDOW_SLOT_SIZE;
}

/*
 * Clear the page and announce it (call once the sockets are laid out).  A
 * server that answers the doorbell sets page->doorbell before this call.
 */
void sdsi_ctlpage_open(struct sdsi_ctlpage *page, unsigned int sockets);

/*
 * Withdraw the announcement and the doorbell (on exit: the far side must
 * not wait on us).
 */
void sdsi_ctlpage_close(struct sdsi_ctlpage *page);

/*
 * Answer the pending request, if any; true if it was answered.  A request
 * that changed during the copy is left for the next call.
 */
bool sdsi_ctlpage_serve(struct sdsi_ctlpage *page,
			struct shmem_machine *machine);

/*
 * test seam: the client side, for processes that share the window; only
 * tests/unit/shmem/ calls it (docs/testing.md, "Test seams").  It sends one request line and wait up to timeout_ms for the reply, which is
 * copied to reply.  A request still unanswered (an earlier client's that
 * timed out) is waited for first, within the same timeout.  0, -ENODEV if
 * no server announced the page, -EBUSY if the earlier request was not
 * answered in time (nothing was sent), or -ETIMEDOUT.
 */
int sdsi_ctlpage_request(struct sdsi_ctlpage *page, const char *request,
			 char *reply, size_t replylen, unsigned int timeout_ms);

#endif /* SDSI_SHMEM_CTLPAGE_H */
