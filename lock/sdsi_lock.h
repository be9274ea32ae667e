/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A mutex that knows which thread holds it, so that a function whose rule is
 * "the caller holds lock X" can check it (docs/architecture.md, "Locks").
 *
 * The owner is written by the holder only, with relaxed atomics: a thread
 * asking "do I hold it?" either wrote its own id there itself (it holds it)
 * or finds another thread's id or none, never its own.  So the question needs
 * no ordering and is free of data races, whoever asks.
 *
 * sdsi_assert_held() and sdsi_assert_held_either() are the checks.  They are
 * compiled in unless NDEBUG is defined, that is unless meson's b_ndebug is
 * true (release builds with b_ndebug=if-release), the same switch as
 * assert().  A broken rule prints the file, line, function and the lock's
 * expression, then aborts; a test may install a hook instead.
 */
#ifndef SDSI_LOCK_H
#define SDSI_LOCK_H

#include <pthread.h>
#include <stdbool.h>

struct sdsi_lock {
	pthread_mutex_t mutex;
	pthread_t owner;	/* atomic; 0 while nobody holds it */
};

void sdsi_lock_init(struct sdsi_lock *l);
void sdsi_lock_destroy(struct sdsi_lock *l);
void sdsi_lock_take(struct sdsi_lock *l);
void sdsi_lock_release(struct sdsi_lock *l);
/* Whether the calling thread holds l (always answered, NDEBUG or not). */
bool sdsi_lock_held(const struct sdsi_lock *l);

/*
 * Called with a message when a rule is broken.  The default prints it and
 * aborts; NULL restores the default.  For tests that count violations.
 */
typedef void (*sdsi_lock_violation_fn)(const char *msg);
void sdsi_lock_set_violation_hook(sdsi_lock_violation_fn fn);
void sdsi_lock_violation(const char *what, const char *file, int line,
			 const char *func);

#ifdef NDEBUG
#define SDSI_LOCK_ASSERTS	0
#define sdsi_assert_held(l)		((void)0)
#define sdsi_assert_held_either(a, b)	((void)0)
#else
#define SDSI_LOCK_ASSERTS	1
#define sdsi_assert_held(l)						\
	((void)(sdsi_lock_held(l) ||					\
		(sdsi_lock_violation(#l, __FILE__, __LINE__, __func__), 0)))
#define sdsi_assert_held_either(a, b)					\
	((void)(sdsi_lock_held(a) || sdsi_lock_held(b) ||		\
		(sdsi_lock_violation(#a " or " #b, __FILE__, __LINE__,	\
				     __func__), 0)))
#endif

#endif /* SDSI_LOCK_H */
