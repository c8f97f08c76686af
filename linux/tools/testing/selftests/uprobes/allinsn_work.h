/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The busybox workload of allinsn.c: input files made from a fixed
 * pseudo-random sequence, and a list of shell commands (applets of the
 * busybox that is probed) whose outputs depend only on those inputs.
 * allinsn_work_write() puts both into a directory: the inputs, and
 * "work.sh", which "/bin/busybox sh work.sh OUTDIR" runs: command N
 * writes OUTDIR/N.out, N.err and N.rc (its exit status), then
 * OUTDIR/done is written.  Temporary files go to ./tmp, which the
 * script empties first, so that every run sees the same directory.
 */
#ifndef ALLINSN_WORK_H
#define ALLINSN_WORK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct allinsn_cmd {
	const char *name;
	const char *sh;
};

/*
 * Each applet is one exec of /bin/busybox (ash runs applets through
 * /proc/self/exe), and every exec inserts every probe of the batch: keep
 * the number of applets small, and the inputs small enough that the
 * commands run no long loops with every instruction probed.
 */
static const struct allinsn_cmd allinsn_cmds[] = {
	{ "sort-uniq", "sort words.txt | uniq -c | sort -k1,1nr -k2 | head -n 8" },
	{ "sort-keys",
	  "sort -t: -k3,3nr -k1,1 table.txt | head -n 3; "
	  "sort -n -r nums.txt | head -n 3" },
	{ "md5-sha",
	  "md5sum words.txt bin.dat; sha1sum bin.dat; "
	  "sha256sum words.txt; sha512sum table.txt" },
	{ "gzip",
	  "gzip -c < bin.dat | gunzip -c | cmp - bin.dat && echo same; "
	  "gzip -c < words.txt | gunzip -c | md5sum" },
	{ "awk",
	  "awk -F: '{ "
	  "s += $3; n[$2]++; if ($4 > m) m = $4; "
	  "w = w toupper(substr($1, 2, 2)) } END { "
	  "printf \"%d %d %.4f %e %s\\n\", s, m, s / NR, s * 1.5, substr(w, 1, 20); "
	  "for (k in n) c++; print c, NR }' table.txt" },
	{ "sed",
	  "sed -e 's/\\([aeiou]\\)\\([^aeiou]\\)/\\2\\1/g' -e '/^b/d' -e 'y/kmt/KMT/' -e '3q' words.txt; "
	  "sed -n '10,12{=;p}' table.txt" },
	{ "grep",
	  "grep -c an words.txt; "
	  "grep -E '^(ba|ko|ti).*[ae]$' words.txt | head -n 4; "
	  "grep -v -i -n e words.txt | head -n 2" },
	{ "expr-seq",
	  "expr 123456789 \\* 37 + 11; expr length 'hello world'; "
	  "expr abcdef : 'ab\\(.*\\)e'; seq 1 7 100 | wc; seq -w -s, 1 12" },
	{ "wc-tr",
	  "wc words.txt nums.txt table.txt bin.dat; "
	  "tr a-z n-za-m < words.txt | head -c 80; echo; "
	  "tr -d 'aeiou\\n' < words.txt | md5sum" },
	{ "od", "od -A x -t x1 -t d4 -N 32 bin.dat; hexdump -C -n 32 -s 100 bin.dat" },
	{ "printf",
	  "printf '%5d|%-8s|%x|%o|%c|%05.2f|%s\\n' 42 abc 255 8 Z 3.14159 \"$(echo hi)\"; "
	  "printf '%s=%d\\n' a 1 b 2" },
	{ "cut-paste",
	  "cut -d: -f2,3 table.txt | head -n 3; "
	  "paste -d, nums.txt words.txt | head -n 2; "
	  "tac nums.txt | head -n 2; rev words.txt | head -n 2" },
	{ "bc-dc", "echo '2^70; scale=8; sqrt(2); 22/7' | bc; echo '3 4 * 5 + p 2 40 ^ p' | dc" },
	{ "diff", "diff words.txt words2.txt | head -n 6; diff words.txt words.txt; echo diff=$?" },
	{ "factor", "factor 600851475143 1234567 97 65536" },
	{ "shell",
	  "i=0; s=0; "
	  "while [ $i -lt 30 ]; do i=$((i + 1)); s=$((s + i * i % 7)); done; echo $s; "
	  "case abc in a*) echo glob;; esac; "
	  "set -- x y z; echo $# ${2} ${#1}; "
	  "f() { echo \"f:$*\"; return 3; }; f 1 2; echo rc=$?; "
	  "v=abcdef; echo ${v#ab} ${v%ef} ${#v}" },
	{ "tar-base64",
	  "tar -cf - words.txt nums.txt | tar -xOf - nums.txt | md5sum; "
	  "base64 bin.dat | base64 -d | md5sum" },
	{ "find-ls",
	  "find . -name '*.txt' | sort; ls -1 | head -n 3; stat -c '%s %n' words.txt; "
	  "cp words.txt tmp/w; mv tmp/w tmp/v; ls tmp" },
	{ "dd-xargs",
	  "dd if=bin.dat bs=50 skip=3 count=4 2>/dev/null | md5sum; "
	  "echo a b c | xargs -n 1 echo x" },
	{ "fail",
	  "cmp words.txt words2.txt; echo cmp=$?; "
	  "grep -q nosuchword words.txt; echo grep=$?; false" },
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define ALLINSN_NCMDS ((int)ARRAY_SIZE(allinsn_cmds))

static unsigned int allinsn_rnd(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

static int allinsn_write_file(const char *dir, const char *name,
			      const char *data, size_t len)
{
	char path[4096];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* Inputs and work.sh into DIR; 0 or -errno. */
static int allinsn_work_write(const char *dir, int nwords)
{
	static const char * const syl[] = {
		"ba", "ko", "ti", "an", "me", "ru", "so", "ne", "la", "vi",
		"de", "po", "mo", "ka", "zu", "he", "xe", "qi", "ty", "ow",
	};
	size_t cap = 64 * nwords + 65536, len, i;
	unsigned int st = 2024;
	char *buf = malloc(cap), *w2;
	int err, n, k;

	if (!buf)
		return -ENOMEM;
	/* words.txt: nwords words of 1-4 syllables, with repeats */
	for (len = 0, n = 0; n < nwords; n++) {
		for (k = 1 + allinsn_rnd(&st) % 4; k > 0; k--)
			len += sprintf(buf + len, "%s",
				       syl[allinsn_rnd(&st) % 20]);
		buf[len++] = '\n';
	}
	err = allinsn_write_file(dir, "words.txt", buf, len);
	/* words2.txt: the same with every 7th line changed */
	w2 = malloc(len + nwords + 1);
	if (!err && w2) {
		size_t j = 0, line = 0;

		for (i = 0; i < len; i++) {
			w2[j++] = buf[i];
			if (buf[i] == '\n' && ++line % 7 == 0)
				w2[j - 1] = 'X', w2[j++] = '\n';
		}
		err = allinsn_write_file(dir, "words2.txt", w2, j);
	} else if (!err) {
		err = -ENOMEM;
	}
	free(w2);
	/* nums.txt: signed integers */
	for (len = 0, n = 0; !err && n < nwords / 2; n++)
		len += sprintf(buf + len, "%d\n",
			       (int)(allinsn_rnd(&st) % 200001) - 100000);
	if (!err)
		err = allinsn_write_file(dir, "nums.txt", buf, len);
	/* table.txt: name:group:value:other */
	for (len = 0, n = 0; !err && n < nwords / 3; n++)
		len += sprintf(buf + len, "n%03d:%s:%u:%u\n", n,
			       syl[allinsn_rnd(&st) % 6],
			       allinsn_rnd(&st) % 1000,
			       allinsn_rnd(&st) % 100000);
	if (!err)
		err = allinsn_write_file(dir, "table.txt", buf, len);
	/* bin.dat: bytes, compressible in parts */
	for (len = 0; !err && len < (size_t)nwords * 4; len++)
		buf[len] = (len / 64) % 3 ? (char)allinsn_rnd(&st) : (char)(len % 7);
	if (!err)
		err = allinsn_write_file(dir, "bin.dat", buf, len);

	/* work.sh */
	len = sprintf(buf, "# allinsn busybox workload\n"
		      "o=$1\nrm -rf tmp\nmkdir tmp\n");
	for (i = 0; !err && i < ALLINSN_NCMDS; i++) {
		if (len + strlen(allinsn_cmds[i].sh) + 256 > cap) {
			err = -E2BIG;
			break;
		}
		len += sprintf(buf + len,
			       "( %s\n) > $o/%zu.out 2> $o/%zu.err < /dev/null\n"
			       "echo $? > $o/%zu.rc\n",
			       allinsn_cmds[i].sh, i, i, i);
	}
	len += sprintf(buf + len, "echo done > $o/done\n");
	if (!err)
		err = allinsn_write_file(dir, "work.sh", buf, len);
	free(buf);
	return err;
}

#endif /* ALLINSN_WORK_H */
