#!/usr/bin/env python3
"""make bench, function-entry basket: what a probe on a function costs.

Usage: bench-basket.py [--arch=x86|arm64] STOCK-RESULTS OURS-RESULTS ELF...

Takes the first instruction of every function of each ELF file (the start
addresses of its .eh_frame FDEs and of its dynamic FUNC symbols; a static
stripped binary has only the former), maps it to the closest of the
benchmark's probed-instruction classes (bench/uprobe_bench.c) by its form
(opcode, operands, prefixes, from the bytes) and prints, per file and for
all of them, the share of each class and the hit cost weighted by those
shares, from the "bench" lines of each kernel's results (a missing results
file counts as a kernel without figures).

An instruction gets a class only if our engine runs it the way it runs the
class's benchmark instruction (emulated, boosted or stepped, by the
engine's rules, see rule_kind()): a class stands in for the forms it costs
the same as. The rest is "other", left out of the weighted cost like
classes without a figure; the most common "other" forms are listed.

For our engine, two single-trap shares (function entries run in one trap
or none): from the kinds our kernel reported for the classes' figures
(kind= of the results), and straight from the engine's rules applied to
every first instruction, with the emulated/boosted/stepped/refused split.

--arch=arm64: the same for arm64 files and the benchmark's arm64 classes
(its results from ARCH=arm64 make bench), with the rules of our arm64
part (analyze.c: simulated, which it reports as "emulated", stepped or
refused) and aarch64-linux-gnu-objdump. Every stepped instruction runs
the same way there (one trap, the out-of-line copy, one hardware step):
a stepped form with no class of its own gets the cost of "lsl".
"""
import collections
import os
import re
import subprocess
import sys

# The probed instruction of each class of bench/uprobe_bench.c, encoded as
# the assembler does: rule_kind() of these bytes is how our engine runs the
# class (the "rules" column, checked against the kind our kernel reports).
BENCH_CODE = {
    "nop": "90", "endbr64": "f30f1efa", "push": "55", "pop": "58",
    "leave": "c9", "sub_rsp": "4883ec08", "add_rsp": "4883c408",
    "mov_reg": "4889f8", "mov_imm": "b801000000",
    "mov_to_stack": "48897c24f8", "mov_from_stack": "488b442408",
    "mov_mem": "8b07", "store_mem": "8937",
    "fs_load": "64488b042528000000", "riprel": "488b0500000000",
    "riprel_store": "48893d00000000", "lea": "488d4708",
    "lea_rip": "488d0500000000", "xor": "31c0", "test": "4885ff",
    "cmp": "4883ff01", "cmp_mem": "803f00", "cmp_rip": "803d0000000000",
    "jcc_taken": "7405", "jcc_not_taken": "7505", "jmp_rel8": "eb02",
    "jmp_rel32": "e902000000", "call": "e801000000", "ret": "c3",
    "pushf": "9c", "rep_movsb": "f3a4", "sse_riprel": "f30f6f0500000000",
    "avx_riprel": "c5fe6f0500000000", "nop5": "0f1f440000",
    "add_rip": "8305000000000001", "cvt_rip": "f20f2a0500000000",
    "fld_rip": "d90500000000", "fld_reg": "d907",
}

LEGACY_PREFIXES = {0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0,
                   0xf2, 0xf3}
# One-byte opcodes followed by a ModRM byte (64-bit mode; c4, c5 and 62
# are VEX/EVEX there and decoded apart).
MODRM1 = (set(range(0x00, 0x04)) | set(range(0x08, 0x0c)) |
          set(range(0x10, 0x14)) | set(range(0x18, 0x1c)) |
          set(range(0x20, 0x24)) | set(range(0x28, 0x2c)) |
          set(range(0x30, 0x34)) | set(range(0x38, 0x3c)) |
          {0x63, 0x69, 0x6b} | set(range(0x80, 0x90)) |
          {0xc0, 0xc1, 0xc6, 0xc7} | set(range(0xd0, 0xd4)) |
          set(range(0xd8, 0xe0)) | {0xf6, 0xf7, 0xfe, 0xff})
# Two-byte (0f xx) opcodes without a ModRM byte.
NO_MODRM2 = ({0x05, 0x06, 0x07, 0x08, 0x09, 0x0b, 0x0e, 0x77, 0xa0, 0xa1,
              0xa2, 0xa8, 0xa9, 0xaa} | set(range(0x30, 0x38)) |
             set(range(0x80, 0x90)) | set(range(0xc8, 0xd0)))


class Insn:
    """The parts of an x86-64 instruction the engine's rules look at."""

    def __init__(self):
        self.prefixes = []	# legacy prefixes, in order
        self.rex = 0
        self.rex2 = False
        self.vex = 0		# bytes of the VEX (2, 3) or EVEX (4) prefix
        self.map = 1		# 1: one-byte, 2: 0f, 3: 0f 38, 4: 0f 3a
        self.op = None
        self.modrm = None
        self.base = None	# base register number of a memory operand
        self.rip = False	# rip-relative memory operand
        self.length = 0		# bytes of the instruction

    @property
    def mod(self):
        return self.modrm >> 6

    @property
    def reg(self):
        return (self.modrm >> 3) & 7

    @property
    def mem(self):
        return self.modrm is not None and self.mod != 3

    def has(self, prefix):
        return prefix in self.prefixes


