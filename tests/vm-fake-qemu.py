#!/usr/bin/env python3
# A stand-in for qemu-system-x86_64 (t-vm.sh): boots nothing.  With
# -version, a version line; else it writes the guest's reply on the
# mailbox disk that bonnie-ng vm hands it (the -drive with id=mailbox, a
# /proc/self/fd/N of ours), in include/mailbox.h's format: the record of
# $FAKE_RECORD, no message, the report of $FAKE_REPORT, exit status 0.
# With $FAKE_INIT, the initramfs's /init (a cpio "newc" entry) is copied
# there first, executable.
import os
import struct
import sys
import time
import zlib

REPLY_OFF = 1 << 20
DATA = 4096
VERSION = 2

if "-version" in sys.argv:
    print("QEMU emulator version 7.2.99 (a stand-in of t-vm.sh)")
    sys.exit(0)

def initrd_init(path, out):
    data = open(path, "rb").read()
    off = 0
    while data[off:off + 6] == b"070701":
        f = [int(data[off + 6 + 8 * k:off + 14 + 8 * k], 16)
             for k in range(13)]
        size, namesize = f[6], f[11]
        name = data[off + 110:off + 110 + namesize - 1].decode()
        start = (off + 110 + namesize + 3) & ~3
        if name == "init":
            with open(out, "wb") as o:
                o.write(data[start:start + size])
            os.chmod(out, 0o755)
            return
        off = (start + size + 3) & ~3
    sys.exit("fake qemu: no init in the initramfs")


# Under -accel kvm, $FAKE_KVM says what this host's KVM does: "ok" starts
# every -cpu, "no-host" aborts -cpu host as qemu 7.2 does where KVM
# refuses an MSR, "none" aborts every model.  Without drives it is
# bonnie-ng vm's probe: the kernel's banner on the console, then a wait
# to be killed.
def cpu():
    return sys.argv[sys.argv.index("-cpu") + 1]


if "-accel" in sys.argv and sys.argv[sys.argv.index("-accel") + 1] == "kvm":
    kvm = os.environ.get("FAKE_KVM", "ok")
    if kvm == "none" or (kvm == "no-host" and cpu() == "host"):
        sys.stderr.write("qemu-system-x86_64: error: failed to set MSR "
                         "0x10a to 0x69\nqemu-system-x86_64: kvm.c:3183: "
                         "kvm_buf_set_msrs: Assertion failed.\n")
        sys.stderr.flush()
        os.abort()
    if "-drive" not in sys.argv:
        sys.stdout.write("\x1bc[    0.000000] Linux version 9.9.9-fake "
                         "(a stand-in)\n")
        sys.stdout.flush()
        while True:
            time.sleep(60)

if "FAKE_ARGV" in os.environ:
    with open(os.environ["FAKE_ARGV"], "w") as f:
        f.write(" ".join(sys.argv[1:]) + "\n")

if "FAKE_INIT" in os.environ:
    initrd_init(sys.argv[sys.argv.index("-initrd") + 1],
                os.environ["FAKE_INIT"])
mbox = None
for i, a in enumerate(sys.argv):
    if a == "-drive" and "id=mailbox" in sys.argv[i + 1]:
        for kv in sys.argv[i + 1].split(","):
            if kv.startswith("file="):
                mbox = kv[5:]
if mbox is None:
    sys.exit("fake qemu: no mailbox drive")
parts = [open(os.environ["FAKE_RECORD"], "rb").read(), b"",
         open(os.environ["FAKE_REPORT"], "rb").read()]
data = b"".join(parts)
head = b"BNGVMRP1" + struct.pack("<Ii", VERSION, 0)
head += b"".join(struct.pack("<Q", len(p)) for p in parts)
head += struct.pack("<I", zlib.crc32(data) & 0xffffffff)
head += struct.pack("<I", zlib.crc32(head) & 0xffffffff)
fd = os.open(mbox, os.O_RDWR)
os.pwrite(fd, data, REPLY_OFF + DATA)
os.pwrite(fd, head, REPLY_OFF)
os.fsync(fd)
os.close(fd)
