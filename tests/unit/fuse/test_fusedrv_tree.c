// SPDX-License-Identifier: GPL-2.0-only
/*
 * FUSE driver without a mount: what bind/unbind accept as a device name,
 * that every node survives the trip through its inode number, which files a
 * socket shows for each ABI and feature set, and how mount refuses a bad
 * configuration before touching /dev/fuse.
 */
#include <errno.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/fuse/fusedrv_internal.h"
#include "util/util_array.h"

static int parse(const char *text, unsigned int *socket)
{
	/* not NUL-terminated, as FUSE hands the written bytes over */
	size_t len = strlen(text);
	char *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, text, len);
	ret = fusedrv_parse_device_name(copy, len, socket);
	free(copy);
	return ret;
}

static void test_parse_accepts_device_names(void **state)
{
	unsigned int socket = 12345;

	assert_int_equal(parse("intel_vsec.sdsi.0", &socket), 0);
	assert_int_equal(socket, 0);
	assert_int_equal(parse("intel_vsec.sdsi.7\n", &socket), 0);
	assert_int_equal(socket, 7);
	assert_int_equal(parse("intel_vsec.sdsi.4294967295", &socket), 0);
	assert_int_equal(socket, 4294967295u);
}

/* The kernel compares the written text as a C string: a NUL ends the name. */
static void test_parse_stops_at_nul(void **state)
{
	static const char with_nul[] = "intel_vsec.sdsi.3\0junk";
	static const char newline_nul[] = "intel_vsec.sdsi.3\n\0\n\n";
	static const char nul_first[] = "\0intel_vsec.sdsi.3";
	unsigned int socket = 99;

	assert_int_equal(fusedrv_parse_device_name(with_nul, sizeof(with_nul) - 1, &socket), 0);
	assert_int_equal(socket, 3);
	socket = 99;
	assert_int_equal(fusedrv_parse_device_name(newline_nul, sizeof(newline_nul) - 1,
						   &socket), 0);
	assert_int_equal(socket, 3);
	assert_int_equal(fusedrv_parse_device_name(nul_first, sizeof(nul_first) - 1, &socket),
			 -ENODEV);
}

static void test_parse_refuses_other_names(void **state)
{
	static const char *const bad[] = {
		"", "\n", "intel_vsec.sdsi.", "intel_vsec.sdsi.\n",
		"intel_vsec.sdsi.01", "intel_vsec.sdsi.00", "intel_vsec.sdsi.1\n\n",
		"intel_vsec.sdsi.1 ", " intel_vsec.sdsi.1", "intel_vsec.sdsi.-1",
		"intel_vsec.sdsi.+1", "intel_vsec.sdsi.1a", "intel_vsec.sdsi.0x1",
		"intel_vsec.sdsi.4294967296", "intel_vsec.sdsi.99999999999999999999",
		"INTEL_VSEC.SDSI.0", "intel_vsec.pmt.0", "intel_vsec.sdsi0",
	};
	unsigned int socket = 77;

	for (size_t i = 0; i < UTIL_ARRAY_SIZE(bad); i++) {
		if (parse(bad[i], &socket) != -ENODEV)
			fail_msg("accepted \"%s\"", bad[i]);
	}
	assert_int_equal(socket, 77);
}

static struct sdsi_fusedrv *fake_drv(enum sdsi_abi abi, unsigned int nsockets)
{
	struct sdsi_fusedrv *drv = calloc(1, sizeof(*drv));

	assert_non_null(drv);
	drv->abi = abi;
	drv->nsockets = nsockets;
	drv->sockets = calloc(nsockets, sizeof(*drv->sockets));
	assert_non_null(drv->sockets);
	return drv;
}

static void free_drv(struct sdsi_fusedrv *drv)
{
	free(drv->sockets);
	free(drv);
}

static void check_round_trip(const struct sdsi_fusedrv *drv, struct fusedrv_node node)
{
	struct fusedrv_node back;
	fuse_ino_t ino = fusedrv_node_ino(&node);

	assert_true(fusedrv_node_from_ino(drv, ino, &back));
	assert_int_equal(back.kind, node.kind);
	if (node.kind >= FUSEDRV_NODE_DEVICE_DIR)
		assert_int_equal(back.socket, node.socket);
	if (node.kind == FUSEDRV_NODE_ATTR)
		assert_int_equal(back.attr, node.attr);
}