def decode(code):
    """The Insn of @code (64-bit mode), or None if it does not decode."""
    d, i = Insn(), 0
    d.length = len(code)
    try:
        while code[i] in LEGACY_PREFIXES:
            d.prefixes.append(code[i])
            i += 1
        if code[i] & 0xf0 == 0x40:
            d.rex = code[i]
            i += 1
        if code[i] == 0xd5:
            d.rex2 = True
            return d
        if code[i] in (0xc4, 0xc5, 0x62):
            d.vex = {0xc5: 2, 0xc4: 3, 0x62: 4}[code[i]]
            d.map = 2 if d.vex == 2 else 1 + (code[i + 1] & 0x3)
            i += d.vex
            d.op = code[i]
            has_modrm = not (d.map == 2 and d.op == 0x77)	# vzero*
        elif code[i] == 0x0f and code[i + 1] in (0x38, 0x3a):
            d.map = 3 if code[i + 1] == 0x38 else 4
            d.op = code[i + 2]
            i += 2
            has_modrm = True
        elif code[i] == 0x0f:
            d.map = 2
            d.op = code[i + 1]
            i += 1
            has_modrm = d.op not in NO_MODRM2
        else:
            d.op = code[i]
            has_modrm = d.op in MODRM1
        i += 1
        if has_modrm:
            d.modrm = code[i]
            rm = d.modrm & 7
            if d.mod != 3:
                if rm == 4:
                    base = code[i + 1] & 7
                    if not (d.mod == 0 and base == 5):	# no base
                        d.base = base | (d.rex & 1) << 3
                elif d.mod == 0 and rm == 5:
                    d.rip = True
                else:
                    d.base = rm | (d.rex & 1) << 3
    except IndexError:
        return None
    return d


def refusal(d):
    """Why the engine refuses to probe @d (analyze.c), or None."""
    op, reg = d.op, d.reg if d.modrm is not None else 0
    if d.rex2:
        return "REX2 prefix"
    if d.has(0xf0):
        return "lock prefix"
    for p in d.prefixes:
        if p not in (0x26, 0x2e, 0x36, 0x3e):
            continue
        if d.map == 1 and not d.vex and (
                0x70 <= op <= 0x7f or
                (op == 0xff and p == 0x3e and reg in (2, 4))):
            continue		# jcc hint, notrack
        if d.map == 2 and not d.vex and (0x80 <= op <= 0x8f or op == 0x1f):
            continue		# jcc hint, nop padding
        return "segment override"
    if d.vex:
        return None
    # 66 on a near branch, call or ret (analyze.c uprobe_x86_plan())
    if d.has(0x66) and (
            d.map == 1 and (0x70 <= op <= 0x7f or 0xe0 <= op <= 0xe3 or
                            op in (0xe8, 0xe9, 0xeb, 0xc2, 0xc3) or
                            (op == 0xff and reg in (2, 4))) or
            d.map == 2 and 0x80 <= op <= 0x8f):
        return "operand-size prefix on branch"
    if d.map == 1:
        if op in (0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f,
                  0x37, 0x3f, 0x60, 0x61, 0x82, 0x9a, 0xea, 0xce, 0xd4,
                  0xd5, 0xcc, 0xcd, 0xf1, 0xcf, 0x8e, 0xca, 0xcb, 0xf4,
                  0xfa, 0xfb, 0xd6) or 0x6c <= op <= 0x6f or \
                0xe4 <= op <= 0xe7 or 0xec <= op <= 0xef:
            return "refused opcode"
        if (op == 0x8f and reg) or (op in (0xc6, 0xc7) and
                                    (reg or d.modrm == 0xf8)) or \
                (op == 0xfe and reg > 1) or (op == 0xff and reg in (3, 5, 7)):
            return "refused opcode"
    elif d.map == 2:
        mod3 = d.modrm is not None and d.mod == 3
        if op in (0x05, 0x07, 0x34, 0x35, 0x00, 0x06, 0x08, 0x09, 0x20,
                  0x21, 0x22, 0x23, 0x30, 0x32, 0x37, 0xaa, 0xa1, 0xa9,
                  0xb2, 0xb4, 0xb5, 0x0b, 0xb9, 0xff, 0x04, 0x0a, 0x0c,
                  0x0f, 0x24, 0x25, 0x26, 0x27, 0x36, 0x39, 0x3b, 0x3c,
                  0x3d, 0x3e, 0x3f, 0x7a, 0x7b, 0xa6, 0xa7):
            return "refused opcode"
        if op == 0x01 and not (mod3 and d.modrm in (0xd0, 0xd6, 0xe8, 0xee,
                                                    0xef, 0xf9)):
            return "refused opcode"
        if op in (0x78, 0x79) and not (d.has(0x66) or d.has(0xf2)):
            return "refused opcode"
        if op == 0xc7 and ((reg in (1, 4) and mod3) or
                           (reg >= 6 and not mod3) or reg in (0, 2, 3, 5)):
            return "refused opcode"
    return None


