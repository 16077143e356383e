# gosim: make builds ./gosim; make test runs the unit tests and the command-line checks.
CC ?= cc
# -O3 with link-time optimisation: the simulator's hot path crosses modules
# (sim.c's G moves and fingerprint, runq, exec, sched), so inlining across
# them is worth 12-17% of its instructions (callgrind, docs/performance.md).
# A position-dependent executable (-fno-pie, -no-pie): the interpreter's and
# the scheduler's switches jump through absolute tables, 1-2% fewer
# instructions per event (callgrind).
CFLAGS ?= -O3 -g -flto=auto
LDFLAGS ?=
# One switch for both halves, outside CFLAGS and LDFLAGS: objects built
# -fno-pie must be linked -no-pie whatever flags a user sets (make PIE=yes
# gives Debian's PIE default).
PIE ?= no
ifeq ($(PIE),no)
PIE_CFLAGS = -fno-pie
PIE_LDFLAGS = -fno-pie -no-pie
endif
WARN = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -D_POSIX_C_SOURCE=200809L
LDLIBS = -ljansson -lzstd -lz -pthread

B ?= build
SIM = $(wildcard sim/*.c)
TRACE = $(wildcard trace/*.c)
CMD = cmd/cli.c cmd/run.c cmd/out.c cmd/compress.c cmd/msg.c cmd/analysis.c cmd/sweep.c cmd/compare.c cmd/import.c cmd/import_fold.c cmd/import_mutex.c cmd/import_net.c cmd/import_tick.c
WORKLOADS = $(sort $(wildcard workloads/*.json))
LIB_OBJ = $(SIM:%.c=$(B)/%.o) $(TRACE:%.c=$(B)/%.o) $(B)/workloads.o $(B)/html_page.o
TEST_SRC = $(wildcard tests/test_*.c)
TEST_OBJ = $(TEST_SRC:%.c=$(B)/%.o)

.PHONY: all test unit cli import gotrace html chrome replay records golden golden-check valgrind check fuzz fuzz-replay bench clean
all: gosim

gosim: $(B)/gosim
	cp $< $@

$(B)/gosim: $(LIB_OBJ) $(CMD:%.c=$(B)/%.o) $(B)/cmd/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) $(PIE_LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(PIE_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/workloads.c: tools/embed-workloads.sh $(WORKLOADS)
	@mkdir -p $(B)
	sh tools/embed-workloads.sh $(WORKLOADS) > $@.tmp && mv $@.tmp $@

# The replay page (trace/html/) as two C strings for trace/html.c.
HTML_PAGE = trace/html/page.html trace/html/page.css trace/html/page.js
$(B)/html_page.c: tools/embed-page.sh $(HTML_PAGE)
	@mkdir -p $(B)
	sh tools/embed-page.sh $(HTML_PAGE) > $@.tmp && mv $@.tmp $@

$(B)/html_page.o: $(B)/html_page.c
	$(CC) $(CPPFLAGS) -I. $(WARN) $(CFLAGS) $(PIE_CFLAGS) -c -o $@ $<

$(B)/workloads.o: $(B)/workloads.c
	$(CC) $(CPPFLAGS) -I. $(WARN) $(CFLAGS) $(PIE_CFLAGS) -Wno-missing-prototypes -c -o $@ $<

$(B)/unit: $(LIB_OBJ) $(TEST_OBJ) $(B)/tests/helpers.o $(B)/cmd/import_net.o $(B)/cmd/import_tick.o
	$(CC) $(CFLAGS) $(LDFLAGS) $(PIE_LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

$(B)/tests/%.o: CPPFLAGS += -Isim

test: unit cli html golden-check replay records fuzz-replay gotrace chrome import

unit: $(B)/unit
	$(B)/unit --jobs=2

cli: $(B)/gosim
	sh tests/cli.sh $(B)/gosim
	sh tests/errors.sh $(B)/gosim
	sh tests/parser.sh $(B)/gosim
	sh tests/files.sh $(B)/gosim
	sh tests/compress.sh $(B)/gosim
	sh tests/report.sh $(B)/gosim
	sh tests/docs.sh
	sh tests/sweep.sh $(B)/gosim
	sh tests/explain.sh $(B)/gosim
	sh tests/compare_real.sh $(B)/gosim

# --format=gotrace validated by Go's own checker and go tool trace (Go >= 1.23).
gotrace: $(B)/gosim
	sh tests/gotrace.sh $(B)/gosim

# The replay page of every built-in workload against its JSON trace, in
# headless Chromium where it is installed (tests/html_check.py).
html: $(B)/gosim
	python3 tests/html_check.py $(B)/gosim $(B)/html

# Every golden trace and fresh ones replayed: every state on the way is valid.
replay: $(B)/gosim
	sh tests/replay.sh $(B)/gosim

# Every field written is documented; CSV reads as typed data (pandas).
records: $(B)/gosim
	sh tests/records.sh $(B)/gosim

# gosim import: round trips through --format=gotrace, a real trace's golden
# workload, malformed traces (tests/import.sh).
import: $(B)/gosim
	sh tests/import.sh $(B)/gosim

# --format=chrome parsed and checked against gosim's own records.
chrome: $(B)/gosim
	sh tests/chrome.sh $(B)/gosim

# The fuzz target over the seed corpus and past crashes, with any compiler.
FUZZ_OBJ = $(LIB_OBJ) $(CMD:%.c=$(B)/%.o) $(B)/tests/fuzz/fuzz_gosim.o
$(B)/fuzz-replay: $(FUZZ_OBJ) $(B)/tests/fuzz/replay.o
	$(CC) $(CFLAGS) $(LDFLAGS) $(PIE_LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-replay: $(B)/fuzz-replay
	$(B)/fuzz-replay $(wildcard tests/fuzz/corpus/*) $(filter-out %.md,$(wildcard tests/fuzz/regress/*)) 2>/dev/null

# libFuzzer (clang) over workloads and command lines for FUZZ_SECONDS.
# Crashes land in build/fuzz/artifacts/; copy them to tests/fuzz/regress/.
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) B=build/fuzz CC=clang PIE=yes CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" build/fuzz/fuzz-gosim
	mkdir -p build/fuzz/corpus build/fuzz/artifacts
	cp tests/fuzz/corpus/* build/fuzz/corpus/
	build/fuzz/fuzz-gosim -max_total_time=$(FUZZ_SECONDS) -timeout=20 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix=build/fuzz/artifacts/ build/fuzz/corpus

$(B)/fuzz-gosim: $(FUZZ_OBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(PIE_LDFLAGS) -o $@ $^ $(LDLIBS)

# What gosim costs, against the real runtime where Go is installed.
bench: gosim
	sh tools/bench.sh ./gosim

# Compare every golden case byte for byte (golden/, tools/golden.sh).
golden-check: $(B)/gosim
	sh tools/golden.sh check $(B)/gosim

# Regenerate the golden outputs on purpose; review the diff before committing.
golden: $(B)/gosim
	sh tools/golden.sh update $(B)/gosim

# -Werror build, the whole suite and the goldens under AddressSanitizer and
# UBSan, then each built-in workload under valgrind when it is installed.
check:
	$(MAKE) B=build/check PIE=yes CFLAGS="-O1 -g -Werror -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" test
	$(MAKE) valgrind

valgrind: $(B)/gosim
	@if command -v valgrind >/dev/null; then \
		for w in $(basename $(notdir $(WORKLOADS))); do \
			echo "valgrind: $$w"; \
			valgrind -q --error-exitcode=1 --leak-check=full $(B)/gosim -w $$w -q --check \
				--trace=$(B)/valgrind-$$w.json --schedtrace=1 --scheddetail 2>$(B)/valgrind-$$w.log \
				|| { grep -v '^SCHED\|^  [PMG]' $(B)/valgrind-$$w.log; exit 1; }; \
		done; \
	else echo "valgrind: not installed, skipped"; fi

# Measuring programs in tools/ (run by hand on an idle machine; README).
$(B)/tools/%: tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(PIE_CFLAGS) $(PIE_LDFLAGS) -o $@ $<

clean:
	rm -rf build gosim

-include $(shell find $(B) -name '*.d' 2>/dev/null)