static void test_inode_numbers_round_trip(void **state)
{
	struct sdsi_fusedrv *drv = fake_drv(SDSI_ABI_CURRENT, 3);
	struct fusedrv_node node = { 0 };
	fuse_ino_t seen[64];
	size_t nseen = 0;

	assert_int_equal(fusedrv_node_ino(&node), FUSE_ROOT_ID);
	for (int k = FUSEDRV_NODE_ROOT; k <= FUSEDRV_NODE_DRIVER_MODULE; k++) {
		node.kind = (enum fusedrv_node_kind)k;
		check_round_trip(drv, node);
		seen[nseen++] = fusedrv_node_ino(&node);
	}
	for (unsigned int s = 0; s < 3; s++) {
		node.socket = s;
		for (int k = FUSEDRV_NODE_DEVICE_DIR; k <= FUSEDRV_NODE_ATTR; k++) {
			node.kind = (enum fusedrv_node_kind)k;
			for (int a = 0; a < (k == FUSEDRV_NODE_ATTR ? SDSI_FILE_COUNT : 1); a++) {
				node.attr = (enum sdsi_sysfs_file)a;
				check_round_trip(drv, node);
				seen[nseen++] = fusedrv_node_ino(&node);
			}
		}
	}
	/* distinct numbers for distinct nodes */
	for (size_t i = 0; i < nseen; i++)
		for (size_t j = i + 1; j < nseen; j++)
			assert_true(seen[i] != seen[j]);
	free_drv(drv);
}

static void test_inode_numbers_outside_the_tree(void **state)
{
	struct sdsi_fusedrv *drv = fake_drv(SDSI_ABI_CURRENT, 2);
	struct fusedrv_node node = { .kind = FUSEDRV_NODE_DEVICE_DIR, .socket = 2 };
	struct fusedrv_node out;
	fuse_ino_t beyond = fusedrv_node_ino(&node);

	assert_false(fusedrv_node_from_ino(drv, 0, &out));
	for (fuse_ino_t ino = 9; ino < 16; ino++)
		assert_false(fusedrv_node_from_ino(drv, ino, &out));
	/* socket 2 does not exist with two sockets */
	assert_false(fusedrv_node_from_ino(drv, beyond, &out));
	assert_false(fusedrv_node_from_ino(drv, beyond + 3, &out));
	/* after the last attribute of socket 1 its isdsi1, then spare slots */
	node.socket = 1;
	node.kind = FUSEDRV_NODE_ATTR;
	node.attr = SDSI_FILE_PROVISION_CAP;
	assert_true(fusedrv_node_from_ino(drv, fusedrv_node_ino(&node) + 1, &out));
	assert_int_equal(out.kind, FUSEDRV_NODE_SPDM);
	assert_int_equal(out.socket, 1);
	node.kind = FUSEDRV_NODE_SPDM;
	for (fuse_ino_t ino = fusedrv_node_ino(&node) + 1; ino < beyond; ino++)
		assert_false(fusedrv_node_from_ino(drv, ino, &out));
	free_drv(drv);
}

/* The driver directory: its own four files, then one link per device. */
static void test_driver_dir_children(void **state)
{
	static const char *const own[] = { "bind", "module", "uevent", "unbind" };
	struct sdsi_fusedrv *drv = fake_drv(SDSI_ABI_EARLY, 2);
	struct fusedrv_node dir = { .kind = FUSEDRV_NODE_DRIVER_DIR }, child;
	char name[64];
	struct stat st;
	size_t idx;

	for (idx = 0; idx < 4; idx++) {
		assert_true(fusedrv_dir_child(drv, &dir, idx, &child));
		fusedrv_node_name(&child, name, sizeof(name));
		assert_string_equal(name, own[idx]);
		fusedrv_node_stat(drv, &child, &st);
		if (strcmp(name, "module") == 0)
			assert_int_equal(st.st_mode, S_IFLNK | 0777);
		else
			assert_int_equal(st.st_mode, S_IFREG | 0200);
	}
	for (; idx < 6; idx++) {
		assert_true(fusedrv_dir_child(drv, &dir, idx, &child));
		assert_int_equal(child.kind, FUSEDRV_NODE_DRIVER_DEVICE);
		assert_int_equal(child.socket, idx - 4);
	}
	assert_false(fusedrv_dir_child(drv, &dir, idx, &child));
	free_drv(drv);
}

/* Bit mask of the visible attributes of socket 0. */
static unsigned int visible_set(enum sdsi_abi abi, bool bound, uint64_t features)
{
	struct sdsi_fusedrv *drv = fake_drv(abi, 1);
	unsigned int set = 0;

	drv->sockets[0].bound = bound;
	drv->sockets[0].features = features;
	/* fusedrv_attr_visible's rule: the caller holds a socket lock. */
	sdsi_lock_init(&drv->sockets[0].state_lock);
	sdsi_lock_take(&drv->sockets[0].state_lock);
	for (int a = 0; a < SDSI_FILE_COUNT; a++)
		if (fusedrv_attr_visible(drv, &drv->sockets[0], (enum sdsi_sysfs_file)a))
			set |= 1u << a;
	sdsi_lock_release(&drv->sockets[0].state_lock);
	sdsi_lock_destroy(&drv->sockets[0].state_lock);
	free_drv(drv);
	return set;
}