def riprel_emulated(d):
    """mov disp32(%rip) to or from a 32/64-bit register, lea into a 64-bit
    one, cmp/test of a disp32(%rip) operand with an immediate or a 32/64-bit
    register (analyze.c uprobe_x86_plan_riprel()); no legacy prefix."""
    if not d.rip or d.prefixes or d.map != 1:
        return False
    op = d.op
    return (op in (0x8b, 0x89, 0x39, 0x3b, 0x85) or
            op == 0x8d and d.rex & 8 or
            op in (0x80, 0x81, 0x83) and d.reg == 7 or
            op in (0xf6, 0xf7) and d.reg == 0)


def x87_riprel(d):
    """An x87 instruction on a disp32(%rip) operand the kernel runs (x87.c:
    not fisttp, not an invalid form; no legacy prefix)."""
    return (d.rip and not d.prefixes and d.map == 1 and
            0xd8 <= d.op <= 0xdf and
            ((d.op & 7) << 3 | d.reg) not in (0o11, 0o31, 0o34, 0o36, 0o51,
                                               0o55, 0o71))


def emulated(d):
    """Does the engine emulate @d (analyze.c uprobe_x86_plan())?"""
    if d.vex:
        return False
    if d.map == 1:
        op = d.op
        if op == 0x90:
            return not d.rex & 1	# 41 90 is xchg %r8d,%eax
        if 0x50 <= op <= 0x57:
            return not d.has(0x66)	# pushw is stepped
        if 0x70 <= op <= 0x7f or op in (0xe8, 0xe9, 0xeb, 0xc2, 0xc3):
            return True
        if op == 0x9c:
            return not d.has(0x66)	# pushfw is stepped
        return riprel_emulated(d) or x87_riprel(d)
    if d.map == 2:
        if 0x80 <= d.op <= 0x8f:
            return True
        if d.op == 0x1f:
            return d.reg == 0
        if d.op == 0x1e:
            return d.has(0xf3) and d.modrm in (0xfa, 0xfb)
    return False


# MMX/SSE/AVX ops of the 0f map a boosted slot runs (boost.c
# uprobe_x86_boost_simd_op()); the 0f 38 and 0f 3a maps all
SIMD_OPS = (set(range(0x10, 0x18)) | set(range(0x28, 0x30)) |
            set(range(0x50, 0x77)) | set(range(0x7c, 0x80)) |
            {0xc2, 0xc4, 0xc5, 0xc6} | set(range(0xd0, 0xff)))


def simd(d):
    """A SIMD instruction boost.c takes (uprobe_x86_boost_simd())?"""
    if d.modrm is None or d.vex == 4:
        return False
    return d.map in (3, 4) or d.map == 2 and d.op in SIMD_OPS


def boostable(d):
    """May @d run from a boosted slot (boost.c uprobe_x86_boostable())?
    A rip-relative operand is relocated for the slot (in reach: the XOL
    area is placed below the probed code)."""
    is_simd = simd(d)
    if d.vex:
        return is_simd and all(p in (0x64, 0x65) for p in d.prefixes)
    if any(p not in (0x66, 0x64, 0x65) and
           not (is_simd and p in (0xf2, 0xf3)) for p in d.prefixes):
        return False
    if is_simd:
        return True
    op = d.op
    if d.map == 1 and op == 0x8d:
        return d.mem
    if d.map == 1 and d.modrm is None:
        return (op in (0x04, 0x05, 0x0c, 0x0d, 0x14, 0x15, 0x1c, 0x1d, 0x24,
                       0x25, 0x2c, 0x2d, 0x34, 0x35, 0x3c, 0x3d, 0x98, 0x99,
                       0xa8, 0xa9, 0xf5, 0xf8, 0xf9, 0xfc, 0xfd, 0x68, 0x6a,
                       0xc9) or
                0x91 <= op <= 0x97 or 0xb0 <= op <= 0xbf or
                0x58 <= op <= 0x5f)
    if d.map == 1:
        if op in (0xc6, 0xc7):
            return d.reg == 0
        if op in (0xf6, 0xf7):
            return d.reg in (0, 2, 3)
        if op in (0xfe, 0xff):
            return d.reg <= 1
        return (op <= 0x3b and op & 7 <= 3) or op in (
            0x63, 0x69, 0x6b, 0x80, 0x81, 0x83, 0xc0, 0xc1) or \
            0x84 <= op <= 0x8b or 0xd0 <= op <= 0xd3
    if d.map == 2:
        if 0xc8 <= op <= 0xcf:
            return True		# bswap
        return d.modrm is not None and (
            0x40 <= op <= 0x4f or 0x90 <= op <= 0x9f or
            op in (0xa3, 0xab, 0xb3, 0xbb, 0xa4, 0xa5, 0xac, 0xad, 0xaf,
                   0xb6, 0xb7, 0xbe, 0xbf, 0xbc, 0xbd))
    return False


def long_nop(d):
    """Is @d a nop of five bytes or more, which becomes a jump?"""
    return not d.vex and d.map == 2 and d.op == 0x1f and d.reg == 0 and \
        d.length >= 5


