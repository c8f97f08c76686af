/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stores for the watchpoint tests (watch.c), each at a label of its own:
 * wt_str(p, v) stores v at *p with "str x1, [x0]" (simulated by the
 * engine), wt_strx(p, v) with "str x1, [x0, x2]", x2 = 0 (stepped), and
 * wt_stp(p, v) stores v, v with "stp x1, x1, [x0]" (simulated).
 */
#include "upng_asm.h"

FUNC wt_str
LABEL wt_str_probe
	str	x1, [x0]
	ret
ENDF wt_str

FUNC wt_strx
	mov	x2, #0
LABEL wt_strx_probe
	str	x1, [x0, x2]
	ret
ENDF wt_strx

FUNC wt_stp
LABEL wt_stp_probe
	stp	x1, x1, [x0]
	ret
ENDF wt_stp

	.section .note.GNU-stack, "", %progbits
