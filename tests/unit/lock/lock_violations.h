/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lock checks' reports counted, not aborting the test: for the tests of
 * the lock wrapper and of every rule written with it (sdsi_lock.h).
 */
#ifndef SDSI_TESTS_UNIT_LOCK_VIOLATIONS_H
#define SDSI_TESTS_UNIT_LOCK_VIOLATIONS_H

#define LOCK_VIOLATION_TEXT 256

/* Reports since lock_violations_count(), the first and the latest of them. */
extern unsigned int lock_violations;
extern char lock_first_violation[LOCK_VIOLATION_TEXT];
extern char lock_last_violation[LOCK_VIOLATION_TEXT];

/*
 * Zero the count and the messages and count from now on, until
 * sdsi_lock_set_violation_hook(NULL) restores the default (abort).
 */
void lock_violations_count(void);

#endif /* SDSI_TESTS_UNIT_LOCK_VIOLATIONS_H */
