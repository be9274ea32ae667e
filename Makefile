# SPDX-License-Identifier: GPL-2.0-only
# The README's commands.  Meson does the building; this file only strings
# the steps together and makes sure the Debian packages are there first.

BUILD      ?= build
SANBUILD   ?= build-san
FUZZBUILD  ?= build-fuzz
TSANBUILD  ?= build-tsan
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
SAN_FLAGS  := -Db_sanitize=address,undefined -Db_lundef=false \
              -Dc_args=-fno-sanitize-recover=all
# gcc's TSan does not model __atomic_thread_fence and says so (-Wtsan, fatal
# under werror) at window/ctlpage.c's one fence; that fence orders loads from
# a page another process (the QEMU guest) writes, which TSan cannot see
# anyway, so the warning is silenced and not the check.
TSAN_FLAGS := -Db_sanitize=thread -Db_lundef=false -Dc_args=-Wno-tsan
export ASAN_OPTIONS  ?= detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

.PHONY: all deps build build-san build-tsan check check-unit check-integration check-ansible \
        check-san check-tsan check-kernel lint demo deps-demo bench install clean \
        soak crash-campaign deps-kernel deb deps-deb check-kernel-build
.PHONY: build-fuzz fuzz

all: build

deps:
	@scripts/ensure-deps.sh

# make check also needs what the kernel rig runs on the host: QEMU serves
# the platform suite's doorbell-plugin tests before the rig itself.
deps-kernel:
	@scripts/ensure-deps.sh --kernel

# make demo installs only what the build and the demo need: no test tool.
deps-demo:
	@scripts/ensure-deps.sh --demo

# make deb and its check need debhelper, dh-dkms, lintian (ensure-deps.sh).
deps-deb:
	@scripts/ensure-deps.sh --deb

$(BUILD)/build.ninja:
	meson setup $(BUILD) --prefix=$(PREFIX)

$(SANBUILD)/build.ninja:
	meson setup $(SANBUILD) $(SAN_FLAGS)

# The libFuzzer harnesses need clang; this build is theirs alone.
$(FUZZBUILD)/build.ninja:
	CC=clang-14 meson setup $(FUZZBUILD) -Dfuzz=true $(SAN_FLAGS)

build-fuzz: deps $(FUZZBUILD)/build.ninja
	ninja -C $(FUZZBUILD) fuzzers

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

build-san: deps $(SANBUILD)/build.ninja
	ninja -C $(SANBUILD)

$(TSANBUILD)/build.ninja:
	meson setup $(TSANBUILD) $(TSAN_FLAGS)

build-tsan: deps $(TSANBUILD)/build.ninja
	ninja -C $(TSANBUILD)

# Every test: unit and integration on the plain build, then all of them
# again under ASan+UBSan, the threaded parts under TSan, then the real Linux
# drivers in QEMU, then the Debian packages: built, installed with apt, run
# and purged, with intel-sdsi-dkms built by dkms against the kernel headers
# check-kernel has just fetched.  check-kernel-build fetches those kernels
# first (and builds our module against each), so the rig finds them there;
# it needs nothing of the project's build and is mostly downloads and a
# debootstrap, so it runs in the background from the build on, beside the
# steps that compute, and is joined before the rig.
# check-kernel skips (exit 77, loudly) only where QEMU cannot run at all.
# The sanitizer build's tool tests reuse the promtool unpacked into the
# plain build.  Each step is timed (scripts/check-step.sh); the last lines
# printed are the table of the steps' times, "check: NAME took N s".
TIMES = $(BUILD)/check-times.txt
STEP  = scripts/check-step.sh $(TIMES)
check:
	@mkdir -p $(BUILD) && rm -rf $(TIMES) $(TIMES).began $(TIMES).d
	$(STEP) deps $(MAKE) --no-print-directory deps-kernel deps-deb
	$(STEP) build $(MAKE) --no-print-directory build
	$(STEP) --start kernel-build scripts/check-kernel-build.sh $(BUILD)
	$(STEP) build-san $(MAKE) --no-print-directory build-san
	$(STEP) lint $(MAKE) --no-print-directory lint
	$(STEP) cycles /usr/bin/python3 scripts/check-cycles.py $(BUILD)
	$(STEP) unit meson test -C $(BUILD) --print-errorlogs
	$(STEP) tool scripts/run-tool-tests.sh $(BUILD)
	$(STEP) authority scripts/run-authority-tests.sh $(BUILD)
	$(STEP) ansible scripts/run-ansible-tests.sh $(BUILD)
	$(STEP) docs scripts/run-doc-tests.sh $(BUILD)
	$(STEP) integration scripts/run-integration.sh $(BUILD)
	$(STEP) crash-campaign /usr/bin/python3 soak/crash_campaign.py $(BUILD) --iterations 20
	$(STEP) install scripts/check-install.sh $(BUILD)
	$(STEP) san-unit meson test -C $(SANBUILD) --print-errorlogs
	SDSI_PROMTOOL=$$(scripts/fetch-promtool.sh $(BUILD)) && export SDSI_PROMTOOL && \
		$(STEP) san-tool scripts/run-tool-tests.sh $(SANBUILD)
	$(STEP) san-authority scripts/run-authority-tests.sh $(SANBUILD)
	$(STEP) san-integration scripts/run-integration.sh $(SANBUILD)
	$(STEP) tsan $(MAKE) --no-print-directory check-tsan
	$(STEP) fuzz $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=3
	$(STEP) --join kernel-build
	$(STEP) kernel sh -c 'scripts/check-kernel.sh $(BUILD); s=$$?; [ $$s -eq 0 ] || [ $$s -eq 77 ]'
	$(STEP) deb scripts/check-deb.sh $(BUILD)
	@$(STEP) --summary

