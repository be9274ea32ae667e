/* SPDX-License-Identifier: GPL-2.0-only */
/* The status command. */
#ifndef EMU_CONTROL_STATUS_H
#define EMU_CONTROL_STATUS_H

#include "control_commands.h"
#include "control_response.h"

/* status: one JSON object per socket and line. */
void emu_control_status(struct emu_control_target *t, int argc, char **argv,
			struct emu_response *r);

#endif /* EMU_CONTROL_STATUS_H */
