/* SPDX-License-Identifier: GPL-2.0 */
/* The 32-bit code of modes.S, called from 64-bit code. */
#ifndef MODES_H
#define MODES_H

unsigned int modes_call32(unsigned int x, void *stack_top);
extern char modes_probe32[];

#endif /* MODES_H */
