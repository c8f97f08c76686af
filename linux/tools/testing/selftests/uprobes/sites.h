/* SPDX-License-Identifier: GPL-2.0 */
/* Probe sites in sites.S. */
#ifndef SITES_H
#define SITES_H

long site_work(long x);
long site_load(long *p);
long site_steps(long x);
long site_ripload(void);
long site_ripstore(long x);
long site_ripcmp(long x);
long site_ripor(long x);
long site_ripsse(long x);
long site_far(long x);
long site_invept(void *desc);
unsigned long site_xv_loop(unsigned long n, unsigned long acc,
			   const unsigned long *k);

extern char site_work_probe[], site_load_probe[], site_ripload_probe[];
extern char site_ripstore_probe[], site_ripcmp_probe[];
extern char site_ripor_probe[], site_ripsse_probe[], site_invept_probe[];
extern long site_ripdata[];
extern char site_step0[], site_step1[], site_step2[], site_step3[],
	    site_step4[];
extern char site_xv_boost[], site_xv_mem[], site_xv_step[], site_xv_end[];

#define SITE_WORK(x) ((x) * 3 + 1)
#define SITE_STEPS(x) ((((x) + 5) * 3) ^ 0x55)

#endif /* SITES_H */