# The threaded parts under ThreadSanitizer: unit tests, the conformance
# suite on three sockets, the platform suite (docs/architecture.md, "Locks").
# Any TSan report fails it.
check-tsan: build-tsan
	scripts/run-tsan.sh $(TSANBUILD)

# The upstream Linux drivers (Debian 6.1 and 6.12, and unstable's newest),
# and our own intel_sdsi (drivers/kernel) on each kernel, against the model
# in QEMU
# (docs/conformance.md); KERNELS="6.1 6.1-sdsi" picks configurations.
# KERNEL_IMAGE=bzImage KERNEL_MODULES=DIR [KERNEL_BUILD=DIR] and/or
# DRIVER_MODULE=intel_sdsi.ko run the suite on a kernel or driver of your
# own instead (rig/user-kernel.sh; docs/conformance.md).
check-kernel: build
	KERNEL_IMAGE='$(KERNEL_IMAGE)' KERNEL_MODULES='$(KERNEL_MODULES)' \
	KERNEL_BUILD='$(KERNEL_BUILD)' DRIVER_MODULE='$(DRIVER_MODULE)' \
	KERNEL_PART='$(KERNEL_PART)' scripts/check-kernel.sh $(BUILD) $(KERNELS)

# Our intel_sdsi (drivers/kernel) built with W=1 and sparse against every
# kernel Debian offers (6.1, 6.12, 7.2, 7.3), one "kernel-build: RELEASE ok"
# line each; its compile probes on both answers; checkpatch --strict.  In
# make check before check-kernel, whose kernels it fetches into the same
# place (docs/packages.md).  Needs no build of the project.
check-kernel-build: deps-kernel
	scripts/check-kernel-build.sh $(BUILD)

# Each libFuzzer harness for FUZZ_SECONDS, seed corpora and every crash
# found so far first; prints the exec count of each (docs/fuzzing.md).
fuzz: build-fuzz
	scripts/run-fuzz.sh $(FUZZBUILD) $(FUZZ_SECONDS)

# The shell scripts, at shellcheck's warning level; and nothing in the tree
# may point at a document outside it (docs/interface.md holds the facts).
lint: deps
	shellcheck -S warning .ci/run scripts/*.sh rig/*.sh drivers/kernel/*.sh bench/*.sh
	@if git grep -n -e '\.\./shared/' -e 'shared/reference' -- ':!Makefile'; then \
		echo "lint: the lines above point outside the repository" >&2; exit 1; fi

check-unit: build
	meson test -C $(BUILD) --print-errorlogs

check-integration: build
	scripts/run-integration.sh $(BUILD)

# The Ansible collection (ansible/) against eight ssh hosts (docs/ansible.md).
check-ansible: build
	scripts/run-ansible-tests.sh $(BUILD)

# The build's log goes to $(BUILD)/build.log, printed only if the build fails.
demo: deps-demo
	@scripts/build-quietly.sh $(BUILD) $(PREFIX)
	@scripts/demo.sh $(BUILD)

bench: build
	bench/run.sh $(BUILD)

# Readers on every attribute while the platform is disturbed (docs/soak.md).
SOAK_SECONDS ?= 60
SOAK_THREADS ?= 8
SOAK_SOCKETS ?= 4
soak: build
	/usr/bin/python3 soak/soak.py $(BUILD) --seconds $(SOAK_SECONDS) \
		--threads $(SOAK_THREADS) --sockets $(SOAK_SOCKETS)

# SIGKILL during provisioning, restart, all or nothing (docs/soak.md).
CRASH_ITERATIONS ?= 1000
crash-campaign: build
	/usr/bin/python3 soak/crash_campaign.py $(BUILD) --iterations $(CRASH_ITERATIONS)

# The Debian packages (debian/), built in a copy of the tree under
# $(BUILD)/deb and checked by lintian; docs/packages.md says how to install them.
deb: deps deps-deb
	scripts/build-deb.sh $(BUILD)/deb

install: build
	meson configure $(BUILD) -Dprefix=$(abspath $(PREFIX))
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(SANBUILD) $(FUZZBUILD) $(TSANBUILD)
