/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The temporary directories the model tests keep keys and NVRAM files in:
 * flat, so removing one is removing its files, then itself.
 */
#ifndef SDSI_TESTS_UNIT_MODEL_SCRATCH_DIR_H
#define SDSI_TESTS_UNIT_MODEL_SCRATCH_DIR_H

struct tsock;

/* Best effort: a test's teardown must go on whatever is left. */
void scratch_dir_remove(const char *dir);

/*
 * The teardown of a socket whose NVRAM lives in DIR: a test may have closed
 * the socket itself (a power cycle) or failed with it open, so close it
 * only if open, then remove DIR.
 */
void scratch_socket_remove(struct tsock *ts, const char *dir);

#endif /* SDSI_TESTS_UNIT_MODEL_SCRATCH_DIR_H */
