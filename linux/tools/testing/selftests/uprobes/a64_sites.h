/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 functions of pauth_a64.S (pauth.c) and watch_a64.S (watch.c,
 * guard.c); see there.
 */
#ifndef A64_SITES_H
#define A64_SITES_H

long pa_sign_a(long x);
long pa_sign_b(long x);
long pa_plain(long x);
long pa_call(long x, long depth, long (*fn)(long));

long wt_str(long *p, long v);
long wt_strx(long *p, long v);
long wt_stp(long *p, long v);
extern char wt_str_probe[], wt_strx_probe[], wt_stp_probe[];

#endif /* A64_SITES_H */
