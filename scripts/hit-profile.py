# gdb script (gdb -x): record every instruction the guest executes for one
# uprobe hit, from the int3 trap to the return into the probed program.
# Driven by scripts/hit-profile.sh through the environment:
#   HIT_PORT   QEMU's gdb port
#   HIT_IP     user address right after the probed int3 (probe address + 1)
#   HIT_SKIP   hits to let pass first (first hits allocate XOL area, utask)
#   HIT_OUT    file that receives one hexadecimal address per line
#   HIT_TEXT   LO:HI, the probed program's executable segment: the hit
#              ends when the guest gets back there (anywhere else in user
#              mode is the XOL area, a stub or the return trampoline)
#   HIT_RET    1: the probed function has a return probe too: after the
#              entry hit, run the function's own code unrecorded and
#              record its return through the trampoline as well
#   HIT_STUB   1: after the first hit, the probe's hits enter the kernel by
#              a stub's system call (a probed five-byte nop): record from
#              the system call entry instead of the int3 trap
import os

import gdb

LIMIT = 50000


def pc():
    return int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFFFFFFFFFF


def main():
    out = os.environ["HIT_OUT"]
    lo, hi = (int(x, 0) for x in os.environ["HIT_TEXT"].split(":"))

    def in_text(p):
        return lo <= p < hi

    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote :" + os.environ["HIT_PORT"])
    gdb.execute("break exc_int3")
    # struct pt_regs *regs in %rdi: cs at byte 136, ip at byte 128
    gdb.execute("condition 1 (*(unsigned long *)($rdi + 136) & 3) == 3 && "
                "*(unsigned long *)($rdi + 128) == " + os.environ["HIT_IP"])
    skip = int(os.environ.get("HIT_SKIP", "5"))
    if os.environ.get("HIT_STUB") == "1":
        # The first hit traps and puts the jump in; then the stub's
        # uretprobe system call (335), made from below HIT_HOME.
        gdb.execute("continue")
        gdb.execute("delete")
        gdb.execute("break entry_SYSCALL_64")
        gdb.execute("condition 2 $rax == 335 && $rcx >= %d && $rcx < %d"
                    % (lo, hi))
    for _ in range(skip + 1):
        gdb.execute("continue")
    gdb.execute("delete")
    pcs = []
    phases = 2 if os.environ.get("HIT_RET") == "1" else 1
    for phase in range(phases):
        if phase:
            # The function's own instructions, up to its return.
            while in_text(pc()) and len(pcs) < LIMIT:
                gdb.execute("stepi", to_string=True)
            pcs.append(pc())
        while len(pcs) < LIMIT:
            gdb.execute("stepi", to_string=True)
            p = pc()
            if in_text(p):
                break
            pcs.append(p)
    with open(out, "w") as f:
        f.writelines("%x\n" % p for p in pcs)
    gdb.execute("kill")


try:
    main()
finally:
    gdb.execute("quit")
