/* SPDX-License-Identifier: GPL-2.0-only */
/* The status command, and the faults it lists. */
#ifndef EMU_CONTROL_STATUS_H
#define EMU_CONTROL_STATUS_H

#include "control_commands.h"
#include "control_response.h"

/* status: one JSON object per socket and line. */
void emu_control_status(struct emu_control_target *t, int argc, char **argv,
			struct emu_response *r);

/* Remember a fault armed (armed = true) or cleared on a socket for status. */
void emu_record_fault(struct emu_control_target *t, unsigned int socket,
		      const struct emu_fault_request *f, bool armed);

#endif /* EMU_CONTROL_STATUS_H */
