#!/usr/bin/env python3
"""Write series/NN-name/ and linux/ from a git branch of the series.

Usage: series-import.py [--git-dir DIR] REF [BASE]

The reverse of scripts/series.sh: REF is a branch whose commits since
BASE (default "pristine", the tag series.sh gives the pristine tree in
$UPROBES_CACHE/series.git) are the series, e.g. series.sh's "series"
branch after an interactive rebase that split, reordered or edited its
commits. Every series/NN-name/ is rewritten from one commit: message
(the commit message), files (the paths it adds), edit.patch (a unified
diff of each file it changes, a kernel file or one an earlier commit
added, against the previous commit) and remove (the paths it deletes);
a kernel file the existing series/ lists in a "files" stays replaced
whole by the first commit that changes it.
linux/<path> becomes REF's version of every file the series adds. A
directory keeps its name when its commit keeps its subject; the others
are named after their subjects. Check the result with scripts/tree.sh
and scripts/test-series.sh (FULL=1).
"""
import os, re, subprocess, sys, tempfile, glob, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
gitdir = None
if args[:1] == ['--git-dir']:
    gitdir = args[1]
    args = args[2:]
if not args:
    sys.exit(__doc__)
ref = args[0]
base = args[1] if len(args) > 1 else 'pristine'


def git(*a, inp=None):
    env = dict(os.environ)
    if gitdir:
        env['GIT_DIR'] = gitdir
    r = subprocess.run(['git', *a], input=inp, capture_output=True, env=env)
    if r.returncode:
        sys.exit('git %s: %s' % (' '.join(a), r.stderr.decode()))
    return r.stdout


def blob(rev, path):
    return git('cat-file', 'blob', '%s:%s' % (rev, path))


def slug(subject):
    s = subject.lower()
    s = re.sub(r"[^a-z0-9]+", '-', s).strip('-')
    words = [w for w in s.split('-') if w not in ('the', 'a', 'an', 'of', 'for')]
    out = []
    for w in words:
        if len('-'.join(out + [w])) > 48:
            break
        out.append(w)
    return '-'.join(out)


# The existing directories: names by subject, and the order of "files".
old_names = {}
order = {}
for d in sorted(glob.glob(os.path.join(ROOT, 'series', '[0-9]*'))):
    try:
        subj = open(os.path.join(d, 'message')).readline().strip()
        old_names[subj] = re.sub(r'^[0-9]+-', '', os.path.basename(d))
    except OSError:
        pass
    try:
        for l in open(os.path.join(d, 'files')):
            order.setdefault(l.strip(), len(order))
    except OSError:
        pass

revs = git('rev-list', '--reverse', '%s..%s' % (base, ref)).decode().split()
if not revs:
    sys.exit('no commits in %s..%s' % (base, ref))
tmp = tempfile.mkdtemp()
stage = os.path.join(tmp, 'series')
os.mkdir(stage)
added = {}
used = set()
for n, r in enumerate(revs, 1):
    msg = git('log', '-1', '--format=%B', r).decode().rstrip('\n') + '\n'
    subj = msg.split('\n', 1)[0]
    name = old_names.get(subj) or slug(subj)
    while name in used:
        name += '-2'
    used.add(name)
    d = os.path.join(stage, '%02d-%s' % (n, name))
    os.mkdir(d)
    open(os.path.join(d, 'message'), 'w').write(msg)
    files, remove, patch = [], [], []
    raw = git('diff-tree', '-r', '--no-renames', '--no-commit-id', r + '^', r).decode()
    for l in raw.splitlines():
        meta, path = l.split('\t', 1)
        status = meta.split()[-1]
        if status == 'A':
            files.append(path)
            added[path] = r
        elif status == 'D':
            if path in added:
                sys.exit('%s deletes %s, which the series added' % (r, path))
            remove.append(path)
        elif status == 'M' and path in order and path not in added:
            # A kernel file the series replaces whole (listed in "files")
            files.append(path)
            added[path] = r
        elif status == 'M':
            a = os.path.join(tmp, 'a')
            b = os.path.join(tmp, 'b')
            open(a, 'wb').write(blob(r + '^', path))
            open(b, 'wb').write(blob(r, path))
            p = subprocess.run(['diff', '-u', '--label', 'a/' + path, '--label', 'b/' + path, a, b],
                               capture_output=True)
            patch.append(p.stdout)
        else:
            sys.exit('%s: %s %s not handled' % (r, status, path))
    files.sort(key=lambda p: (order.get(p, len(order)), p))
    if files:
        open(os.path.join(d, 'files'), 'w').write(''.join(p + '\n' for p in files))
    if remove:
        open(os.path.join(d, 'remove'), 'w').write(''.join(p + '\n' for p in sorted(remove)))
    if patch:
        open(os.path.join(d, 'edit.patch'), 'wb').write(b''.join(patch))

# Replace the series, then linux/ with the final version of each added file.
for d in glob.glob(os.path.join(ROOT, 'series', '[0-9]*')):
    shutil.rmtree(d)
for d in sorted(os.listdir(stage)):
    shutil.move(os.path.join(stage, d), os.path.join(ROOT, 'series', d))
modes = {}
for l in git('ls-tree', '-r', ref, '--', *sorted(added)).decode().splitlines():
    meta, path = l.split('\t', 1)
    modes[path] = meta.split()[0]
for path in added:
    dst = os.path.join(ROOT, 'linux', path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    open(dst, 'wb').write(blob(ref, path))
    os.chmod(dst, 0o755 if modes.get(path) == '100755' else 0o644)
stray = []
for dp, dn, fn in os.walk(os.path.join(ROOT, 'linux')):
    for f in fn:
        p = os.path.relpath(os.path.join(dp, f), os.path.join(ROOT, 'linux'))
        if p not in added:
            stray.append(p)
for p in sorted(stray):
    print('linux/%s: no commit adds it' % p, file=sys.stderr)
shutil.rmtree(tmp)
print('%d commits imported from %s' % (len(revs), ref))
sys.exit(1 if stray else 0)
