#!/usr/bin/env python3
"""Drops libgit2 and libdbus from the libraries an x86-64 Linux `ledger` loads at start.

Usage: lazy-libraries.py BINARY

The binary defines a stub for every libgit2 and libdbus function it calls
(Sources/LazyLibraries): the stubs load the library on first use. The linker still records
both as needed (DT_NEEDED), since they are on its command line; this removes those entries
from the dynamic section, so that the loader maps neither (nor the libraries they need:
Kerberos, mbedTLS, libssh2, libsystemd, …) when a command that never touches git or D-Bus
starts. It refuses — and changes nothing — when the binary still has an undefined symbol of
either library (a function missing from the stubs) or needs one of their symbol versions.
Anything else (another architecture, no such entries) is left as it is.
"""
import struct
import sys

DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SYMTAB, DT_VERNEED, DT_VERNEEDNUM = 0, 1, 5, 10, 6, 0x6ffffffe, 0x6fffffff
LIBRARIES = {"libgit2.so.": "git_", "libdbus-1.so.": "dbus_"}  # soname prefix: function prefix


def main(path):
    with open(path, "rb") as f:
        elf = bytearray(f.read())
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1 or struct.unpack_from("<H", elf, 18)[0] != 62:
        return print(f"{path}: not an x86-64 ELF executable; left as it is")
    phoff, = struct.unpack_from("<Q", elf, 32)
    phentsize, phnum = struct.unpack_from("<HH", elf, 54)
    segments = [struct.unpack_from("<IIQQQQQQ", elf, phoff + i * phentsize) for i in range(phnum)]

    def offset(vaddr):
        for kind, _, off, va, _, filesz, _, _ in segments:
            if kind == 1 and va <= vaddr < va + filesz:
                return off + vaddr - va
        raise SystemExit(f"{path}: address {vaddr:#x} is in no loaded segment")

    dynamic = next((s for s in segments if s[0] == 2), None)
    if dynamic is None:
        return print(f"{path}: statically linked; left as it is")
    dyn_off, dyn_size = dynamic[2], dynamic[5]
    entries = []
    for i in range(dyn_size // 16):
        tag, value = struct.unpack_from("<qQ", elf, dyn_off + 16 * i)
        entries.append((tag, value))
        if tag == DT_NULL:
            break
    tags = dict(entries)
    strtab = offset(tags[DT_STRTAB])

    def string(at):
        end = elf.index(b"\0", strtab + at)
        return elf[strtab + at:end].decode()

    dropped = [(t, v) for t, v in entries if t == DT_NEEDED and any(string(v).startswith(p) for p in LIBRARIES)]
    if not dropped:
        return print(f"{path}: needs neither libgit2 nor libdbus at start already")
    # Nothing may still be bound to them: no undefined symbol of theirs, no version of theirs.
    prefixes = tuple(LIBRARIES.values())
    shoff, = struct.unpack_from("<Q", elf, 40)
    shentsize, shnum = struct.unpack_from("<HH", elf, 58)
    for i in range(shnum):
        _, kind, _, _, sec_off, sec_size, _, _, _, entsize = struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
        if kind != 11:  # SHT_DYNSYM
            continue
        for at in range(sec_off + entsize, sec_off + sec_size, entsize):
            name, _, _, shndx, _, _ = struct.unpack_from("<IBBHQQ", elf, at)
            if shndx == 0 and name and string(name).startswith(prefixes):
                raise SystemExit(f"{path}: {string(name)} has no stub in Sources/LazyLibraries/trampolines.S; add it there")
    if DT_VERNEED in tags:
        at = offset(tags[DT_VERNEED])
        for _ in range(tags.get(DT_VERNEEDNUM, 0)):
            _, _, file, _, following = struct.unpack_from("<HHIII", elf, at)
            if any(string(file).startswith(p) for p in LIBRARIES):
                raise SystemExit(f"{path}: still needs a symbol version of {string(file)}; left as it is")
            at += following
    kept = [e for e in entries if e not in dropped and e[0] != DT_NULL]
    for i in range(dyn_size // 16):
        tag, value = kept[i] if i < len(kept) else (DT_NULL, 0)
        struct.pack_into("<qQ", elf, dyn_off + 16 * i, tag, value)
    with open(path, "r+b") as f:
        f.write(elf)
    print(f"{path}: loads {', '.join(string(v) for _, v in dropped)} on first use")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
