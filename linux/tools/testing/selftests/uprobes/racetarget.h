/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the race tests (races.c) and their target program (racetarget.c,
 * racepage.S) share: the layout of the target's race page and the results
 * of its functions.
 *
 * The race page is one page of text holding nothing but, in this order:
 *   race_pad    RACE_PAD_LEN bytes of RACE_PAD_BYTE (x86 nops), never
 *               executed (a tracer pokes them)
 *   race_word   an 8-byte word, 0 in the file, that the program writes
 *               once it has made the page writable
 *   race_a/b/c  three small probed functions
 * so a process never touches the page unless told to run those functions.
 */
#ifndef RACETARGET_H
#define RACETARGET_H

#define RACE_PAGE_SIZE	4096
#define RACE_PAD_LEN	64
#define RACE_PAD_BYTE	0x90
/*
 * The USDT semaphore's value in the file. Not 0, so that a count taken
 * away twice shows as RACE_SEM_BASE - 1 instead of being stopped at 0
 * (an engine refuses to make a semaphore negative).
 */
#define RACE_SEM_BASE	100

#define RACE_A(x)	((x) * 5 + 1)
#define RACE_B(x)	((x) * 3 + 2)
#define RACE_C(x)	((x) * 9 + 3)

#ifndef __ASSEMBLER__
extern unsigned char race_page[], race_pad[];
extern unsigned long race_word;
long race_a(long x);
long race_b(long x);
long race_c(long x);
#endif

#endif /* RACETARGET_H */