#define BIT(a)	(1u << SDSI_FILE_##a)
#define ALWAYS	(BIT(GUID) | BIT(REGISTERS))
#define ON_DEMAND_FILES	(BIT(STATE_CERT) | BIT(PROVISION_AKC) | BIT(PROVISION_CAP))
#define METER_FILES	(BIT(METER_CERT) | BIT(METER_CURRENT))

static void test_visibility_current_abi(void **state)
{
	const uint64_t od = SDSI_FEATURE_ON_DEMAND, meter = SDSI_FEATURE_METERING;

	assert_int_equal(visible_set(SDSI_ABI_CURRENT, false, od | meter), 0);
	assert_int_equal(visible_set(SDSI_ABI_CURRENT, true, 0), ALWAYS);
	assert_int_equal(visible_set(SDSI_ABI_CURRENT, true, meter), ALWAYS);
	assert_int_equal(visible_set(SDSI_ABI_CURRENT, true, SDSI_FEATURE_ATTESTATION), ALWAYS);
	assert_int_equal(visible_set(SDSI_ABI_CURRENT, true, od), ALWAYS | ON_DEMAND_FILES);
	assert_int_equal(visible_set(SDSI_ABI_CURRENT, true, od | meter),
			 ALWAYS | ON_DEMAND_FILES | METER_FILES);
}

static void test_visibility_early_abi(void **state)
{
	unsigned int five = ALWAYS | ON_DEMAND_FILES;

	assert_int_equal(visible_set(SDSI_ABI_EARLY, false, SDSI_FEATURE_ON_DEMAND), 0);
	assert_int_equal(visible_set(SDSI_ABI_EARLY, true, 0), five);
	assert_int_equal(visible_set(SDSI_ABI_EARLY, true, ~0ull), five);
}

static void test_attribute_names_and_modes(void **state)
{
	static const struct { const char *name; mode_t mode; } want[SDSI_FILE_COUNT] = {
		{ "guid", 0444 }, { "registers", 0400 }, { "state_certificate", 0400 },
		{ "meter_certificate", 0400 }, { "meter_current", 0400 },
		{ "provision_akc", 0200 }, { "provision_cap", 0200 },
	};

	struct sdsi_fusedrv *drv = fake_drv(SDSI_ABI_CURRENT, 1);
	struct fusedrv_node node = { .kind = FUSEDRV_NODE_ATTR };
	char name[64];
	struct stat st;

	/* as the tree lists and stats them, each from its sysfs_files.h row */
	for (int a = 0; a < SDSI_FILE_COUNT; a++) {
		node.attr = (enum sdsi_sysfs_file)a;
		fusedrv_node_name(&node, name, sizeof(name));
		fusedrv_node_stat(drv, &node, &st);
		assert_string_equal(name, want[a].name);
		assert_int_equal(st.st_mode, S_IFREG | want[a].mode);
	}
	free_drv(drv);
}

static void test_mount_refuses_bad_configuration(void **state)
{
	struct sdsi_fusedrv_backend backends[1] = { { .ops = NULL } };
	struct sdsi_fusedrv_config cfg = { .abi = SDSI_ABI_CURRENT, .backends = backends,
					   .nsockets = 1 };
	struct sdsi_fusedrv *drv = NULL;
	char err[256] = "";
	char path[] = "/tmp/sdsi-fusedrv-unit-XXXXXX";
	int fd;

	assert_int_equal(sdsi_fusedrv_mount(&cfg, "/", &drv, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "socket 0"));
	assert_null(drv);

	cfg.nsockets = 0;
	assert_int_equal(sdsi_fusedrv_mount(&cfg, "/nonexistent/sdsi-mnt", &drv, err,
					    sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/sdsi-mnt"));

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sdsi_fusedrv_mount(&cfg, path, &drv, err, sizeof(err)), -ENOTDIR);
	assert_non_null(strstr(err, "not a directory"));
	unlink(path);
	assert_null(drv);

	/* the NULL-safe teardown of the header */
	sdsi_fusedrv_unmount(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_accepts_device_names),
		cmocka_unit_test(test_parse_refuses_other_names),
		cmocka_unit_test(test_parse_stops_at_nul),
		cmocka_unit_test(test_driver_dir_children),
		cmocka_unit_test(test_inode_numbers_round_trip),
		cmocka_unit_test(test_inode_numbers_outside_the_tree),
		cmocka_unit_test(test_visibility_current_abi),
		cmocka_unit_test(test_visibility_early_abi),
		cmocka_unit_test(test_attribute_names_and_modes),
		cmocka_unit_test(test_mount_refuses_bad_configuration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