def rule_kind(code):
    """How our engine runs @code by its rules: emulated, boosted, stepped,
    refused (or undecoded)."""
    d = decode(code)
    if d is None:
        return "undecoded"
    if refusal(d):
        return "refused"
    if long_nop(d):
        return "jump"		# a jump to a stub (stub.c)
    if emulated(d):
        return "emulated"
    # popf, pushfw, rep strings and indirect branches get fix-ups: stepped,
    # none of which boostable() takes.
    return "boosted" if boostable(d) else "stepped"


CLASS_KIND = {c: rule_kind(bytes.fromhex(h)) for c, h in BENCH_CODE.items()}
SINGLE_TRAP = ("jump", "emulated", "boosted")
RSP = 4
JCC_CLASS = "jcc_not_taken"	# a jcc as a function's first instruction
STEPPED = "fld_reg"		# the class whose cost stepped forms get
ALU_CMP = {0x38, 0x39, 0x3a, 0x3b}


def form_class(d, ops):
    """The benchmark class closest to @d by form, or "other"."""
    op = d.op
    mem = d.mem
    stack = mem and d.base == RSP
    fs = d.has(0x64) or d.has(0x65)
    if d.vex:
        # SIMD and BMI: boosted like the AVX load, EVEX stepped
        return "avx_riprel" if boostable(d) else STEPPED
    if d.map == 2 and d.op == 0x1e and d.has(0xf3):
        return "endbr64"
    if d.map == 2 and d.op == 0x1f:
        # a nop of five bytes or more becomes a jump, as the five-byte one;
        # shorter ones are emulated like a one-byte nop
        return "nop5" if long_nop(d) else "nop"
    if d.map == 1 and op == 0x90:
        return "nop"
    if d.map == 1 and d.modrm is None:
        if 0x50 <= op <= 0x57:
            return "push"
        if 0x58 <= op <= 0x5f or op in (0x68, 0x6a):
            return "pop"	# push imm: a boosted stack access too
        if op == 0xc9:
            return "leave"
        if op in (0x9c, 0x9d):
            return "pushf"
        if 0xa4 <= op <= 0xa7 or 0xaa <= op <= 0xaf:
            return "rep_movsb"
        if 0x70 <= op <= 0x7f:
            return JCC_CLASS
        if op in (0xc2, 0xc3):
            return "ret"
        if op == 0xe8:
            return "call"
        if op == 0xeb:
            return "jmp_rel8"
        if op == 0xe9:
            return "jmp_rel32"
        if 0xb0 <= op <= 0xbf:
            return "mov_imm"
        if op in (0x3c, 0x3d):
            return "cmp"
        if op in (0xa8, 0xa9):
            return "test"
        if 0x91 <= op <= 0x99:
            return "mov_reg"	# xchg with ax, cbw/cwd & co
        if op <= 0x3f or 0xf5 <= op <= 0xfd:
            return "xor"	# ALU on al/ax with imm, flag ops
        return "other"
    if d.map == 2 and 0x80 <= op <= 0x8f:
        return JCC_CLASS
    if d.map in (2, 3, 4) and ("%xmm" in ops or "%mm" in ops):
        # legacy SSE: moves like the SSE load, arithmetic like cvtsi2sd
        if not boostable(d):
            return STEPPED
        return "sse_riprel" if d.op in (0x10, 0x11, 0x28, 0x29, 0x6e,
                                        0x6f, 0x7e, 0x7f, 0xd6) \
            else "cvt_rip"
    if d.map == 2 and 0xc8 <= op <= 0xcf:
        return "xor"		# bswap
    if d.modrm is None:
        return "other"
    reg = d.reg
    if d.map == 1 and op in (0xff, 0xfe) and reg <= 1 or \
            d.map == 1 and op in (0xf6, 0xf7) and reg in (2, 3):
        shape = "alu"		# inc, dec, not, neg
    elif d.map == 1 and op == 0xff and reg in (2, 4, 6):
        # indirect call/jmp, push r/m: only the rip-relative memory read
        # has a class, a stepped one
        return STEPPED if d.rip else "other"
    elif d.map == 1 and (op in (0x88, 0x89) or op in (0xc6, 0xc7) and
                         reg == 0):
        shape = "store"
    elif d.map == 1 and op in (0x8a, 0x8b, 0x63) or \
            d.map == 2 and op in (0xb6, 0xb7, 0xbe, 0xbf):
        shape = "load"		# mov, movsxd, movzx, movsx
    elif d.map == 1 and op == 0x8d:
        shape = "lea"
    elif d.map == 1 and (op in ALU_CMP or op in (0x80, 0x81, 0x83) and
                         reg == 7):
        shape = "cmp"
    elif d.map == 1 and (op in (0x84, 0x85) or op in (0xf6, 0xf7) and
                         reg == 0) or d.map == 2 and op in (0xa3, 0xba):
        shape = "test"		# test, bt
    elif d.map == 1 and op in (0x86, 0x87):
        shape = "xchg"
    elif d.map == 1 and (op <= 0x3b or op in (0x69, 0x6b, 0x80, 0x81, 0x83,
                                              0xc0, 0xc1) or
                         0xd0 <= op <= 0xd3):
        shape = "alu"
    elif d.map == 2 and (0x40 <= op <= 0x4f or 0x90 <= op <= 0x9f):
        shape = "cmov"		# cmovcc, setcc
    elif d.map == 2 and op in (0xab, 0xb3, 0xbb, 0xa4, 0xa5, 0xac, 0xad,
                               0xaf, 0xbc, 0xbd, 0xb8):
        shape = "alu"		# bts/btr/btc, shld/shrd, imul, bsf/bsr, popcnt
    elif d.map == 1 and 0xd8 <= op <= 0xdf and d.mem:
        # x87 memory operand: run in the kernel when rip-relative
        return "fld_rip" if x87_riprel(d) else STEPPED
    else:
        return "other"		# x87 registers, system, ...
    if d.rip:
        if not riprel_emulated(d):
            # any other rip-relative operand: boosted, relocated
            return "add_rip" if boostable(d) else STEPPED
        if shape == "load":
            return "riprel"
        if shape == "lea":
            return "lea_rip"
        if shape == "store":
            return "riprel_store"
        return "cmp_rip"
    if shape == "lea":
        return "lea"
    if mem:
        if fs and shape == "load":
            return "fs_load"
        if shape == "load":
            return "mov_from_stack" if stack else "mov_mem"
        if shape == "store":
            return "mov_to_stack" if stack else "store_mem"
        if shape == "xchg":
            return "store_mem"
        return "cmp_mem"	# cmp, test or ALU with a memory operand
    # register operands only
    if shape in ("load", "store", "xchg", "cmov"):
        return "mov_imm" if op in (0xc6, 0xc7) else "mov_reg"
    if shape in ("cmp", "test"):
        return shape
    rm = d.modrm & 7 | (d.rex & 1) << 3
    if rm == RSP and d.map == 1 and (
            op in (0x01, 0x29) or op in (0x81, 0x83) and reg in (0, 5)):
        return "add_rsp" if op == 0x01 or reg == 0 else "sub_rsp"
    return "xor"		# other register ALU


