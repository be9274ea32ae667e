/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every harness in fuzz/ shares: the libFuzzer entry points, and the
 * invariant check.  A broken invariant prints what broke and aborts, which
 * libFuzzer reports as a crash and saves the input for (docs/fuzzing.md).
 */
#ifndef SDSI_FUZZ_CHECK_H
#define SDSI_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: invariant broken: %s: ",	\
				__FILE__, __LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
			abort();						\
		}								\
	} while (0)

/* A cursor over the fuzzer's bytes: reads past the end give zeros; bytes <= 8. */
struct fuzz_input {
	const uint8_t *p;
	size_t len;
};

static inline uint64_t fuzz_take(struct fuzz_input *in, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++) {
		if (in->len) {
			v |= (uint64_t)in->p[0] << (8 * i);
			in->p++;
			in->len--;
		}
	}
	return v;
}

/*
 * A harness of four entry points: the input's first byte picks one by its
 * two low bits; the entry gets that byte (whose other bits may pick more)
 * and the bytes after it.
 */
typedef void fuzz_entry(uint8_t mode, struct fuzz_input *in);

static inline int fuzz_by_first_byte(const uint8_t *data, size_t size,
				     fuzz_entry *const entries[4])
{
	struct fuzz_input in = { data, size };
	uint8_t mode;

	if (!size)
		return 0;
	mode = (uint8_t)fuzz_take(&in, 1);
	entries[mode & 3](mode, &in);
	return 0;
}

#endif /* SDSI_FUZZ_CHECK_H */
