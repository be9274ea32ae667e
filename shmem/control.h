/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control socket of sdsi-shmem: what the sysfs ABI cannot do (power
 * cycles, faults, BIOS settings), one request line per connection, answered
 * with "ok" or "error: REASON".  Requests are served by the polling thread
 * between passes, so the model and the window never change under a pass.
 *
 *   power-cycle N | fault N KIND COUNT PARAM | clear N [KIND]
 *   iblock N on|off | features N VALUE
 */
#ifndef SDSI_SHMEM_CONTROL_H
#define SDSI_SHMEM_CONTROL_H

#include <stddef.h>

#include "sdsi_shmem.h"

struct shmem_machine {
	unsigned int sockets;
	struct sdsi_model **models;
	struct sdsi_shmem_port *ports;
};

/* Listen on a Unix socket at path (replacing a stale one): fd or -errno. */
int shmem_control_listen(const char *path, char *err, size_t errlen);

/*
 * Serve the connections waiting on the listening socket, a few per call
 * (the rest wait for the next), each given 100 ms to send its line.
 */
void shmem_control_serve(int listen_fd, struct shmem_machine *machine);

/* Execute one request line; the answer (without newline) goes to reply. */
void shmem_control_execute(struct shmem_machine *machine, char *line,
			   char *reply, size_t replylen);

#endif /* SDSI_SHMEM_CONTROL_H */
