// SPDX-License-Identifier: GPL-2.0-only
/*
 * Throughput of the sysfs ABI as a program sees it: open, read at offset 0,
 * close, repeated, for each file named on the command line, from T threads.
 * Run it inside `sdsi-emu run` to measure the FUSE driver end to end, or on a
 * machine with the real driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct job {
	const char *path;
	unsigned int n;
	int err;
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *reader(void *arg)
{
	struct job *job = arg;
	char buf[4096];
	unsigned int i;

	for (i = 0; i < job->n; i++) {
		int fd = open(job->path, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0) {
			job->err = errno ? errno : EIO;
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		close(fd);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int threads, n, t;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: bench_sysfs THREADS READS_PER_THREAD FILE...\n");
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

		t0 = mono_s();
		for (t = 0; t < threads; t++) {
			jobs[t] = (struct job){ .path = argv[i], .n = n };
			if (pthread_create(&tid[t], NULL, reader, &jobs[t])) {
				fprintf(stderr, "bench_sysfs: pthread_create failed\n");
				return 1;
			}
		}
		for (t = 0; t < threads; t++)
			pthread_join(tid[t], NULL);
		t1 = mono_s();
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
