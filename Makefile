# A thin wrapper: meson and ninja do the building, scripts/ the set-up.
#   make demo    install what is needed, build, run maintstat on real data
#   make check   install what is needed, build, run the whole suite twice
#                (normal and ASan+UBSan builds), then the libFuzzer targets
#                (clang build-fuzz) for a bounded time
CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/maintstat-dev
export MS_CACHE := $(CACHE)

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz

.PHONY: all deps build build-asan build-fuzz linux-tree demo check clean

all: build

deps:
	@sh scripts/deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dwerror=true

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Dbuildtype=debug -Dwerror=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all

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

linux-tree:
	@sh scripts/linux-tree.sh $(CACHE) >/dev/null

demo: deps
	$(MAKE) build linux-tree
	@sh scripts/demo.sh $(BUILD)/maintstat $(CACHE)

check: deps
	$(MAKE) build build-asan build-fuzz linux-tree
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
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
