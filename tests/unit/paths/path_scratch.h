/* SPDX-License-Identifier: GPL-2.0-only */
/* The scratch directory of the sdsi_path.h tests (path_scratch.c). */
#ifndef SDSI_TESTS_UNIT_PATHS_PATH_SCRATCH_H
#define SDSI_TESTS_UNIT_PATHS_PATH_SCRATCH_H

#include <limits.h>
#include <sys/types.h>

#include "paths/sdsi_path.h"

/* Nobody's: owns nothing on a test machine. */
#define OTHER_UID	65534

extern char dir[];			/* this test's directory */
extern char err[SDSI_PATH_ERR_SIZE];	/* the messages of the calls under test */

const char *in_dir(const char *name);	/* dir/name, in a static buffer */
void write_text(const char *name, const char *text, mode_t mode);
void make_link(const char *target, const char *name);	/* both in dir */
int setup(void **state);		/* a fresh dir */
int teardown(void **state);		/* dir removed whole */
void need_root(void);			/* skip: another owner needs chown */
/* name in dir holds exactly text, with mode; dir holds n names (no temporary). */
void assert_file(const char *name, const char *text, mode_t mode);
void assert_entries(int n);

/* A test in its own fresh directory: every test of these files is one. */
#define SCRATCH_TEST(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

#endif /* SDSI_TESTS_UNIT_PATHS_PATH_SCRATCH_H */
