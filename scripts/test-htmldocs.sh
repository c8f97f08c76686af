#!/bin/bash
# Host-side documentation test: Sphinx builds Documentation/trace as
# `make htmldocs` does (SPHINXDIRS=trace, the kernel's conf.py and
# extensions, Debian's python3-sphinx), and
#   host/htmldocs:warnings   no warning or error names one of our
#                            documents or the sources their kernel-doc
#                            directives read (stock documents of the
#                            directory have warnings of their own);
#   host/htmldocs:RST:ID     each identifier of a kernel-doc directive
#                            of RST is a documented function in its page.
# Verdicts are cached by the content of the inputs and Sphinx's version
# (a build takes about 15 s).
. "$(dirname "$0")/lib.sh"

[ -f "$SRC/Documentation/conf.py" ] || "$ROOT/scripts/tree.sh"
command -v sphinx-build > /dev/null || die "sphinx-build missing (python3-sphinx)"
cache=$CACHE/htmldocs
mkdir -p "$cache"
ours=(Documentation/trace/uprobes-engine.rst Documentation/trace/uprobetracer.rst)
# The sources kernel-doc directives of our documents read.
srcs=$(cd "$SRC" && awk '/^\.\. kernel-doc::/ { print $3 }' "${ours[@]}" | sort -u)
sum=$( (sphinx-build --version; cd "$SRC" && cat "${ours[@]}" $srcs Documentation/conf.py \
	Documentation/sphinx/*.py Documentation/trace/index.rst) | sha256sum | cut -d' ' -f1)
if [ ! -f "$cache/$sum.results" ]; then
	out=$(mktemp -d)
	# The netlink specs' pages are generated into the source tree: they
	# go however the build ends (left by a killed run, they would make
	# the tree differ from the series').
	trap 'make -s -C "$SRC" O="$out" cleandocs >/dev/null 2>&1 || true; rm -rf "$out"' EXIT
	trap 'exit 1' INT TERM HUP
	log "htmldocs: sphinx-build of Documentation/trace"
	rc=0
	make -s -C "$SRC" O="$out" SPHINXDIRS=trace htmldocs > "$cache/$sum.log" 2>&1 || rc=$?
	{
		pat=$(printf '%s\|' "${ours[@]}" $srcs)
		bad=$(grep -i 'warning\|error' "$cache/$sum.log" | grep "${pat%\\|}" || true)
		if [ $rc = 0 ] && [ -z "$bad" ]; then
			echo "PASS host/htmldocs:warnings"
		else
			echo "FAIL host/htmldocs:warnings"
			[ $rc = 0 ] || echo "# sphinx-build exited with $rc" >&2
		fi
		for rst in "${ours[@]}"; do
			html=$out/Documentation/output/trace/$(basename "$rst" .rst).html
			awk '/^\.\. kernel-doc::/ { f = 1; next }
			     f && /:identifiers:/ { for (i = 2; i <= NF; i++) print $i; f = 0 }' \
				"$SRC/$rst" | while read -r id; do
				# A documented function: a signature naming it.
				if [ -f "$html" ] && grep -q "sig-name descname\"><span class=\"n\"><span class=\"pre\">$id<" "$html"; then
					echo "PASS host/htmldocs:$(basename "$rst"):$id"
				else
					echo "FAIL host/htmldocs:$(basename "$rst"):$id"
				fi
			done
		done
	} > "$cache/$sum.results"
	[ -z "$bad" ] || echo "$bad" | head -n 10 >> "$cache/$sum.log"
fi
if grep -q FAIL "$cache/$sum.results"; then
	tail -n 10 "$cache/$sum.log" >&2
fi
sed 's/^/UPROBES-NG-RESULT: /' "$cache/$sum.results"
exit 0
