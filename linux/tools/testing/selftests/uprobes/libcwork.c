// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic workload of allinsn.c: calls the string, memory, formatting,
 * conversion, sorting and allocation functions of the C library and
 * checks each result against a plain C computation or a known value.
 * Prints one line per check group ("NAME CHECKSUM") and "ok N" at the end;
 * a wrong result prints "FAIL WHAT" and the exit status is 1.  The output
 * is the same on every run, so a probed run can be compared with an
 * unprobed one.  "libcwork ROUNDS" repeats everything ROUNDS times
 * (default 1); "libcwork maps" prints the path of the C library it runs
 * with.  Built with -fno-builtin, so that every call goes to the library.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The copying functions under test, called as they are. */
static char *(*const copy)(char *, const char *) = strcpy;
static char *(*const copy_n)(char *, const char *, size_t) = strncpy;

static int failures, checks;
static uint64_t sum;

static void mix(uint64_t v)
{
	sum = (sum ^ v) * 0x100000001b3ULL;
}

static void mixs(const char *s)
{
	while (*s)
		mix((unsigned char)*s++);
	mix(0);
}

#define CHECK(cond, ...)						\
	do {								\
		checks++;						\
		if (!(cond)) {						\
			failures++;					\
			printf("FAIL %s:%d: ", __func__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

static void report(const char *group)
{
	printf("%s %016llx\n", group, (unsigned long long)sum);
	sum = 0;
}

/* ---- plain C references ---- */

static size_t ref_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int ref_memcmp(const unsigned char *a, const unsigned char *b,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static const char *ref_strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return s;
		if (!*s)
			return NULL;
	}
}

static const char *ref_strstr(const char *h, const char *n)
{
	size_t ln = ref_strlen(n), i;

	for (; *h; h++) {
		for (i = 0; i < ln && h[i] == n[i]; i++)
			;
		if (i == ln)
			return h;
	}
	return ln ? NULL : h;
}

/* ---- string and memory functions, at many lengths and alignments ---- */

static void test_strings(void)
{
	static char a[600], b[600], c[1300];
	size_t len, al, i;

	for (len = 0; len < 160; len += 1 + len / 3) {
		for (al = 0; al < 16; al += 7) {
			char *s = a + al, *d = b + (al * 7) % 16;

			for (i = 0; i < len; i++)
				s[i] = 'a' + (i * 7 + al + len) % 26;
			s[len] = '\0';
			CHECK(strlen(s) == len, "strlen %zu/%zu", len, al);
			CHECK(strnlen(s, len / 2) == len / 2, "strnlen %zu", len);
			CHECK(copy(d, s) == d && !strcmp(d, s), "strcpy %zu", len);
			CHECK(ref_memcmp((unsigned char *)d, (unsigned char *)s,
					 len + 1) == 0, "strcpy bytes %zu", len);
			if (len) {
				d[len - 1] ^= 1;
				CHECK(sign(strcmp(d, s)) ==
				      sign((unsigned char)d[len - 1] -
					   (unsigned char)s[len - 1]),
				      "strcmp %zu", len);
				CHECK(strncmp(d, s, len - 1) == 0, "strncmp %zu", len);
				d[len - 1] ^= 1;
			}
			CHECK(strchr(s, 'z') == ref_strchr(s, 'z'), "strchr %zu", len);
			CHECK(strchr(s, 0) == s + len, "strchr nul %zu", len);
			CHECK(strrchr(s, 'a') == (len ? memrchr(s, 'a', len) : NULL),
			      "strrchr %zu", len);
			CHECK(memchr(s, 'q', len) == (void *)ref_strchr(s, 'q') ||
			      (!memchr(s, 'q', len) && !ref_strchr(s, 'q')),
			      "memchr %zu", len);
			CHECK(strstr(s, "hov") == ref_strstr(s, "hov"), "strstr %zu", len);
			CHECK(strspn(s, "abcdefghijklm") <= len, "strspn %zu", len);
			CHECK(strcspn(s, "xyz") == (ref_strchr(s, 'x') || ref_strchr(s, 'y') ||
						    ref_strchr(s, 'z') ?
						    strcspn(s, "xyz") : len),
			      "strcspn %zu", len);
			mix(strspn(s, "abcdefghijklm"));
			mix(strcspn(s, "xyz"));
			copy(c, s);
			strcat(c, d);
			CHECK(strlen(c) == 2 * len, "strcat %zu", len);
			strncat(c, "0123456789", 5);
			CHECK(strlen(c) == 2 * len + 5, "strncat %zu", len);
			mixs(c);
			CHECK(strcasecmp(s, d) == 0, "strcasecmp %zu", len);
			for (i = 0; i < len; i++)
				d[i] = toupper((unsigned char)d[i]);
			CHECK(strcasecmp(s, d) == 0, "strcasecmp upper %zu", len);
			CHECK(strncasecmp(s, d, len) == 0, "strncasecmp %zu", len);
			memset(d, 0, len + 1);
			copy_n(d, s, len / 2);
			CHECK(strlen(d) == len / 2, "strncpy %zu", len);
			mixs(d);
		}
	}
	report("strings");
}

static void test_memory(void)
{
	static unsigned char src[4200], dst[4200], ref[4200];
	size_t n, so, dof, i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = rnd();
	for (n = 0; n < 1100; n = n * 2 + 1 + (n & 3)) {
		for (so = 0; so < 64; so += 21) {
			for (dof = 0; dof < 64; dof += 45) {
				memset(dst, 0xee, n + 128);
				memset(ref, 0xee, n + 128);
				for (i = 0; i < n; i++)
					ref[dof + i] = src[so + i];
				CHECK(memcpy(dst + dof, src + so, n) == dst + dof,
				      "memcpy ret %zu", n);
				CHECK(!ref_memcmp(dst, ref, n + 128),
				      "memcpy %zu %zu %zu", n, so, dof);
				CHECK(sign(memcmp(dst + dof, src + so, n)) == 0,
				      "memcmp eq %zu", n);
				if (n) {
					dst[dof + n / 2] ^= 0x80;
					CHECK(sign(memcmp(dst + dof, src + so, n)) ==
					      sign(ref_memcmp(dst + dof, src + so, n)),
					      "memcmp ne %zu", n);
					CHECK(bcmp(dst + dof, src + so, n) != 0,
					      "bcmp %zu", n);
				}
				/* overlapping, both directions */
				memcpy(ref, dst, n + 128);
				memmove(dst + dof + 3, dst + dof, n);
				for (i = n; i-- > 0;)
					ref[dof + 3 + i] = ref[dof + i];
				CHECK(!ref_memcmp(dst, ref, n + 128),
				      "memmove up %zu", n);
				memmove(dst + so / 2, dst + so, n);
				for (i = 0; i < n; i++)
					ref[so / 2 + i] = ref[so + i];
				CHECK(!ref_memcmp(dst, ref, n + 128),
				      "memmove down %zu", n);
				memset(dst + so, (int)n, n);
				for (i = 0; i < n; i++)
					ref[so + i] = (unsigned char)n;
				CHECK(!ref_memcmp(dst, ref, n + 128), "memset %zu", n);
				mix(n + so + dof);
				for (i = 0; i < n + 128; i += 61)
					mix(dst[i]);
			}
		}
	}
	report("memory");
}

/* ---- formatted output and conversions ---- */

struct fmt_case {
	const char *fmt;
	int kind;	/* 0 int, 1 long long, 2 double, 3 string, 4 unsigned */
	long long i;
	double d;
	const char *s;
	const char *want;
};

static const struct fmt_case fmt_cases[] = {
	{ "%d", 0, 42, 0, NULL, "42" },
	{ "%5d|", 0, -42, 0, NULL, "  -42|" },
	{ "%-6d|", 0, 7, 0, NULL, "7     |" },
	{ "%+.3d", 0, 5, 0, NULL, "+005" },
	{ "%08x", 4, 0xbeef, 0, NULL, "0000beef" },
	{ "%#X", 4, 0xabc, 0, NULL, "0XABC" },
	{ "%#o", 4, 8, 0, NULL, "010" },
	{ "%lld", 1, -9223372036854775807LL, 0, NULL, "-9223372036854775807" },
	{ "%llx", 1, 0x123456789abcdefLL, 0, NULL, "123456789abcdef" },
	{ "%'d", 0, 1234567, 0, NULL, "1234567" },
	{ "%c%c", 0, 'A', 0, NULL, "AA" },
	{ "%s", 3, 0, 0, "hello", "hello" },
	{ "%10.3s|", 3, 0, 0, "abcdef", "       abc|" },
	{ "%-8s|", 3, 0, 0, "ab", "ab      |" },
	{ "%f", 2, 0, 3.14159265358979, NULL, "3.141593" },
	{ "%.2f", 2, 0, -2.675, NULL, "-2.67" },
	{ "%10.4f|", 2, 0, 1234.56789, NULL, " 1234.5679|" },
	{ "%e", 2, 0, 123456.789, NULL, "1.234568e+05" },
	{ "%.3E", 2, 0, 0.000123456, NULL, "1.235E-04" },
	{ "%g", 2, 0, 0.0001, NULL, "0.0001" },
	{ "%g", 2, 0, 1e20, NULL, "1e+20" },
	{ "%G", 2, 0, 1.5 / 1e10, NULL, "1.5E-10" },
	{ "%.10g", 2, 0, 2.0 / 3.0, NULL, "0.6666666667" },
	{ "%a", 2, 0, 1.0, NULL, "0x1p+0" },
	{ "%08.2f", 2, 0, -3.5, NULL, "-0003.50" },
	{ "%.0f", 2, 0, 2.5, NULL, "2" },
	{ "%.0f", 2, 0, 3.5, NULL, "4" },
	{ "%f", 2, 0, 1e300 * 1e10, NULL, "inf" },
	{ "%.20f", 2, 0, 0.1, NULL, "0.10000000000000000555" },
	{ "%.15g", 2, 0, 123456789012345678.0, NULL, "1.23456789012346e+17" },
};

static void test_printf(void)
{
	char buf[256], big[4096];
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(fmt_cases); i++) {
		const struct fmt_case *c = &fmt_cases[i];

		switch (c->kind) {
		case 0:
			if (!strcmp(c->fmt, "%c%c"))
				n = snprintf(buf, sizeof(buf), c->fmt,
					     (int)c->i, (int)c->i);
			else
				n = snprintf(buf, sizeof(buf), c->fmt, (int)c->i);
			break;
		case 1:
			n = snprintf(buf, sizeof(buf), c->fmt, c->i);
			break;
		case 2:
			n = snprintf(buf, sizeof(buf), c->fmt, c->d);
			break;
		case 3:
			n = snprintf(buf, sizeof(buf), c->fmt, c->s);
			break;
		default:
			n = snprintf(buf, sizeof(buf), c->fmt, (unsigned int)c->i);
			break;
		}
		CHECK(!strcmp(buf, c->want) && n == (int)strlen(c->want),
		      "snprintf(\"%s\") gave \"%s\" (%d), want \"%s\"", c->fmt,
		      buf, n, c->want);
		mixs(buf);
	}
	/* Truncation, %n-free length, and a long formatted line. */
	n = snprintf(buf, 8, "%s-%d", "abcdefgh", 12345);
	CHECK(n == 14 && !strcmp(buf, "abcdefg"), "truncation %d '%s'", n, buf);
	n = 0;
	for (i = 0; i < 24; i++)
		n += snprintf(big + n, sizeof(big) - n, "%zu:%x,", i, (unsigned int)(i * i));
	CHECK(n == (int)strlen(big), "long line %d", n);
	mixs(big);
	printf("printf-line %.60s\n", big);
	report("printf");
}

static void test_conversions(void)
{
	char buf[64], *end;
	long long v;
	double d;
	int i;

	for (i = 0; i < 24; i++) {
		long long x = ((long long)rnd() << 20 ^ rnd()) - (1LL << 40);

		snprintf(buf, sizeof(buf), "%lld", x);
		v = strtoll(buf, &end, 10);
		CHECK(v == x && !*end, "strtoll %s", buf);
		snprintf(buf, sizeof(buf), "  0x%llx", (unsigned long long)x & 0xffffffffffULL);
		CHECK((unsigned long long)strtoull(buf, NULL, 16) ==
		      ((unsigned long long)x & 0xffffffffffULL), "strtoull %s", buf);
		snprintf(buf, sizeof(buf), "%d", (int)(x % 100000));
		CHECK(atoi(buf) == (int)(x % 100000), "atoi %s", buf);
		snprintf(buf, sizeof(buf), "%.17g", (double)x / 977.0);
		d = strtod(buf, &end);
		CHECK(d == (double)x / 977.0 && !*end, "strtod %s", buf);
		mix(v);
		mixs(buf);
	}
	CHECK(strtol("zz", &end, 36) == 35 * 36 + 35, "strtol base 36");
	errno = 0;
	CHECK(strtol("99999999999999999999", NULL, 10) == 9223372036854775807L &&
	      errno == ERANGE, "strtol overflow");
	CHECK(strtod("1e-5000", NULL) == 0.0, "strtod underflow");
	CHECK(strtod("-0x1.8p1", NULL) == -3.0, "strtod hex");
	report("conversions");
}

/* ---- sorting and searching ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

#define NWORDS 60

static void test_sort(void)
{
	static int v[160];
	static char words[NWORDS][12];
	static char *pw[NWORDS];
	int i, j, n = 160, *hit;

	for (i = 0; i < n; i++)
		v[i] = (int)(rnd() % 100000) - 50000;
	qsort(v, n, sizeof(v[0]), cmp_int);
	for (i = 1; i < n; i++)
		CHECK(v[i - 1] <= v[i], "qsort int at %d", i);
	for (i = 0; i < n; i += 37) {
		hit = bsearch(&v[i], v, n, sizeof(v[0]), cmp_int);
		CHECK(hit && *hit == v[i], "bsearch %d", v[i]);
	}
	for (i = 0; i < n; i += 10)
		mix(v[i]);
	for (i = 0; i < NWORDS; i++) {
		int len = 3 + rnd() % 8;

		for (j = 0; j < len; j++)
			words[i][j] = 'a' + rnd() % 26;
		words[i][len] = '\0';
		pw[i] = words[i];
	}
	qsort(pw, NWORDS, sizeof(pw[0]), cmp_str);
	for (i = 1; i < NWORDS; i++)
		CHECK(strcmp(pw[i - 1], pw[i]) <= 0, "qsort str at %d", i);
	for (i = 0; i < NWORDS; i += 6)
		mixs(pw[i]);
	report("sort");
}

/* ---- allocation ---- */

#define NPTR 60

static void test_malloc(void)
{
	static unsigned char *p[NPTR];
	static size_t sz[NPTR];
	size_t i, j, round;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < NPTR; i++) {
			/* small, medium, and (mmap()ed) large blocks */
			size_t s = i == 7 ? 300000 + round * 4096 :
				   rnd() % 9 == 0 ? 1000 + rnd() % 6000 :
				   1 + rnd() % 300;

			if (p[i] && rnd() % 3 == 0) {
				unsigned char *q = realloc(p[i], s);

				CHECK(q, "realloc %zu", s);
				if (!q)
					continue;
				for (j = 0; j < s && j < sz[i]; j++)
					CHECK(q[j] == (unsigned char)(i + j),
					      "realloc kept %zu", j);
				p[i] = q;
			} else {
				free(p[i]);
				p[i] = (rnd() & 1) ? malloc(s) : calloc(1, s);
				CHECK(p[i], "malloc %zu", s);
				if (!p[i])
					continue;
			}
			sz[i] = s;
			for (j = 0; j < s; j++)
				p[i][j] = (unsigned char)(i + j);
			mix(s);
		}
		for (i = 0; i < NPTR; i += 1 + round) {
			for (j = 0; j < sz[i]; j += 97)
				CHECK(p[i][j] == (unsigned char)(i + j),
				      "content %zu/%zu", i, j);
			free(p[i]);
			p[i] = NULL;
			sz[i] = 0;
		}
	}
	for (i = 0; i < NPTR; i++)
		free(p[i]);
	report("malloc");
}

/* Path of the mapped C library, from /proc/self/maps. */
static int print_libc(void)
{
	char line[4096], path[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	const char *base;

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %*s %4095s", path) != 1)
			continue;
		base = strrchr(path, '/');
		if (base && !strcmp(base, "/libc.so.6")) {
			printf("libc %s\n", path);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return 1;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1, r;

	if (argc > 1 && !strcmp(argv[1], "maps"))
		return print_libc();

	for (r = 0; r < rounds; r++) {
		rnd_state = 12345;
		test_strings();
		test_memory();
		test_printf();
		test_conversions();
		test_sort();
		test_malloc();
	}
	printf("%s %d checks\n", failures ? "failed" : "ok", checks);
	return failures ? 1 : 0;
}
