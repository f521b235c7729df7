# A thin wrapper: meson and ninja do the building, scripts/ the set-up.
#   make demo    install what is needed, build, run maintstat on real data
#   make check   install what is needed, build, run the whole suite twice
#                (normal and ASan+UBSan builds, warnings as errors), then
#                the libFuzzer targets (clang build-fuzz) for a bounded
#                time, and a packager's --buildtype=release build with the
#                project's defaults (werror off), which must build
CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/maintstat-dev
export MS_CACHE := $(CACHE)
# meson compiles through ccache when it is installed (scripts/deps.sh
# installs it): the objects of a clean clone's four builds are kept here,
# outside the repository, so that a second make check on this machine
# spends seconds, not three minutes, compiling what did not change
export CCACHE_DIR ?= $(CACHE)/ccache
# each clone builds in its own directory: without this, the directory is
# part of the key of every -g object and a new clone never hits the cache
export CCACHE_NOHASHDIR ?= 1

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
RELEASE_BUILD ?= build-release

.PHONY: all deps build build-asan build-fuzz build-release linux-tree \
	qemu-script demo check clean

all: build

deps:
	@sh scripts/deps.sh

# werror is off in meson.build (a packager's newer compiler must not break
# the build); our own builds turn it on, as kmod's build-dev.ini does.
$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dwerror=true

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# -O1, as AddressSanitizer's documentation advises for reasonable speed
# (frame pointers kept for its stack traces): against -O0 the store and
# mail tests used 18% and 17% less CPU, the whole pass being the longest
# part of make check.
$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Doptimization=1 -Ddebug=true \
		-Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args='-fno-sanitize-recover=all -fno-omit-frame-pointer'

build-asan: $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

# libFuzzer targets: clang, the library instrumented for coverage and ASan,
# only the fuzzers built (tests/fuzz/meson.build).
$(FUZZ_BUILD)/build.ninja:
	CC=clang meson setup $(FUZZ_BUILD) -Dbuildtype=debugoptimized \
		-Dtests=false -Dfuzzers=true -Dwerror=false \
		-Db_sanitize=address -Db_lundef=false \
		-Dc_args=-fsanitize=fuzzer-no-link

build-fuzz: $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD) tests/fuzz/fuzz-mail tests/fuzz/fuzz-snapshot \
		tests/fuzz/fuzz-maintainers tests/fuzz/fuzz-ident \
		tests/fuzz/fuzz-trailer tests/fuzz/fuzz-manifest

# What a packager runs: the project's defaults and -O3.  Only built; the
# tests run in the two builds above.
$(RELEASE_BUILD)/build.ninja:
	meson setup $(RELEASE_BUILD) --buildtype=release -Dtests=false

build-release: $(RELEASE_BUILD)/build.ninja
	ninja -C $(RELEASE_BUILD)

linux-tree:
	@sh scripts/linux-tree.sh $(CACHE) >/dev/null

# QEMU's get_maintainer.pl, the oracle of test cc-git-qemu (skipped,
# saying so, when it cannot be had)
qemu-script:
	-@sh scripts/qemu-script.sh $(CACHE) >/dev/null

demo: deps
	$(MAKE) build linux-tree
	@sh scripts/demo.sh $(BUILD)/maintstat $(CACHE)

check: deps
	$(MAKE) build build-asan build-fuzz build-release linux-tree qemu-script
	@rm -f $(BUILD)/meson-logs/testlog.json \
		$(ASAN_BUILD)/meson-logs/testlog.json \
		$(FUZZ_BUILD)/meson-logs/testlog.json
	-MS_LINUX_TREE=$(CACHE)/linux-source-6.1 \
		meson test -C $(BUILD) --print-errorlogs
	-MS_LINUX_TREE=$(CACHE)/linux-source-6.1 \
		ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		meson test -C $(ASAN_BUILD) --print-errorlogs \
		--timeout-multiplier 4
	-ASAN_OPTIONS=detect_leaks=1 \
		meson test -C $(FUZZ_BUILD) --suite fuzz --no-rebuild \
		--print-errorlogs
	@python3 scripts/check-summary.py $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(RELEASE_BUILD)
