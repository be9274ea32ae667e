// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "lock/sdsi_lock.h"
#include "lock_violations.h"

unsigned int lock_violations;
char lock_first_violation[LOCK_VIOLATION_TEXT];
char lock_last_violation[LOCK_VIOLATION_TEXT];

static void count_violation(const char *msg)
{
	if (lock_violations++ == 0)
		strncpy(lock_first_violation, msg, sizeof(lock_first_violation) - 1);
	strncpy(lock_last_violation, msg, sizeof(lock_last_violation) - 1);
}

void lock_violations_count(void)
{
	lock_violations = 0;
	lock_first_violation[0] = '\0';
	lock_last_violation[0] = '\0';
	sdsi_lock_set_violation_hook(count_violation);
}