def classify(code, text):
    """(class, kind by the engine's rules) of an instruction."""
    kind = rule_kind(code)
    d = decode(code)
    if d is None or kind in ("refused", "undecoded"):
        return "other", kind
    _, _, ops = text.partition(" ")
    cls = form_class(d, ops)
    # A class stands only for what the engine runs the same way.
    if cls != "other" and CLASS_KIND.get(cls) != kind:
        cls = "other"
    return cls, kind


def form(text):
    """@text with immediates, displacements and addresses generalised."""
    t = re.sub(r"\$-?0x[0-9a-f]+", "$imm", text)
    t = re.sub(r"-?0x[0-9a-f]+(?=\()", "disp", t)
    t = re.sub(r"(?<=:)-?0x[0-9a-f]+", "disp", t)
    t = re.sub(r"(?<=[ ,*])-?0x[0-9a-f]+", "addr", t)
    return re.sub(r"(?<= )[0-9a-f]+$", "addr", t)


# arm64 (--arch=arm64): the probed instruction of each class of
# bench/uprobe_bench.c's arm64 set, as 32-bit words.
A64_BENCH_CODE = {
    "nop": 0xd503201f, "bti_c": 0xd503245f, "paciasp": 0xd503233f,
    "stp_fp": 0xa9bf7bfd, "mov_fp": 0x910003fd, "sub_sp": 0xd10083ff,
    "add_sp": 0x910083ff, "stp_stack": 0xa90153f3, "str_stack": 0xf90007e0,
    "ldr_stack": 0xf94007e0, "ldr_mem": 0xf9400020, "str_mem": 0xf9000020,
    "mrs_tls": 0xd53bd040, "add": 0x91000400, "mov_reg": 0xaa0003e1,
    "mov_imm": 0xd2800020, "cmp": 0xf100041f, "lsl": 0xd37ff800,
    "fmov": 0x9e670000,
    "b": 0x14000002, "bl": 0x94000003, "bcond_taken": 0x54000040,
    "bcond_not_taken": 0x54000041, "cbz": 0xb4000041, "tbz": 0xb6f80040,
    "ret": 0xd65f03c0, "br": 0xd61f0020, "blr": 0xd63f0020,
    "adr": 0x10000040, "adrp": 0xf0000560, "ldr_lit": 0x58000040,
}


def is_(w, mask, val):
    return w & mask == val


def a64_system_kind(w):
    """How the engine runs system instruction @w (analyze.c
    uprobe_arm64_plan_system())."""
    op1, crn, op2 = (w >> 16) & 7, (w >> 12) & 0xf, (w >> 5) & 7
    load = bool(w & 1 << 21)
    if is_(w, 0xfffff01f, 0xd503201f):			# hint
        if w & 0xfe0 == 0 or is_(w, 0xffffff3f, 0xd503241f):
            return "emulated"				# nop, bti
        return "stepped"
    op0 = (w >> 19) & 3
    if op0 == 0:
        if (is_(w, 0xfffff0ff, 0xd50330bf) or		# dmb
                is_(w, 0xfffff0ff, 0xd503309f) or	# dsb
                is_(w, 0xfffff3ff, 0xd503323f) or	# dsb nXS
                is_(w, 0xfffff0ff, 0xd50330df) or	# isb
                w in (0xd50330ff, 0xd503309f, 0xd503349f) or
                is_(w, 0xfffff0ff, 0xd503305f)):	# clrex
            return "stepped"
        if is_(w, 0xfff8f01f, 0xd500401f):		# msr (immediate)
            user = op2 <= 2 if op1 == 0 else op1 == 3 and op2 in (1, 2, 4)
            return "stepped" if user else "refused"
        return "refused"
    if op0 == 1:
        return "stepped" if not load and op1 == 3 and crn == 7 \
            else "refused"
    if op0 == 2:
        return "refused"
    return "stepped" if op1 == 3 or (load and op1 == 0 and crn == 0) \
        else "refused"


