# uprobes-ng: build the patched kernel and test it in QEMU.
# Variables: DEBUG=1 (debug kernel), KCSAN=1 (data race detector),
# STOCK=1 (unmodified kernel),
# ARCH=arm64, riscv or s390 (cross-built kernel and guest: demo, check, bench,
# kernel, initramfs, shell; x86 when unset),
# ONLY=suite/program[:case] globs, comma-separated (check; the case only
# for ftrace/ftracetest), SKIP_HOST=1 (check: no host-side tests),
# SERIES_OUT=dir (series),
# KIND=push|nop5|mov_reg|... (hit-profile, a class of bench/uprobe_bench.c,
# or uretprobe for its entry and return probe figure).
S := scripts

.PHONY: all demo check check-all check-clients check-kernel-tests kernel initramfs series test-series shell bench hit-profile clean distclean
all: check

demo:
	$(S)/demo.sh

check:
	$(S)/check.sh

# Every booted architecture's suites, one after the other (CI runs x86
# and arm64; riscv and s390 before an engine change is merged), and the
# other architectures with uprobes compiled, and linked whole.
check-all:
	ARCH=x86 CROSS_ARCHES=all CROSS_LINK_ARCHES="riscv powerpc s390 arm mips" \
		$(S)/check.sh
	ARCH=arm64 SKIP_HOST=1 $(S)/check.sh
	ARCH=riscv SKIP_HOST=1 $(S)/check.sh
	ARCH=s390 SKIP_HOST=1 $(S)/check.sh

check-clients:
	$(S)/check-clients.sh

check-kernel-tests:
	$(S)/check-kernel-tests.sh

kernel:
	$(S)/build.sh

initramfs:
	$(S)/initramfs.sh

series:
	$(S)/series.sh $(SERIES_OUT)

test-series:
	$(S)/test-series.sh
	$(S)/test-engine-steps.sh
	$(S)/test-bisect.sh

shell:
	KERNEL="$$($(S)/build.sh)" INITRD="$$($(S)/initramfs.sh)" $(S)/qemu.sh shell

bench:
	$(S)/bench.sh

hit-profile:
	$(S)/hit-profile.sh

# clean: everything under the cache except ccache; distclean: all of it.
clean:
	bash -c '. $(S)/lib.sh; cd "$$CACHE" 2>/dev/null || exit 0; \
		for d in *; do [ "$$d" = ccache ] || rm -rf "$$d"; done; \
		echo "cleaned $$CACHE (ccache kept)"'

distclean:
	bash -c '. $(S)/lib.sh; rm -rf "$$CACHE"; echo "removed $$CACHE"'
