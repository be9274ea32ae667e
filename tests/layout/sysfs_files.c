// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prints include/sdsi/sysfs_files.h for check_sysfs_files.py: one line per
 * row, in table order,
 *   file NAME MODE ST_SIZE COMMAND CTRL NEEDS EARLY_SIZE
 * then each ABI's st_sizes, in table order,
 *   size ABI ST_SIZE...
 * then what sdsi_sysfs_file_mode() shows, for each features value given as
 * an argument (e.g. 0x8) and each ABI,
 *   visible ABI FEATURES NAME=MODE...
 * so that the table and the rule are judged from what the drivers use.
 */
#include <stdio.h>
#include <stdlib.h>

#include <sdsi/abi_names.h>
#include <sdsi/sysfs_files.h>

int main(int argc, char **argv)
{
#define ABI_NAME_(abi, name) [abi] = name,
	static const char *const abi_names[] = { SDSI_ABI_TABLE(ABI_NAME_) };
#undef ABI_NAME_

	for (int f = 0; f < SDSI_FILE_COUNT; f++) {
		const struct sdsi_sysfs_file_desc *d = sdsi_sysfs_file((enum sdsi_sysfs_file)f);

		printf("file %s %#o %u %#llx %#llx %#llx %u\n", d->name, d->mode, d->size,
		       d->command, d->ctrl, d->needs, d->early_size);
	}
	for (unsigned int abi = 0; abi < sizeof(abi_names) / sizeof(abi_names[0]); abi++) {
		printf("size %s", abi_names[abi]);
		for (int f = 0; f < SDSI_FILE_COUNT; f++)
			printf(" %u", sdsi_sysfs_file_size((enum sdsi_sysfs_file)f, abi));
		printf("\n");
	}
	for (int i = 1; i < argc; i++) {
		unsigned long long features = strtoull(argv[i], NULL, 0);

		for (unsigned int abi = 0; abi < sizeof(abi_names) / sizeof(abi_names[0]); abi++) {
			printf("visible %s %#llx", abi_names[abi], features);
			for (int f = 0; f < SDSI_FILE_COUNT; f++) {
				enum sdsi_sysfs_file file = (enum sdsi_sysfs_file)f;
				unsigned int mode = sdsi_sysfs_file_mode(file, features, abi);

				if (mode)
					printf(" %s=%#o", sdsi_sysfs_file_name(file), mode);
			}
			printf("\n");
		}
	}
	return 0;
}
