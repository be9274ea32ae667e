/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The window the shmem tests share between the sides they play: a file of
 * the window's size, mapped shared by each side that touches it.  Both
 * assert success, so a rig never runs on half a window.
 */
#ifndef SDSI_TESTS_UNIT_WINDOW_MEMFD_H
#define SDSI_TESTS_UNIT_WINDOW_MEMFD_H

#include <stddef.h>

/* An anonymous file (memfd) of size bytes, for a rig that forks or threads. */
int window_memfd(const char *name, size_t size);
/* The first size bytes of fd, shared and writable. */
void *window_map(int fd, size_t size);

#endif /* SDSI_TESTS_UNIT_WINDOW_MEMFD_H */
