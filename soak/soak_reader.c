// SPDX-License-Identifier: GPL-2.0-only
/*
 * The readers of `make soak` (docs/soak.md): THREADS threads each cycle
 * over every file named on the command line (all attributes of all sockets),
 * open, one read() at offset 0, close, until SECONDS have passed, and check
 * what each successful read returned.  Nothing here decides which errors are
 * allowed: each failure is written out with the CLOCK_MONOTONIC interval of
 * the operation, for soak_judge.py to hold against the disturbances that
 * were going on.
 *
 * A fault armed for a while fails thousands of reads in a row; to keep the
 * record small, a thread folds a failure into its previous record for the
 * same file when nothing else happened on that file in between and the
 * disturber's epoch counter (a u64 in EPOCH_FILE, bumped at every start and
 * end of a disturbance) did not move: a record never spans two states of
 * the platform, so judging its interval judges each failure in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "soak_check.h"
#include "util/util_time.h"

#define MAX_THREADS	256
#define READ_SIZE	4096

enum op { OP_OPEN, OP_READ, OP_DATA };
static const char *const op_names[] = { "open", "read", "data" };

struct record {
	uint64_t t0, t1;	/* first failure's start, last one's end */
	uint64_t epoch;		/* the epoch all its failures saw */
	uint64_t count;
	uint32_t file;
	int op, err;
};

struct reader {
	pthread_t tid;
	unsigned int index;
	uint64_t *reads;	/* per file: successful reads */
	uint64_t *failures;	/* per file */
	long *last;		/* per file: record of the last outcome, or -1 */
	struct record *records;
	size_t nrecords, cap;
	int alloc_failed;
};

static char **files;
static enum soak_kind *kinds;
static unsigned int nfiles;
static uint64_t deadline_ns;
static const volatile uint64_t *epoch;

static uint64_t epoch_now(void)
{
	return __atomic_load_n(epoch, __ATOMIC_ACQUIRE);
}

static void failed(struct reader *r, uint32_t file, int op, int err,
		   uint64_t t0, uint64_t e0)
{
	uint64_t t1 = util_now_ns(), e1 = epoch_now();
	long last = r->last[file];

	r->failures[file]++;
	if (last >= 0) {
		struct record *p = &r->records[last];

		if (p->op == op && p->err == err && p->epoch == e0 && e0 == e1) {
			p->t1 = t1;
			p->count++;
			return;
		}
	}
	if (r->nrecords == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct record *grown = realloc(r->records, cap * sizeof(*grown));

		if (!grown) {
			r->alloc_failed = 1;
			return;
		}
		r->records = grown;
		r->cap = cap;
	}
	/* A failure that straddles an epoch change keeps the earlier epoch:
	 * its interval already covers both states. */
	r->records[r->nrecords] = (struct record){ .t0 = t0, .t1 = t1, .epoch = e0,
						   .count = 1, .file = file,
						   .op = op, .err = err };
	r->last[file] = (long)r->nrecords++;
}

static void read_once(struct reader *r, uint32_t file, char *buf)
{
	uint64_t t0 = util_now_ns(), e0 = epoch_now();
	ssize_t n;
	int fd, err;

	fd = open(files[file], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		failed(r, file, OP_OPEN, errno, t0, e0);
		return;
	}
	n = read(fd, buf, READ_SIZE);
	err = errno;
	close(fd);
	if (n < 0) {
		failed(r, file, OP_READ, err, t0, e0);
		return;
	}
	if (!soak_check(kinds[file], (const uint8_t *)buf, (size_t)n)) {
		failed(r, file, OP_DATA, 0, t0, e0);
		return;
	}
	r->reads[file]++;
	r->last[file] = -1;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char *buf = malloc(READ_SIZE);
	uint32_t file = r->index % nfiles;

	if (!buf) {
		r->alloc_failed = 1;
		return NULL;
	}
	while (util_now_ns() < deadline_ns && !r->alloc_failed) {
		read_once(r, file, buf);
		file = (file + 1) % nfiles;
	}
	free(buf);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: sdsi-soak-reader SECONDS THREADS EPOCH_FILE RECORDS_FILE FILE...\n");
	return 2;
}

