// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>

#include "sdsi_lock.h"

static sdsi_lock_violation_fn violation_hook;

void sdsi_lock_init(struct sdsi_lock *l)
{
	pthread_mutex_init(&l->mutex, NULL);
	__atomic_store_n(&l->owner, (pthread_t)0, __ATOMIC_RELAXED);
}

void sdsi_lock_destroy(struct sdsi_lock *l)
{
	pthread_mutex_destroy(&l->mutex);
}

void sdsi_lock_take(struct sdsi_lock *l)
{
	pthread_mutex_lock(&l->mutex);
	__atomic_store_n(&l->owner, pthread_self(), __ATOMIC_RELAXED);
}

void sdsi_lock_release(struct sdsi_lock *l)
{
	/* Cleared before the unlock: the next holder writes its own id. */
	__atomic_store_n(&l->owner, (pthread_t)0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&l->mutex);
}

bool sdsi_lock_held(const struct sdsi_lock *l)
{
	pthread_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

	return owner != (pthread_t)0 && pthread_equal(owner, pthread_self());
}

void sdsi_lock_set_violation_hook(sdsi_lock_violation_fn fn)
{
	__atomic_store_n(&violation_hook, fn, __ATOMIC_RELEASE);
}

void sdsi_lock_violation(const char *what, const char *file, int line,
			 const char *func)
{
	sdsi_lock_violation_fn hook = __atomic_load_n(&violation_hook, __ATOMIC_ACQUIRE);
	char msg[256];

	snprintf(msg, sizeof(msg), "%s:%d: %s() called without holding %s",
		 file, line, func, what);
	if (hook) {
		hook(msg);
		return;
	}
	fprintf(stderr, "sdsi: lock rule broken: %s\n", msg);
	abort();
}
