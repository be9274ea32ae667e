// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lock wrapper: it answers "held" to its holder only, its checks count
 * through a hook, and without one a broken rule aborts the process with a
 * message naming the place and the lock.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lock/sdsi_lock.h"
#include "lock_violations.h"

static int use_counting_hook(void **state)
{
	lock_violations_count();
	return 0;
}

static int use_default_hook(void **state)
{
	sdsi_lock_set_violation_hook(NULL);
	return 0;
}

static void *held_elsewhere(void *arg)
{
	return sdsi_lock_held(arg) ? arg : NULL;
}

static void test_held_by_the_taker_only(void **state)
{
	struct sdsi_lock l;
	pthread_t t;
	void *seen;

	sdsi_lock_init(&l);
	assert_false(sdsi_lock_held(&l));
	sdsi_lock_take(&l);
	assert_true(sdsi_lock_held(&l));
	assert_int_equal(pthread_create(&t, NULL, held_elsewhere, &l), 0);
	assert_int_equal(pthread_join(t, &seen), 0);
	assert_null(seen);
	sdsi_lock_release(&l);
	assert_false(sdsi_lock_held(&l));
	sdsi_lock_destroy(&l);
}

struct holder {
	struct sdsi_lock *lock;
	pthread_barrier_t taken, checked;
};

/* Holds the lock from the first barrier to the second. */
static void *take_and_hold(void *arg)
{
	struct holder *h = arg;

	sdsi_lock_take(h->lock);
	pthread_barrier_wait(&h->taken);
	pthread_barrier_wait(&h->checked);
	sdsi_lock_release(h->lock);
	return NULL;
}

/* Locked, but by another thread: the rule is still broken for us. */
static void test_assert_counts(void **state)
{
	struct sdsi_lock a, b;
	struct holder h = { .lock = &b };
	pthread_t t;

	if (!SDSI_LOCK_ASSERTS)
		skip();
	sdsi_lock_init(&a);
	sdsi_lock_init(&b);
	sdsi_assert_held(&a);
	assert_int_equal(lock_violations, 1);
	assert_non_null(strstr(lock_last_violation, "test_assert_counts() called without holding &a"));
	sdsi_lock_take(&a);
	sdsi_assert_held(&a);
	sdsi_assert_held_either(&a, &b);
	sdsi_assert_held_either(&b, &a);
	assert_int_equal(lock_violations, 1);
	sdsi_assert_held(&b);
	assert_int_equal(lock_violations, 2);
	sdsi_lock_release(&a);
	sdsi_assert_held_either(&a, &b);
	assert_int_equal(lock_violations, 3);
	assert_non_null(strstr(lock_last_violation, "&a or &b"));

	pthread_barrier_init(&h.taken, NULL, 2);
	pthread_barrier_init(&h.checked, NULL, 2);
	assert_int_equal(pthread_create(&t, NULL, take_and_hold, &h), 0);
	pthread_barrier_wait(&h.taken);
	sdsi_assert_held(&b);
	assert_int_equal(lock_violations, 4);
	pthread_barrier_wait(&h.checked);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_barrier_destroy(&h.taken);
	pthread_barrier_destroy(&h.checked);
	sdsi_lock_destroy(&a);
	sdsi_lock_destroy(&b);
}

/* The default: the message on stderr, then SIGABRT. */
static void test_default_aborts(void **state)
{
	char out[512] = "";
	int pipefd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (!SDSI_LOCK_ASSERTS)
		skip();
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sdsi_lock l;

		dup2(pipefd[1], STDERR_FILENO);
		sdsi_lock_init(&l);
		sdsi_assert_held(&l);
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], out + got, sizeof(out) - 1 - (size_t)got)) > 0)
		got += n;
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out, "sdsi: lock rule broken: "));
	assert_non_null(strstr(out, "test_lock.c:"));
	assert_non_null(strstr(out, "called without holding &l"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_by_the_taker_only),
		cmocka_unit_test_setup_teardown(test_assert_counts, use_counting_hook,
						use_default_hook),
		cmocka_unit_test_setup(test_default_aborts, use_default_hook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