static int map_epoch(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0) {
		fprintf(stderr, "sdsi-soak-reader: %s: %s\n", path, strerror(errno));
		return -1;
	}
	p = mmap(NULL, sizeof(uint64_t), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "sdsi-soak-reader: mmap %s: %s\n", path, strerror(errno));
		return -1;
	}
	epoch = p;
	return 0;
}

static int write_records(const char *path, struct reader *rs, unsigned int nthreads)
{
	FILE *out = fopen(path, "w");

	if (!out) {
		fprintf(stderr, "sdsi-soak-reader: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (unsigned int t = 0; t < nthreads; t++)
		for (size_t i = 0; i < rs[t].nrecords; i++) {
			const struct record *p = &rs[t].records[i];

			fprintf(out, "%" PRIu64 " %" PRIu64 " %u %s %s %" PRIu64 "\n",
				p->t0, p->t1, p->file, op_names[p->op],
				p->err ? soak_errno_name(p->err) : "-", p->count);
		}
	return fclose(out) ? -1 : 0;
}

static void print_summary(struct reader *rs, unsigned int nthreads, uint64_t elapsed)
{
	printf("{\"seconds\": %.3f, \"threads\": %u, \"files\": [", elapsed / 1e9, nthreads);
	for (unsigned int f = 0; f < nfiles; f++) {
		uint64_t reads = 0, failures = 0;

		for (unsigned int t = 0; t < nthreads; t++) {
			reads += rs[t].reads[f];
			failures += rs[t].failures[f];
		}
		printf("%s{\"reads\": %" PRIu64 ", \"failures\": %" PRIu64 "}",
		       f ? ", " : "", reads, failures);
	}
	printf("]}\n");
}

int main(int argc, char **argv)
{
	unsigned long seconds, nthreads;
	struct reader *rs;
	uint64_t start;
	int status = 0;
	char *end;

	if (argc < 6)
		return usage();
	seconds = strtoul(argv[1], &end, 10);
	if (*end || seconds == 0 || seconds > 86400)
		return usage();
	nthreads = strtoul(argv[2], &end, 10);
	if (*end || nthreads == 0 || nthreads > MAX_THREADS)
		return usage();
	if (map_epoch(argv[3]))
		return 1;
	files = argv + 5;
	nfiles = (unsigned int)(argc - 5);
	kinds = calloc(nfiles, sizeof(*kinds));
	rs = calloc(nthreads, sizeof(*rs));
	if (!kinds || !rs)
		return 1;
	for (unsigned int f = 0; f < nfiles; f++)
		kinds[f] = soak_kind_of(files[f]);
	start = util_now_ns();
	deadline_ns = start + seconds * 1000000000ull;
	for (unsigned int t = 0; t < nthreads; t++) {
		rs[t].index = t;
		rs[t].reads = calloc(nfiles, sizeof(uint64_t));
		rs[t].failures = calloc(nfiles, sizeof(uint64_t));
		rs[t].last = malloc(nfiles * sizeof(long));
		if (!rs[t].reads || !rs[t].failures || !rs[t].last)
			return 1;
		for (unsigned int f = 0; f < nfiles; f++)
			rs[t].last[f] = -1;
		if (pthread_create(&rs[t].tid, NULL, reader_main, &rs[t])) {
			fprintf(stderr, "sdsi-soak-reader: pthread_create failed\n");
			return 1;
		}
	}
	for (unsigned int t = 0; t < nthreads; t++) {
		pthread_join(rs[t].tid, NULL);
		if (rs[t].alloc_failed) {
			fprintf(stderr, "sdsi-soak-reader: out of memory for records\n");
			status = 1;
		}
	}
	print_summary(rs, (unsigned int)nthreads, util_now_ns() - start);
	if (write_records(argv[4], rs, (unsigned int)nthreads))
		status = 1;
	for (unsigned int t = 0; t < nthreads; t++) {
		free(rs[t].reads);
		free(rs[t].failures);
		free(rs[t].last);
		free(rs[t].records);
	}
	free(rs);
	free(kinds);
	return status;
}
