// SPDX-License-Identifier: GPL-2.0-only
/*
 * Throughput of the sysfs ABI as a program sees it: open, read at offset 0,
 * close, repeated, for each file named on the command line, from T threads.
 * Run it inside `sdsi-emu run` to measure the FUSE driver end to end, or on a
 * machine with the real driver.
 *
 * `bench_sysfs compare ROUNDS N KERNEL_FILE FILE...` sets the cost of each
 * FILE against a file of the running kernel's own sysfs: each round times N
 * operations on every file in turn (the order rotating from round to round),
 * so that both sides see the same load on a shared machine, and the figures
 * are the median and the spread over the rounds of each file's µs per
 * operation and of its ratio to the kernel file in the same round.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/util_time.h"

struct job {
	const char *path;
	unsigned int n;
	int err;
};

/* n times open, read at 0, close; 0 or the errno of the first failure. */
static int open_read_close(const char *path, unsigned int n)
{
	char buf[4096];

	for (unsigned int i = 0; i < n; i++) {
		int fd;

		errno = 0;
		fd = open(path, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0) {
			int err = errno ? errno : EIO;

			if (fd >= 0)
				close(fd);
			return err;
		}
		close(fd);
	}
	return 0;
}

static void *reader(void *arg)
{
	struct job *job = arg;

	job->err = open_read_close(job->path, job->n);
	return NULL;
}

#define ROUNDS_MAX	101
#define FILES_MAX	8

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v: prints median [min..max]. */
static void print_spread(const char *label, double *v, unsigned int n, const char *unit)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("  %-9s median %8.2f%s  spread %.2f..%.2f\n", label, v[n / 2], unit,
	       v[0], v[n - 1]);
}

static int compare(int argc, char **argv)
{
	static double us[FILES_MAX][ROUNDS_MAX], ratio[FILES_MAX][ROUNDS_MAX];
	unsigned int rounds, n, nfiles, r, f;
	char **files = argv + 4;

	if (argc < 6 || argc - 4 > FILES_MAX) {
		fprintf(stderr, "usage: bench_sysfs compare ROUNDS N KERNEL_FILE FILE... "
			"(at most %d files)\n", FILES_MAX - 1);
		return 2;
	}
	rounds = (unsigned int)strtoul(argv[2], NULL, 10);
	n = (unsigned int)strtoul(argv[3], NULL, 10);
	nfiles = (unsigned int)(argc - 4);
	if (rounds == 0 || rounds > ROUNDS_MAX || n == 0) {
		fprintf(stderr, "bench_sysfs: ROUNDS must be 1..%d and N > 0\n", ROUNDS_MAX);
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		for (unsigned int k = 0; k < nfiles; k++) {
			double t0, t1;
			int err;

			f = (r + k) % nfiles;
			t0 = (util_now_ns() / 1e9);
			err = open_read_close(files[f], n);
			t1 = (util_now_ns() / 1e9);
			if (err) {
				fprintf(stderr, "bench_sysfs: %s: %s\n", files[f], strerror(err));
				return 1;
			}
			us[f][r] = (t1 - t0) * 1e6 / n;
		}
		for (f = 1; f < nfiles; f++)
			ratio[f][r] = us[f][r] / us[0][r];
	}
	printf("open+read+close, %u rounds of %u per file, interleaved\n", rounds, n);
	for (f = 0; f < nfiles; f++) {
		printf("%s%s\n", files[f], f == 0 ? " (kernel)" : "");
		print_spread("us/op", us[f], rounds, " us");
		if (f > 0)
			print_spread("ratio", ratio[f], rounds, "x ");
	}
	/* bench/run.sh divides the driver's request counts by this */
	printf("operations per file: %u\n", rounds * n);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int threads, n, t;
	int i;

	if (argc >= 2 && strcmp(argv[1], "compare") == 0)
		return compare(argc, argv);
	if (argc < 4) {
		fprintf(stderr, "usage: bench_sysfs THREADS READS_PER_THREAD FILE...\n"
			"       bench_sysfs compare ROUNDS N KERNEL_FILE FILE...\n");
		return 2;
	}
	threads = (unsigned int)strtoul(argv[1], NULL, 10);
	n = (unsigned int)strtoul(argv[2], NULL, 10);
	if (threads == 0 || threads > 64 || n == 0) {
		fprintf(stderr, "bench_sysfs: THREADS must be 1..64 and READS > 0\n");
		return 2;
	}
	for (i = 3; i < argc; i++) {
		pthread_t tid[64];
		struct job jobs[64];
		double t0, t1;

		t0 = (util_now_ns() / 1e9);
		for (t = 0; t < threads; t++) {
			jobs[t] = (struct job){ .path = argv[i], .n = n };
			if (pthread_create(&tid[t], NULL, reader, &jobs[t])) {
				fprintf(stderr, "bench_sysfs: pthread_create failed\n");
				return 1;
			}
		}
		for (t = 0; t < threads; t++)
			pthread_join(tid[t], NULL);
		t1 = (util_now_ns() / 1e9);
		for (t = 0; t < threads; t++) {
			if (jobs[t].err) {
				fprintf(stderr, "bench_sysfs: %s: %s\n", argv[i],
					strerror(jobs[t].err));
				return 1;
			}
		}
		printf("%-60s %2u threads %8u reads %9.0f reads/s %9.1f us/read\n",
		       argv[i], threads, threads * n, threads * n / (t1 - t0),
		       (t1 - t0) * 1e6 / n);
	}
	return 0;
}
