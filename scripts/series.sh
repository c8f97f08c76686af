#!/bin/bash
# make series: turn series/NN-*/ into a git format-patch series against the
# pristine Debian tree. Usage: series.sh [OUTDIR]  (default $CACHE/series-out,
# or $SERIES_OUT). The pristine tree is committed once into a bare repository
# ($CACHE/series.git, tag "pristine"); each series directory becomes one
# commit on top of it, built in a scratch index, so no 1.7 GB checkout is
# needed. The resulting branch is "series" in that repository.
. "$(dirname "$0")/lib.sh"

out=${1:-${SERIES_OUT:-$CACHE/series-out}}
"$ROOT/scripts/tree.sh"
export GIT_DIR=$CACHE/series.git
ver=$(kpkg_version)
if [ "$(cat "$GIT_DIR/pristine-version" 2>/dev/null)" != "$ver" ]; then
	log "committing the pristine $KPKG $ver tree into $GIT_DIR (once)"
	rm -rf "$GIT_DIR"
	git init -q --bare "$GIT_DIR"
	GIT_INDEX_FILE=$GIT_DIR/pristine.index git --work-tree="$PRISTINE" add -A -f
	tree=$(GIT_INDEX_FILE=$GIT_DIR/pristine.index git write-tree)
	rm -f "$GIT_DIR/pristine.index"
	commit=$(GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
		GIT_COMMITTER_NAME=Debian GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
		GIT_AUTHOR_DATE="$(stat -c %Y "$KTARBALL") +0000" \
		GIT_COMMITTER_DATE="$(stat -c %Y "$KTARBALL") +0000" \
		git commit-tree "$tree" -m "$KPKG $ver (pristine)")
	git update-ref refs/tags/pristine "$commit"
	echo "$ver" > "$GIT_DIR/pristine-version"
fi

export GIT_AUTHOR_NAME="Seed 4bcc8d2d maintainers" \
	GIT_AUTHOR_EMAIL=maintainers@users.noreply.a-seed-4bcc8d2d.example
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
date=$(git -C "$ROOT" --git-dir="$ROOT/.git" log -1 --format=%ad --date=raw 2>/dev/null || date +"%s +0000")
export GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_INDEX_FILE=$tmp/index
git read-tree pristine
head=$(git rev-parse pristine)
n=0
for c in "$ROOT"/series/[0-9]*/; do
	name=$(basename "$c")
	[ -s "$c/message" ] || die "$name: no message"
	if [ -f "$c/edit.patch" ]; then
		git apply --cached "$c/edit.patch" || die "$name/edit.patch does not apply"
	fi
	if [ -f "$c/remove" ]; then
		for f in $(grep -v '^#' "$c/remove"); do
			git rm -q --cached -- "$f" || die "$name/remove: $f"
		done
	fi
	if [ -f "$c/files" ]; then
		for f in $(grep -v '^#' "$c/files"); do
			[ -f "$ROOT/linux/$f" ] || die "$name/files: linux/$f missing"
			mode=$(git ls-files -s -- "$f" | cut -d' ' -f1)
			if [ -z "$mode" ]; then
				mode=100644
				[ -x "$ROOT/linux/$f" ] && mode=100755
			fi
			file_state "$f" "$name" "$tmp/state"
			blob=$(git hash-object -w -- "$tmp/state")
			git update-index --add --cacheinfo "$mode,$blob,$f"
		done
	fi
	head=$(git commit-tree "$(git write-tree)" -p "$head" -F "$c/message")
	n=$((n + 1))
done
git update-ref refs/heads/series "$head"
mkdir -p "$out"
rm -f "$out"/*.patch
git format-patch -q -o "$out" pristine..series
log "series: $n commit(s) on $KPKG $ver -> $out ($(ls "$out" | grep -c '\.patch$') patches)"