def a64_rule_kind(w):
    """How our engine runs A64 instruction @w by its rules (analyze.c
    uprobe_arm64_plan()): emulated (simulated), stepped or refused. A
    bc.cond counts as simulated (it is where the CPU has FEAT_HBC)."""
    op0 = (w >> 25) & 0xf
    if op0 == 0:
        return "stepped" if w & 1 << 31 else "refused"	# SME, udf
    if op0 in (1, 3):
        return "refused"
    if op0 in (8, 9):
        if (is_(w, 0x1f000000, 0x10000000) or		# adr, adrp
                is_(w, 0x1f800000, 0x11000000)):	# add, sub (immediate)
            return "emulated"
        if is_(w, 0x1f800000, 0x12800000):		# movn, movz, movk
            unalloc = (w >> 29) & 3 == 1 or (not w >> 31 and w & 1 << 22)
            return "stepped" if unalloc else "emulated"
        return "stepped"
    if op0 in (5, 0xd):
        if not w >> 31 and w & 1 << 15:
            return "stepped"		# a w register shifted by 32 or more
        if is_(w, 0x1f000000, 0x0a000000):		# logic (shifted register)
            return "emulated"
        if is_(w, 0x1f200000, 0x0b000000) and (w >> 22) & 3 != 3:
            return "emulated"				# add, sub (shifted register)
        return "stepped"
    if op0 in (0xa, 0xb):
        if (is_(w, 0x7c000000, 0x14000000) or		# b, bl
                is_(w, 0x7c000000, 0x34000000) or	# cbz, cbnz, tbz, tbnz
                is_(w, 0xff000000, 0x54000000)):	# b.cond
            return "emulated"
        if is_(w, 0xff000000, 0xd4000000):		# svc, brk, ...
            return "refused"
        if is_(w, 0xffc00000, 0xd5000000):
            return a64_system_kind(w)
        if w & 0xfffffc1f in (0xd61f0000, 0xd63f0000, 0xd65f0000):
            return "emulated"				# br, blr, ret
        return "refused"	# with pointer authentication, eret, ...
    if op0 in (4, 6, 0xc, 0xe):
        if is_(w, 0x3b000000, 0x18000000):		# literal load
            if w & 1 << 26:
                return "refused"			# SIMD&FP
            if w >> 30 == 3:
                return "emulated"			# prfm
            return "refused" if w & 0x1f == 31 else "emulated"
        if w & 0x7fc00000 in (0x29000000, 0x28800000, 0x29800000):
            # stp of general registers; a written-back base also stored
            # is stepped
            rt, rt2, rn = w & 31, (w >> 10) & 31, (w >> 5) & 31
            wb = w & 0x7fc00000 != 0x29000000
            return "stepped" if wb and rn != 31 and rn in (rt, rt2) \
                else "emulated"
        if is_(w, 0x3f000000, 0x39000000) or \
                (is_(w, 0x3f200000, 0x38000000) and (w >> 10) & 3 != 2):
            # ldr, str (immediate) of a general register; prfm
            size, opc, rt, rn = w >> 30, (w >> 22) & 3, w & 31, (w >> 5) & 31
            wb = not w & 1 << 24 and w & 1 << 10
            if size == 3 and opc == 2:
                return "stepped" if wb else "emulated"
            if (size >= 2 and opc == 3) or (wb and rn == rt and rn != 31):
                return "stepped"
            return "emulated"
        if is_(w, 0x3b200c00, 0x19000400):
            return "refused"				# FEAT_MOPS
        if is_(w, 0x3f800000, 0x08000000) and \
                not (w & 1 << 21 and not w & 1 << 31):
            return "refused"				# exclusive
        return "stepped"
    return "stepped"	# data processing (register), SIMD&FP, SVE


A64_CLASS_KIND = {c: a64_rule_kind(w) for c, w in A64_BENCH_CODE.items()}
A64_REG = r"(?:[wx](?:[0-9]|[12][0-9]|30)|[wx]zr)"
A64_FP = re.compile(r"\b(?:[vqdshbz][0-9]+|p[0-9]+)(?:\.|\b)")


