// SPDX-License-Identifier: GPL-2.0-only
/* The window file of the shmem tests (window_file.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "window_memfd.h"

int window_memfd(const char *name, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	return fd;
}

void *window_map(int fd, size_t size)
{
	void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	assert_true(map != MAP_FAILED);
	return map;
}
