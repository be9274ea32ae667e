// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdsi_path.h's outputs on a filesystem that refuses RENAME_NOREPLACE, as
 * 9p (the kernel rig's results share) and some network filesystems do:
 * renameat2() with any flag fails with EINVAL.  A seccomp filter makes this
 * process's kernel answer so, on the local filesystem; a new name is still
 * never given to a file over one that appeared meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "path_scratch.h"
#include "util/util_array.h"

#if defined(__x86_64__)
#define THIS_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#else
#error "test_path_output_9p: add this architecture's AUDIT_ARCH"
#endif

/* renameat2(..., flags != 0) fails with EINVAL; everything else passes. */
static void refuse_rename_flags(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_renameat2, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* flags is an unsigned int: the low word of the fifth argument. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
	};
	struct sock_fprog prog = { .len = UTIL_ARRAY_SIZE(code), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("test_path_output_9p: seccomp");
		exit(1);
	}
}

static void test_filter_answers_as_9p(void **state)
{
	(void)state;
	write_text("a", "a", 0600);
	assert_int_equal(syscall(SYS_renameat2, AT_FDCWD, in_dir("a"), AT_FDCWD, "/nonexistent/b",
				 RENAME_NOREPLACE), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_new_file_placed(void **state)
{
	struct sdsi_path_output out;

	(void)state;
	assert_int_equal(sdsi_path_output_open(&out, in_dir("akc1.bin"), "-o", SDSI_PATH_NOREPLACE,
					       err, sizeof(err)), 0);
	assert_int_equal(sdsi_path_output_commit(&out, "akc", 3, 0644, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	assert_file("akc1.bin", "akc", 0644);
	assert_entries(1);	/* the temporary name is gone */
}

static void test_name_taken_meanwhile_kept(void **state)
{
	struct sdsi_path_output out;

	(void)state;
	assert_int_equal(sdsi_path_output_open(&out, in_dir("key"), "-o", 0, err, sizeof(err)), 0);
	write_text("key", "precious", 0600);
	assert_int_equal(sdsi_path_output_commit(&out, "new", 3, 0644, err, sizeof(err)), -EEXIST);
	sdsi_path_output_close(&out);
	assert_non_null(strstr(err, "appeared while we wrote"));
	assert_file("key", "precious", 0600);
	assert_entries(1);
}

static void test_existing_file_replaced(void **state)
{
	struct sdsi_path_output out;

	(void)state;
	write_text("report", "old", 0640);
	assert_int_equal(sdsi_path_output_open(&out, in_dir("report"), "-o", 0, err, sizeof(err)), 0);
	assert_int_equal(sdsi_path_output_commit(&out, "newer", 5, 0644, err, sizeof(err)), 0);
	sdsi_path_output_close(&out);
	assert_file("report", "newer", 0640);
	assert_entries(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCRATCH_TEST(test_filter_answers_as_9p),
		SCRATCH_TEST(test_new_file_placed),
		SCRATCH_TEST(test_name_taken_meanwhile_kept),
		SCRATCH_TEST(test_existing_file_replaced),
	};

	refuse_rename_flags();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