def a64_form_class(w, text):
    """The benchmark class closest to @w (its objdump @text) by form. The
    forms with no class of their own get "lsl" (a bitfield move, stepped):
    every stepped instruction costs the same (one trap, the out-of-line
    copy, one hardware step)."""
    mn, _, ops = text.partition(" ")
    ops = ops.replace(" ", "")
    if is_(w, 0xfffff01f, 0xd503201f):
        if w & 0xfe0 == 0:
            return "nop"
        return "bti_c" if a64_rule_kind(w) == "emulated" else "paciasp"
    if is_(w, 0x7c000000, 0x14000000):
        return "bl" if w >> 31 else "b"
    if is_(w, 0xff000000, 0x54000000):
        return "bcond_not_taken"	# a b.cond first: either way
    if is_(w, 0x7e000000, 0x34000000):
        return "cbz"
    if is_(w, 0x7e000000, 0x36000000):
        return "tbz"
    if w & 0xfffffc1f == 0xd65f0000:
        return "ret"
    if w & 0xfffffc1f == 0xd61f0000:
        return "br"
    if w & 0xfffffc1f == 0xd63f0000:
        return "blr"
    if is_(w, 0x9f000000, 0x10000000):
        return "adr"
    if is_(w, 0x9f000000, 0x90000000):
        return "adrp"
    if is_(w, 0x3b000000, 0x18000000):
        return "ldr_lit"
    # the simulated forms of a function's entry
    if mn == "stp" and ops.startswith("x29,x30,[sp,#-") and \
            ops.endswith("]!"):
        return "stp_fp"
    if mn == "mov" and ops == "x29,sp":
        return "mov_fp"
    if mn in ("sub", "add") and ops.startswith("sp,sp,#"):
        return mn + "_sp"
    if mn == "stp" and not A64_FP.search(ops):
        return "stp_stack"
    if mn == "mrs":
        return "mrs_tls"
    load = re.match(r"ld|cas|swp", mn)
    if (load or mn.startswith("st")) and "[" in ops:
        stack = "[sp" in ops
        if mn.startswith("stp") and stack:
            return "stp_stack"
        if load:
            return "ldr_stack" if stack else "ldr_mem"
        return "str_stack" if stack else "str_mem"
    if A64_FP.search(ops) or mn.startswith("f"):
        return "fmov"
    if mn == "mov" and re.fullmatch(r"(?:{0}|sp),(?:{0}|sp)".format(A64_REG),
                                    ops):
        return "mov_reg" if "sp" not in ops.split(",") else "add"
    if mn in ("mov", "movz", "movn", "movk"):
        return "mov_imm"
    if mn in ("cmp", "cmn", "tst"):
        return "cmp"
    if mn in ("add", "sub", "neg", "and", "orr", "eor", "bic", "orn", "eon",
              "mvn", "adds", "subs", "negs", "ands", "bics"):
        return "add"
    return "lsl"


def a64_classify(w, text):
    """(class, kind by the engine's rules) of an A64 instruction: a form
    whose class runs another way than it gets "lsl" if stepped, "other"
    if simulated."""
    kind = a64_rule_kind(w)
    if kind == "refused":
        return "other", kind
    cls = a64_form_class(w, text)
    if A64_CLASS_KIND.get(cls) != kind:
        cls = "lsl" if kind == "stepped" else "other"
    return cls, kind


def a64_form(text):
    """@text with immediates and addresses generalised."""
    t = re.sub(r"#-?(?:0x[0-9a-f]+|[0-9]+)", "#imm", text)
    return re.sub(r"(?<=[ ,])0x[0-9a-f]+", "addr", t)


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, capture_output=True,
                          text=True).stdout


def function_starts(path):
    # readelf 2.40 exits with 1 after dumping libc's frames, saying nothing.
    starts = {int(a, 16) for a in re.findall(
        r" FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\.\.",
        sh("readelf", "--debug-dump=frames", path, check=False))}
    for line in sh("readelf", "--dyn-syms", "-W", path).splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[3] == "FUNC" and f[6] != "UND" and int(f[1], 16):
            starts.add(int(f[1], 16))
    return starts


def first_instructions(path, starts, arch):
    """{address: (code, text)} of the instructions at @starts: code is
    the bytes on x86, the instruction word on arm64."""
    insns = {}
    line_re = re.compile(r"^ *([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$")
    for line in sh(arch["objdump"], "-d", "-w", path).splitlines():
        m = line_re.match(line)
        if m and int(m.group(1), 16) in starts:
            text = re.sub(arch["comment"], "", m.group(3))
            code = m.group(2).strip()
            code = int(code, 16) if arch["word"] else bytes.fromhex(code)
            insns[int(m.group(1), 16)] = (code, " ".join(text.split()))
    return insns


def results(path):
    """{name: {key: value}} of the "bench" lines of a results file."""
    res = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) > 1 and fields[0] == "bench":
                    res[fields[1]] = dict(kv.split("=", 1)
                                          for kv in fields[2:] if "=" in kv)
    return res


def hit_ns(res, cls):
    try:
        return float(res[cls]["hit_ns"])
    except (KeyError, ValueError):
        return None


def pct(part, whole):
    return "%.1f%%" % (100.0 * part / whole) if whole else "-"


