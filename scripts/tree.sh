#!/bin/bash
# Make $SRC = pristine Debian tree + the series in series/ (see series/README).
# Only files whose content changes are rewritten, so the kernel's own
# make rebuilds only what our edits touch.
. "$(dirname "$0")/lib.sh"

[ -f "$KTARBALL" ] || die "$KTARBALL missing: run scripts/deps.sh"
# One at a time: a make check beside an ARCH=arm64 one both bring $SRC
# up to date.
mkdir -p "$CACHE"
exec 8>"$CACHE/tree.lock"
flock 8
ver=$(kpkg_version)
if [ ! -d "$PRISTINE" ] || [ "$(cat "$CACHE/pristine/VERSION" 2>/dev/null)" != "$ver" ]; then
	log "extracting $KPKG $ver into $CACHE/pristine"
	rm -rf "$CACHE/pristine" "$SRC"
	mkdir -p "$CACHE/pristine"
	tar -C "$CACHE/pristine" -xJf "$KTARBALL"
	echo "$ver" > "$CACHE/pristine/VERSION"
fi
# PRISTINE_ONLY=1: only the pristine tree is wanted (a stock build of an
# architecture whose guest needs nothing from $SRC): leave $SRC alone.
[ "${PRISTINE_ONLY:-0}" != 1 ] || exit 0
if [ ! -d "$SRC" ]; then
	log "copying pristine tree to $SRC"
	cp -a "$PRISTINE" "$SRC.tmp"
	mv "$SRC.tmp" "$SRC"
	: > "$CACHE/src.manifest"
fi

stage=$(mktemp -d "$CACHE/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
: > "$stage/.removed"
: > "$stage/.added"
for c in "$ROOT"/series/[0-9]*/; do
	if [ -f "$c/edit.patch" ]; then
		for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$c/edit.patch"); do
			if [ ! -e "$stage/$f" ] && [ -f "$PRISTINE/$f" ]; then
				mkdir -p "$stage/$(dirname "$f")"
				cp "$PRISTINE/$f" "$stage/$f"
			fi
		done
		patch -s -p1 -f -F 0 --no-backup-if-mismatch -d "$stage" < "$c/edit.patch" ||
			die "$(basename "$c")/edit.patch does not apply"
	fi
	if [ -f "$c/remove" ]; then
		grep -v '^#' "$c/remove" | while read -r f; do
			[ -n "$f" ] && echo "$f" >> "$stage/.removed" && rm -f "$stage/$f"
		done
	fi
	if [ -f "$c/files" ]; then
		grep -v '^#' "$c/files" | while read -r f; do
			[ -n "$f" ] || continue
			[ -f "$ROOT/linux/$f" ] || die "$(basename "$c")/files: linux/$f missing"
			mkdir -p "$stage/$(dirname "$f")"
			file_state "$f" "$(basename "$c")" "$stage/$f"
			echo "$f" >> "$stage/.added"
		done
	fi
done
# A file the series adds ends as linux/ has it: the later commits'
# edits of it, applied forward, give back what file_state took out.
sort -u "$stage/.added" | while read -r f; do
	[ ! -f "$stage/$f" ] || cmp -s "$stage/$f" "$ROOT/linux/$f" ||
		die "$f: the series' edits of it do not end at linux/$f"
done

new_manifest=$stage/.manifest
(cd "$stage" && find . -type f ! -name '.removed' ! -name '.added' ! -name '.manifest' | sed 's|^\./||' | sort) > "$new_manifest"
changed=0
while read -r f; do
	if ! cmp -s "$stage/$f" "$SRC/$f"; then
		mkdir -p "$SRC/$(dirname "$f")"
		cp "$stage/$f" "$SRC/$f"
		changed=$((changed + 1))
	fi
done < "$new_manifest"
while read -r f; do
	[ -n "$f" ] && rm -f "$SRC/$f"
done < "$stage/.removed"
# Files we touched before but no longer do go back to pristine.
if [ -f "$CACHE/src.manifest" ]; then
	comm -23 <(sort "$CACHE/src.manifest") "$new_manifest" | while read -r f; do
		if [ -f "$PRISTINE/$f" ]; then cp -p "$PRISTINE/$f" "$SRC/$f"; else rm -f "$SRC/$f"; fi
	done
	comm -23 <(sort "$CACHE/src.removed" 2>/dev/null) <(sort "$stage/.removed") | while read -r f; do
		[ -n "$f" ] && [ -f "$PRISTINE/$f" ] && [ ! -f "$SRC/$f" ] && cp -p "$PRISTINE/$f" "$SRC/$f"
	done
fi
cp "$new_manifest" "$CACHE/src.manifest"
sort "$stage/.removed" > "$CACHE/src.removed"
log "tree $SRC: $KPKG $ver + $(ls -d "$ROOT"/series/[0-9]*/ 2>/dev/null | wc -l) series commits, $changed file(s) updated"