# What differs between the architectures: the disassembler (and its
# comment syntax), the classes' rules, the kinds our engine has, those
# that take one trap or none.
ARCHS = {
    "x86": {
        "objdump": "objdump", "comment": r"\s+#.*|\s+<.*", "word": False,
        "classify": classify, "form": form, "class_kind": CLASS_KIND,
        "bench_code": BENCH_CODE, "single_trap": SINGLE_TRAP,
        "kinds": ("jump", "emulated", "boosted", "stepped", "refused",
                  "undecoded"),
    },
    "arm64": {
        "objdump": "aarch64-linux-gnu-objdump", "comment": r"\s+//.*|\s+<.*",
        "word": True, "classify": a64_classify, "form": a64_form,
        "class_kind": A64_CLASS_KIND, "bench_code": A64_BENCH_CODE,
        "single_trap": ("emulated",),
        "kinds": ("emulated", "stepped", "refused"),
    },
}


def main():
    args = sys.argv[1:]
    arch = ARCHS["x86"]
    if args and args[0].startswith("--arch="):
        arch = ARCHS[args.pop(0).split("=", 1)[1]]
    classify, form = arch["classify"], arch["form"]
    class_kind, single_trap = arch["class_kind"], arch["single_trap"]
    stock, ours = results(args[0]), results(args[1])
    files = args[2:]
    counts, kinds = {}, {}
    other_forms = collections.Counter()
    for path in files:
        name = os.path.basename(path)
        starts = function_starts(path)
        insns = first_instructions(path, starts, arch)
        c = counts[name] = collections.Counter()
        k = kinds[name] = collections.Counter()
        for code, text in insns.values():
            cls, kind = classify(code, text)
            c[cls] += 1
            k[kind] += 1
            if cls == "other":
                other_forms[(form(text), kind)] += 1
    counts["all"] = sum(counts.values(), collections.Counter())
    kinds["all"] = sum(kinds.values(), collections.Counter())
    cols = list(counts)
    total = {c: sum(counts[c].values()) for c in cols}
    kernels = [res for res in (stock, ours) if res]
    # Classes with a figure on every kernel there are results of.
    costed = {cls for cls in counts["all"]
              if kernels and all(hit_ns(res, cls) is not None
                                 for res in kernels)}
    # The benchmark's classes in its order, then the others by share.
    rows = [c for c in (ours or stock or arch["bench_code"])
            if c in counts["all"]]
    rows += sorted((c for c in counts["all"] if c not in rows
                    and c != "other"), key=lambda c: -counts["all"][c])
    rows += ["other"] if "other" in counts["all"] else []

    def fig(res, cls):
        v = hit_ns(res, cls)
        return "-" if v is None else "%.0f" % v

    def line(label, values):
        print("%-18s" % label + "".join("%11s" % v for v in values))

    print("function entries: first instruction of each function "
          "(.eh_frame FDEs, dynamic symbols), by the benchmark class of "
          "its form")
    print("%-18s" % "class" + "".join("%11s" % c[:10] for c in cols) +
          "%9s%9s%8s  %-9s %s" % ("stock", "ours", "o/s", "rules",
                                  "kind (ours)"))
    for cls in rows:
        s, o = hit_ns(stock, cls), hit_ns(ours, cls)
        rule = class_kind.get(cls, "-")
        kind = ours.get(cls, {}).get("kind", "-")
        if kind not in ("-", rule) and cls != "other":
            kind += " (!= rules)"
        print("%-18s" % cls +
              "".join("%11s" % pct(counts[c][cls], total[c]) for c in cols) +
              "%9s%9s%8s  %-9s %s" % (fig(stock, cls), fig(ours, cls),
                                      "%.2f" % (o / s) if s and o else "-",
                                      rule if cls != "other" else "-", kind))
    line("functions", [total[c] for c in cols])
    line("with a figure", [pct(sum(n for k, n in counts[c].items()
                                   if k in costed), total[c]) for c in cols])
    weighted = {}
    for label, res in (("stock", stock), ("ours", ours)):
        weighted[label] = []
        for c in cols:
            n = sum(counts[c][k] for k in costed)
            weighted[label].append(
                sum(counts[c][k] * hit_ns(res, k) for k in costed) / n
                if res and n else None)
        line("ns/hit " + label, ["-" if w is None else "%.0f" % w
                                 for w in weighted[label]])
    line("ours/stock", ["%.2f" % (o / s) if s and o else "-"
                        for s, o in zip(weighted["stock"], weighted["ours"])])
    print()
    print("our engine, share of function entries run in one trap or none")
    if ours:
        line("by figures' kinds", [pct(sum(
            n for k, n in counts[c].items()
            if ours.get(k, {}).get("kind") in single_trap), total[c])
            for c in cols])
    line("by engine rules", [pct(sum(kinds[c][k] for k in single_trap),
                                 total[c]) for c in cols])
    for kind in arch["kinds"]:
        if kinds["all"][kind]:
            line("  " + kind, [pct(kinds[c][kind], total[c]) for c in cols])
    if other_forms:
        print()
        print("most common \"other\" forms (%s of all entries), with how "
              "the rules run them:" % pct(counts["all"]["other"],
                                          total["all"]))
        for (text, kind), n in other_forms.most_common(15):
            print("%8d %6s  %-9s %s" % (n, pct(n, total["all"]), kind, text))


if __name__ == "__main__":
    main()
