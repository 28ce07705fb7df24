#!/usr/bin/env python3
"""Concrete cross-check of the [expect] labels in tests/cases (standard library only).

A small PTX interpreter for the subset the kernels in tests/cases/kernels compile to, with the
semantics of FORMAT.md: float instructions are exact rational arithmetic (fractions.Fraction),
conversions between float formats are the identity, integers are two's complement at the
instruction's width. Each CTA runs its threads one at a time up to a barrier or a warp
collective (shfl.sync, vote.sync); global and shared accesses are recorded per address with
the CTA's barrier epoch, and out-of-bounds accesses, reads of never-written cells, stores to
tensors passed as read, and conflicting unordered accesses are reported as defects.

For each case both programs run from the same initial memory, for several input draws (plain
random rationals, draws rich in special values such as 0, +-1/2, 1, and range end points, and
draws from {0, 1}); the case passes when
  equivalent:      no draw separates the compared outputs,
  inequivalent:    some draw does,
  not_equivalent:  a race is reported,
and the defects seen equal [expect].diagnostics. This is testing, not proof: it cannot show
equivalence, only fail to refute it. It is independent of Racer and not part of it.
Usage: python3 tests/cases/check/emulate.py [CASE.toml ...]
"""
import struct
import re, sys, os, random, tomllib, zlib
from fractions import Fraction as Fr

class EmuError(Exception): pass

# ------------------------------------------------------------------ parsing
def split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{": depth += 1
        if ch in "]}": depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip()); cur = ""
        else:
            cur += ch
    if cur.strip(): out.append(cur.strip())
    return out

class Entry:
    def __init__(self, name):
        self.name = name; self.params = []; self.shared = {}; self.insts = []; self.labels = {}

def parse_ptx(text):
    text = re.sub(r"//[^\n]*", "", text)
    entries = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)\s*(?:\.\w+[^{]*)?\{", text, re.S):
        e = Entry(m.group(1))
        for p in re.finditer(r"\.param\s+\.(\w+)\s+(\w+)", m.group(2)):
            e.params.append((p.group(2), p.group(1)))
        # body: match braces
        i, depth = m.end(), 1
        start = i
        while depth:
            c = text[i]
            if c == "{": depth += 1
            elif c == "}": depth -= 1
            i += 1
        body = text[start:i - 1]
        body = "\n".join(l for l in body.split("\n") if not l.strip().startswith((".loc", ".pragma")))
        soff = 0
        for st in body.split(";"):
            st = st.strip()
            while True:
                st = st.strip()
                if st.startswith("{") or st.startswith("}"):
                    st = st[1:]; continue
                lm = re.match(r"^(\$?[\w$]+):", st)
                if lm:
                    e.labels[lm.group(1)] = len(e.insts); st = st[lm.end():]; continue
                break
            if not st: continue
            if st.startswith(".loc") or st.startswith(".pragma") or st.startswith(".reg") or st.startswith(".local"):
                # .loc lines have no ';' so they may prefix an instruction
                lines = [l for l in st.split("\n") if not l.strip().startswith(".loc") and not l.strip().startswith(".pragma")]
                st = "\n".join(lines).strip()
                if not st or st.startswith(".reg") or st.startswith(".local"): continue
            ms = re.match(r"\.shared\s+\.align\s+(\d+)\s+\.(\w+)\s+(\w+)(?:\[(\d+)\])?", st)
            if ms:
                widths = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "f16": 2, "b32": 4, "u32": 4, "s32": 4, "f32": 4,
                          "b64": 8, "u64": 8, "s64": 8, "f64": 8}
                if ms.group(2) not in widths: raise EmuError(f"shared variable of type .{ms.group(2)}")
                size = widths[ms.group(2)] * (int(ms.group(4)) if ms.group(4) else 1)
                e.shared[ms.group(3)] = (soff, size); soff += (size + 15) // 16 * 16
                continue
            st = re.sub(r"\.loc[^\n]*\n", "", st).strip()
            if st.startswith("."): continue
            guard = None
            gm = re.match(r"^@(!?)(%\w+)\s+", st)
            if gm:
                guard = (gm.group(1) == "!", gm.group(2)); st = st[gm.end():]
            parts = st.split(None, 1)
            op = parts[0]
            ops = split_operands(parts[1]) if len(parts) > 1 else []
            e.insts.append((guard, op, ops))
        entries[e.name] = e
    return entries

# ------------------------------------------------------------------ helpers
def mask(w): return (1 << w) - 1
def sgn(v, w):
    v &= mask(w)
    return v - (1 << w) if v >> (w - 1) else v
def f32_from_hex(h):
    import struct
    return Fr(struct.unpack(">f", bytes.fromhex(h))[0])

TYPEW = {"u8": 8, "s8": 8, "b8": 8, "u16": 16, "s16": 16, "b16": 16, "u32": 32, "s32": 32, "b32": 32,
         "u64": 64, "s64": 64, "b64": 64, "f32": 32, "f16": 16, "bf16": 16, "f64": 64, "pred": 1}
FLOATT = {"f32", "f16", "bf16", "f64", "f16x2"}
DTYPE_SIZE = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "u8": 1, "bool": 1}
GARBAGE = "garbage"

class Tensor:
    def __init__(self, name, decl, base):
        self.name = name; self.dtype = decl["dtype"]; self.shape = decl["shape"]
        self.n = 1
        for s in self.shape: self.n *= s
        if self.dtype not in DTYPE_SIZE: raise EmuError(f"{self.dtype} tensors are not emulated")
        self.esize = DTYPE_SIZE[self.dtype]; self.base = base
        self.isfloat = self.dtype.startswith("f") or self.dtype == "bf16"

class Memory:
    def __init__(self, tensors):
        self.t = tensors  # name -> Tensor
        self.vals = {}    # name -> list
        self.init = {}    # name -> list[bool]
    def copy(self):
        m = Memory(self.t)
        m.vals = {k: list(v) for k, v in self.vals.items()}
        m.init = {k: list(v) for k, v in self.init.items()}
        return m
    def locate(self, addr):
        for t in self.t.values():
            if t.base <= addr < t.base + t.n * t.esize:
                off = addr - t.base
                if off % t.esize: raise EmuError(f"misaligned access into {t.name}")
                return t, off // t.esize
        return None, None

# ------------------------------------------------------------------ machine
class Thread:
    def __init__(self, tid, ntid, ctaid, nctaid, linear):
        self.tid = tid; self.ntid = ntid; self.ctaid = ctaid; self.nctaid = nctaid
        self.lin = linear; self.lane = linear % 32; self.warp = linear // 32
        self.regs = {}; self.pc = 0; self.state = "run"; self.coll = None

class Launch:
    def __init__(self, prog, entry, grid, block, args, mem, defects, label):
        self.e = entry; self.grid = grid; self.block = block; self.args = args; self.mem = mem
        self.defects = defects; self.label = label
        self.gacc = {}   # global addr -> list of (cta, tid, epoch, kind, value)
        self.params = {}

    def defect(self, kind, msg):
        self.defects.add(kind)
        self.defects_msgs.append(f"{kind}: {msg}")

    def record(self, table, key, cta, tid, epoch, kind, value, space):
        lst = table.setdefault(key, [])
        for (c2, t2, e2, k2, v2) in lst:
            if (c2, t2) == (cta, tid): continue
            if k2 == "r" and kind == "r": continue
            if k2 == "a" and kind == "a": continue
            if space == "shared" or c2 == cta:
                if e2 != epoch: continue
            if (k2 == "a") != (kind == "a"):
                raise EmuError(f"plain access meets atomic at {space} {key}")
            if k2 == "w" and kind == "w" and v2 == value:
                self.notes.append(f"same-value double store {space} {key}")
                continue
            self.defect("race", f"{space} {key} {k2}/{kind} by {c2}{t2} and {cta}{tid}")
            break
        lst.append((cta, tid, epoch, kind, value))

    def run(self):
        self.defects_msgs = []; self.notes = []
        gx, gy, gz = (self.grid + [1, 1])[:3]
        bx, by, bz = (self.block + [1, 1])[:3]
        for cz in range(gz):
            for cy in range(gy):
                for cx in range(gx):
                    self.run_cta((cx, cy, cz), (gx, gy, gz), (bx, by, bz))

    def run_cta(self, ctaid, nctaid, ntid):
        bx, by, bz = ntid
        threads = []
        for z in range(bz):
            for y in range(by):
                for x in range(bx):
                    threads.append(Thread((x, y, z), ntid, ctaid, nctaid, x + bx * (y + by * z)))
        self.shmem = {}    # addr -> (value, size)
        self.sacc = {}
        self.epoch = 0
        self.cta = ctaid
        while True:
            progressed = False
            for th in threads:
                if th.state == "run":
                    self.step_thread(th); progressed = True
            if all(t.state == "exit" for t in threads): return
            if progressed: continue
            # collectives
            waiting = [t for t in threads if t.state == "coll"]
            done_any = False
            for t in waiting:
                if t.state != "coll": continue
                m = t.coll[1]
                members = [u for u in threads if u.warp == t.warp and (m >> u.lane) & 1]
                if all(u.state == "coll" and u.coll[1] == m for u in members):
                    self.do_collective(members); done_any = True
                elif any(u.state == "exit" for u in members):
                    raise EmuError("collective member exited")
            if done_any: continue
            live = [t for t in threads if t.state != "exit"]
            if live and all(t.state == "bar" for t in live):
                if len(live) != len(threads): raise EmuError("barrier with exited threads")
                self.epoch += 1
                for t in live: t.state = "run"
                continue
            raise EmuError("deadlock: " + ",".join(sorted(set(t.state for t in threads))))

    # ---------------- operand access
    def val(self, th, o):
        if o.startswith("%"):
            sp = {"%tid.x": th.tid[0], "%tid.y": th.tid[1], "%tid.z": th.tid[2],
                  "%ntid.x": th.ntid[0], "%ntid.y": th.ntid[1], "%ntid.z": th.ntid[2],
                  "%ctaid.x": th.ctaid[0], "%ctaid.y": th.ctaid[1], "%ctaid.z": th.ctaid[2],
                  "%nctaid.x": th.nctaid[0], "%nctaid.y": th.nctaid[1], "%nctaid.z": th.nctaid[2],
                  "%laneid": th.lane}
            if o in sp: return sp[o]
            if o not in th.regs: raise EmuError(f"read of unset register {o}")
            return th.regs[o]
        if re.match(r"^0[fF][0-9a-fA-F]{8}$", o): return f32_from_hex(o[2:])
        if re.match(r"^-?0[xX][0-9a-fA-F]+$", o): return int(o, 16)
        if re.match(r"^-?\d+$", o): return int(o)
        if o in self.e.shared: return self.e.shared[o][0]
        raise EmuError(f"operand {o}")

    def addr(self, th, o):
        m = re.match(r"^\[([%\w$.]+)(?:\+(-?\d+))?\]$", o)
        if not m: raise EmuError(f"address {o}")
        base, off = m.group(1), int(m.group(2) or 0)
        if base in self.params: return ("param", base)
        if base in self.e.shared: return self.e.shared[base][0] + off
        return self.val(th, base) + off

    def setr(self, th, r, v): th.regs[r] = v

    # ---------------- memory
    def gload(self, th, addr, ltype, atomic=False):
        t, i = self.mem.locate(addr)
        if t is None:
            self.defect("oob_read", f"{self.label} global read at {addr:#x}")
            return Fr(random.randint(-10**6, 10**6), 977) if ltype in FLOATT else random.randint(0, 255)
        if TYPEW[ltype] // 8 != t.esize: raise EmuError(f"load width {ltype} on {t.dtype}")
        if not self.mem.init[t.name][i]:
            self.defect("uninit_read", f"{self.label} {t.name}[{i}]")
            if self.mem.vals[t.name][i] is None:
                self.mem.vals[t.name][i] = Fr(random.randint(-10**6, 10**6), 991) if t.isfloat else random.randint(-1000, 1000)
        v = self.mem.vals[t.name][i]
        if not atomic:
            self.record(self.gacc, addr, self.cta, th.lin, self.epoch, "r", None, "global")
        if t.isfloat:
            if ltype not in FLOATT and v != 0 and ltype not in ("b16", "u16", "b32", "u32"): raise EmuError("int load of float")
            return v
        w = TYPEW[ltype]
        bits = v & mask(w)
        return sgn(bits, w) if ltype.startswith("s") else bits

    def gstore(self, th, addr, stype, v, atomic=False):
        t, i = self.mem.locate(addr)
        if t is None:
            self.defect("oob_write", f"{self.label} global write at {addr:#x}"); return
        acc = self.access.get(t.name)
        if acc not in ("write", "readwrite"):
            self.defect("access_violation", f"{self.label} store to {t.name} ({acc})")
        if not atomic:
            self.record(self.gacc, addr, self.cta, th.lin, self.epoch, "w", v, "global")
        if t.isfloat:
            if not isinstance(v, Fr):
                if v == 0: v = Fr(0)
                else: raise EmuError(f"int bits {v} stored to float tensor")
            self.mem.vals[t.name][i] = v
        else:
            w = t.esize * 8
            self.mem.vals[t.name][i] = sgn(int(v), w)
        self.mem.init[t.name][i] = True

    def sload(self, th, addr, ltype, atomic=False):
        size = TYPEW[ltype] // 8
        if addr not in self.shmem:
            self.defect("uninit_read", f"{self.label} shared {addr}")
            self.shmem[addr] = (Fr(random.randint(-10**6, 10**6), 983), size)
        v, s = self.shmem[addr]
        if s != size: raise EmuError("shared size mismatch")
        if not atomic: self.record(self.sacc, addr, self.cta, th.lin, self.epoch, "r", None, "shared")
        return v

    def sstore(self, th, addr, stype, v, atomic=False):
        if not atomic: self.record(self.sacc, addr, self.cta, th.lin, self.epoch, "w", v, "shared")
        self.shmem[addr] = (v, TYPEW[stype] // 8)

    # ---------------- collectives
    def do_collective(self, members):
        kind = members[0].coll[0]
        for u in members:
            if u.coll[0][:2] != kind[:2]: raise EmuError("mismatched collectives")
        if kind[0] == "shfl":
            mode = kind[1]
            vals = {u.lane: u.coll[2] for u in members}
            for u in members:
                _, _, a, b, c, dst, pdst = u.coll
                lane = u.lane; bval = b & 31; cval = c & 31; seg = (c >> 8) & 31
                maxl = (lane & seg) | (cval & ~seg & 31); minl = lane & seg
                if mode == "up": j = lane - bval; p = j >= maxl
                elif mode == "down": j = lane + bval; p = j <= maxl
                elif mode == "bfly": j = lane ^ bval; p = j <= maxl
                else: j = minl | (bval & ~seg & 31); p = j <= maxl
                if not p: j = lane
                if j not in vals: raise EmuError("shfl source lane outside member mask")
                u.regs[dst] = vals[j]
                if pdst: u.regs[pdst] = p
                u.state = "run"; u.coll = None
        else:
            mode = kind[1]
            preds = {u.lane: bool(u.coll[2]) for u in members}
            ballot = sum(1 << l for l, p in preds.items() if p)
            for u in members:
                dst = u.coll[3]
                if mode == "ballot": u.regs[dst] = ballot
                elif mode == "all": u.regs[dst] = all(preds.values())
                elif mode == "any": u.regs[dst] = any(preds.values())
                u.state = "run"; u.coll = None

    # ---------------- one thread until it blocks
    def step_thread(self, th):
        insts = self.e.insts
        steps = 0
        while th.state == "run":
            steps += 1
            if steps > 2_000_000: raise EmuError("runaway")
            if th.pc >= len(insts): th.state = "exit"; return
            guard, op, ops = insts[th.pc]
            th.pc += 1
            if guard:
                neg, p = guard
                pv = bool(self.val(th, p))
                if pv == neg: continue
            self.exec1(th, op, ops)

    def exec1(self, th, op, ops):
        parts = op.split(".")
        base = parts[0]
        ty = parts[-1]
        V = lambda o: self.val(th, o)
        if base == "ret" or op == "ret": th.state = "exit"; return
        if base == "bra":
            th.pc = self.e.labels[ops[0]]; return
        if base == "bar" or base == "barrier":
            th.state = "bar"; return
        if base == "mov":
            self.setr(th, ops[0], V(ops[1])); return
        if base == "cvta":
            self.setr(th, ops[0], V(ops[1])); return
        if base == "ld":
            space = parts[1]
            vec = next((int(p[1:]) for p in parts if re.match(r"^v\d$", p)), 1)
            a = self.addr(th, ops[1])
            if space == "param":
                arg = self.params[a[1]]
                self.setr(th, ops[0], arg); return
            w = TYPEW[ty] // 8
            dsts = [d.strip() for d in ops[0].strip("{}").split(",")]
            for k, d in enumerate(dsts):
                if space == "global": v = self.gload(th, a + k * w, ty)
                elif space == "shared": v = self.sload(th, a + k * w, ty)
                else: raise EmuError(op)
                self.setr(th, d, v)
            return
        if base == "st":
            space = parts[1]
            a = self.addr(th, ops[0])
            w = TYPEW[ty] // 8
            srcs = [s.strip() for s in ops[1].strip("{}").split(",")]
            for k, s in enumerate(srcs):
                v = V(s)
                if ty not in FLOATT and not isinstance(v, Fr): v = int(v) & mask(TYPEW[ty])
                if space == "global": self.gstore(th, a + k * w, ty, v)
                elif space == "shared": self.sstore(th, a + k * w, ty, v)
                else: raise EmuError(op)
            return
        if base in ("atom", "red"):
            space = parts[1]; aop = parts[2]
            if base == "atom": d, ao, vo = ops
            else: d = None; ao, vo = ops
            a = self.addr(th, ao); v = V(vo)
            if space == "global":
                old = self.gload(th, a, ty, atomic=True)
                self.record(self.gacc, a, self.cta, th.lin, self.epoch, "a", None, "global")
            else:
                old = self.sload(th, a, ty, atomic=True)
                self.record(self.sacc, a, self.cta, th.lin, self.epoch, "a", None, "shared")
            if aop == "add":
                new = old + v if ty in FLOATT else (old + v) & mask(TYPEW[ty])
            elif aop == "max":
                w = TYPEW[ty]
                new = max(sgn(old, w), sgn(v, w)) if ty.startswith("s") else max(old & mask(w), v & mask(w))
            else: raise EmuError(op)
            if space == "global": self.gstore(th, a, ty, new, atomic=True)
            else: self.sstore(th, a, ty, new, atomic=True)
            if d: self.setr(th, d, old)
            return
        if base == "shfl":
            mode = parts[2]
            dst = ops[0]; pdst = None
            if "|" in dst: dst, pdst = dst.split("|")
            th.coll = (("shfl", mode), V(ops[4]) & mask(32), V(ops[1]), V(ops[2]), V(ops[3]), dst, pdst)
            th.state = "coll"; return
        if base == "vote":
            mode = parts[2]
            pv = V(ops[1]); m = V(ops[2]) & mask(32)
            th.coll = (("vote", mode), m, pv, ops[0]); th.state = "coll"; return
        if base == "setp":
            cmp = parts[1]
            a, b = V(ops[1]), V(ops[2])
            if ty in FLOATT: x, y = a, b
            else:
                w = TYPEW[ty]
                if ty.startswith("s"): x, y = sgn(a, w), sgn(b, w)
                else: x, y = a & mask(w), b & mask(w)
            # (Values are exact rationals, never NaN: an unordered comparison is the ordered one.)
            r = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y,
                 "lo": x < y, "ls": x <= y, "hi": x > y, "hs": x >= y,
                 "equ": x == y, "neu": x != y, "ltu": x < y, "leu": x <= y, "gtu": x > y, "geu": x >= y}[cmp]
            self.setr(th, ops[0], r); return
        if base == "selp":
            self.setr(th, ops[0], V(ops[1]) if V(ops[3]) else V(ops[2])); return
        if ty == "pred":
            if base == "and": r = bool(V(ops[1])) and bool(V(ops[2]))
            elif base == "or": r = bool(V(ops[1])) or bool(V(ops[2]))
            elif base == "xor": r = bool(V(ops[1])) != bool(V(ops[2]))
            elif base == "not": r = not bool(V(ops[1]))
            else: raise EmuError(op)
            self.setr(th, ops[0], r); return
        if base == "cvt":
            dt, st = parts[-2], parts[-1]
            v = V(ops[1])
            if dt in FLOATT:
                if st in FLOATT: r = v
                else:
                    w = TYPEW[st]; r = Fr(sgn(v, w) if st.startswith("s") else v & mask(w))
                if "sat" in parts: r = min(max(r, Fr(0)), Fr(1))
            else:
                if st in FLOATT: raise EmuError("float to int cvt")
                ws = TYPEW[st]; wd = TYPEW[dt]
                x = sgn(v, ws) if st.startswith("s") else v & mask(ws)
                r = x & mask(wd)
            self.setr(th, ops[0], r); return
        # arithmetic
        if ty in FLOATT:
            a = [V(o) for o in ops[1:]]
            a = [Fr(x) if not isinstance(x, Fr) else x for x in a]
            if base == "add": r = a[0] + a[1]
            elif base == "sub": r = a[0] - a[1]
            elif base == "mul": r = a[0] * a[1]
            elif base in ("fma", "mad"): r = a[0] * a[1] + a[2]
            elif base == "div":
                if a[1] == 0: raise EmuError("division by zero")
                r = a[0] / a[1]
            elif base == "rcp": r = 1 / a[0]
            elif base == "neg": r = -a[0]
            elif base == "abs": r = abs(a[0])
            elif base == "min": r = min(a[0], a[1])
            elif base == "max": r = max(a[0], a[1])
            else: raise EmuError(op)
            self.setr(th, ops[0], r); return
        if ty not in TYPEW: raise EmuError(f"instruction {op} (type or space .{ty} not emulated)")
        w = TYPEW[ty]
        signed = ty.startswith("s")
        def I(o, ww=w, s=signed):
            x = V(o)
            if isinstance(x, Fr): raise EmuError(f"int op {op} on float value")
            if isinstance(x, bool): x = int(x)
            return sgn(x, ww) if s else x & mask(ww)
        if base == "mul" and parts[1] == "wide":
            r = I(ops[1]) * I(ops[2]); self.setr(th, ops[0], r & mask(2 * w)); return
        if base == "mul" and parts[1] == "hi":
            r = (I(ops[1]) * I(ops[2])) >> w; self.setr(th, ops[0], r & mask(w)); return
        if base == "mad" and parts[1] == "lo":
            r = I(ops[1]) * I(ops[2]) + I(ops[3]); self.setr(th, ops[0], r & mask(w)); return
        if base == "bfe":
            a = I(ops[1]); pos = V(ops[2]) & 255; ln = V(ops[3]) & 255
            bits = (a & mask(w)) >> pos & mask(ln) if ln else 0
            if signed and ln and (bits >> (ln - 1)) & 1: bits -= 1 << ln
            self.setr(th, ops[0], bits & mask(w)); return
        if base == "bfi":
            a = V(ops[1]) & mask(w); b = V(ops[2]) & mask(w); pos = V(ops[3]) & 255; ln = V(ops[4]) & 255
            m = (mask(ln) << pos) & mask(w)
            self.setr(th, ops[0], (b & ~m) | ((a << pos) & m)); return
        if base == "popc":
            self.setr(th, ops[0], bin(V(ops[1]) & mask(w)).count("1")); return
        if base in ("shl", "shr"):
            a = I(ops[1]); s = V(ops[2]) & mask(32)
            if base == "shl": r = (a << min(s, w)) & mask(w)
            else: r = (a >> min(s, w)) if signed else (a & mask(w)) >> min(s, w)
            self.setr(th, ops[0], r & mask(w)); return
        if base in ("and", "or", "xor"):
            a, b = I(ops[1], w, False), I(ops[2], w, False)
            r = {"and": a & b, "or": a | b, "xor": a ^ b}[base]
            self.setr(th, ops[0], r); return
        if base == "not": self.setr(th, ops[0], ~I(ops[1], w, False) & mask(w)); return
        a = [I(o) for o in ops[1:]]
        if base == "add": r = a[0] + a[1]
        elif base == "sub": r = a[0] - a[1]
        elif base == "mul": r = a[0] * a[1]
        elif base == "div":
            if a[1] == 0: raise EmuError("int div by zero")
            q = abs(a[0]) // abs(a[1]); r = q if (a[0] >= 0) == (a[1] >= 0) else -q
        elif base == "rem":
            q = abs(a[0]) // abs(a[1]); q = q if (a[0] >= 0) == (a[1] >= 0) else -q; r = a[0] - q * a[1]
        elif base == "min": r = min(a[0], a[1])
        elif base == "max": r = max(a[0], a[1])
        elif base == "abs": r = abs(a[0])
        elif base == "neg": r = -a[0]
        else: raise EmuError(op)
        self.setr(th, ops[0], r & mask(w))


# ------------------------------------------------------------------ instances
PTX_CACHE = {}
def entry_of(path, name):
    if path not in PTX_CACHE: PTX_CACHE[path] = parse_ptx(open(path).read())
    return PTX_CACHE[path][name]

SPECIAL = [Fr(0), Fr(1), Fr(-1), Fr(1, 2), Fr(-1, 2), Fr(1, 4), Fr(2), Fr(-2), Fr(3)]
ZERO_ONE = [Fr(0), Fr(1), Fr(1), Fr(1)]
# (probability of a special value, the special values): one entry per trial
TRIALS = [(0.0, SPECIAL), (0.3, SPECIAL), (0.6, SPECIAL), (0.0, SPECIAL), (0.3, SPECIAL), (0.6, SPECIAL),
          (1.0, ZERO_ONE), (1.0, ZERO_ONE)]
def draw(rng, special_p, lo=None, hi=None, pool=SPECIAL):
    if lo is not None:
        lo, hi = Fr(lo), Fr(hi)
        r = rng.random()
        if r < special_p / 2: return lo
        if r < special_p: return hi
        return lo + (hi - lo) * Fr(rng.randint(1, 999), 1000)
    if rng.random() < special_p: return rng.choice(pool)
    return Fr(rng.randint(-2000, 2000), rng.choice([7, 16, 100, 333]))

def build_initial(case, rng, special_p, pool):
    tensors, mem = {}, None
    base = 1 << 36
    for k, (name, d) in enumerate(case["tensors"].items()):
        tensors[name] = Tensor(name, d, base * (k + 1))
    mem = Memory(tensors)
    for name, d in case["tensors"].items():
        t = tensors[name]; init = d["init"]
        if init == "input":
            rg = d.get("range")
            vals = [draw(rng, special_p, *(rg or (None, None)), pool=pool) for _ in range(t.n)]
            if not t.isfloat: raise EmuError("int input")
            ini = [True] * t.n
        elif init == "empty":
            vals = [None] * t.n; ini = [False] * t.n
        elif init == "zeros":
            vals = [Fr(0) if t.isfloat else 0] * t.n; ini = [True] * t.n
        elif "full" in init:
            vals = [Fr(init["full"]) if t.isfloat else int(init["full"])] * t.n; ini = [True] * t.n
        else:
            vs = init["values"]; assert len(vs) == t.n, name
            vals = [Fr(v) if t.isfloat else int(v) for v in vs]; ini = [True] * t.n
        mem.vals[name] = vals; mem.init[name] = ini
    return tensors, mem

def run_program(case, prog, tensors, mem, casedir):
    defects = set(); msgs = []
    for i, l in enumerate(case[prog]["launch"]):
        e = entry_of(os.path.join(casedir, l["ptx"]), l["entry"])
        if len(e.params) != len(l["args"]): raise EmuError("arg count")
        args, access = {}, {}
        vals = []
        for (pname, ptype), a in zip(e.params, l["args"]):
            if isinstance(a, dict) and any(k in a for k in ("read", "write", "readwrite")):
                acc = next(k for k in ("read", "write", "readwrite") if k in a)
                t = tensors[a[acc]]
                vals.append(t.base + a.get("offset", 0) * t.esize); access[t.name] = acc
            elif isinstance(a, dict) and "f32" in a:
                import struct
                vals.append(Fr(struct.unpack("<f", struct.pack("<f", a["f32"]))[0]))
            elif isinstance(a, dict) and "null" in a:
                vals.append(0)
            elif isinstance(a, dict):
                raise EmuError(f"launch argument {sorted(a)} (tensor maps are not emulated)")
            else:
                if ptype in FLOATT: vals.append(Fr(a))
                else: vals.append(int(a) & mask(TYPEW[ptype]))
        L = Launch(prog, e, l["grid"], l["block"], None, mem, defects, f"{prog}#{i}")
        L.params = {p[0]: v for p, v in zip(e.params, vals)}
        L.access = access
        L.run()
        msgs += L.defects_msgs
    return defects, msgs

def check_case(path):
    casedir = os.path.dirname(path)
    case = tomllib.load(open(path, "rb"))
    exp = case["expect"]
    verdict_seen_diff = False
    all_defects = set(); allmsgs = []
    for trial, (special_p, pool) in enumerate(TRIALS):
        rng = random.Random(zlib.crc32(f"{os.path.basename(path)}#{trial}".encode()))
        random.seed(trial)
        tensors, mem0 = build_initial(case, rng, special_p, pool)
        ma, mb = mem0.copy(), mem0.copy()
        da, msa = run_program(case, "a", tensors, ma, casedir)
        db, msb = run_program(case, "b", tensors, mb, casedir)
        all_defects |= {f"a:{d}" for d in da} | {f"b:{d}" for d in db}
        allmsgs += msa[:3] + msb[:3]
        for o in case["outputs"]:
            va, vb = ma.vals[o], mb.vals[o]
            ia, ib = ma.init[o], mb.init[o]
            if not all(ia) or not all(ib):
                all_defects.add("output_unwritten:" + o)
            if va != vb: verdict_seen_diff = True
    return case, exp, verdict_seen_diff, all_defects, allmsgs

if __name__ == "__main__":
    import glob
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.toml")))
    # The t_math_* cases need transcendental functions (compiled expf, logf, sinf, ...), which
    # an exact-rational interpreter cannot evaluate; their answers rest on the README's arguments.
    skipped = [p for p in paths if os.path.basename(p).startswith("t_math_")]
    paths = [p for p in paths if p not in skipped]
    if skipped: print(f"skipping {len(skipped)} t_math_* cases (transcendental functions)")
    # Nor does it model thread-block clusters (t_cl_*): those rest on the README's arguments and
    # on the H200 vectors of tests/ptx/cluster for the instructions they use.
    clusters = [p for p in paths if os.path.basename(p).startswith("t_cl_")]
    paths = [p for p in paths if p not in clusters]
    if clusters: print(f"skipping {len(clusters)} t_cl_* cases (clusters are not emulated)")
    # A case using what this interpreter lacks (tensor-core fragments, mbarriers, cluster
    # addresses, ...) is listed as not emulated, with the reason, and counted apart from
    # mismatches: its answer rests on the README's arguments (and, for tc/cluster, GPU vectors).
    bad = 0
    not_emulated = []
    for p in paths:
        try:
            case, exp, diff, defects, msgs = check_case(p)
        except EmuError as ex:
            print(f"NOT EMULATED {os.path.basename(p)}: {ex}"); not_emulated.append(p); continue
        except (OverflowError, struct.error) as ex:  # (an infinity or NaN has no exact rational; an argument form it does not read)
            print(f"NOT EMULATED {os.path.basename(p)}: {type(ex).__name__}: {ex}"); not_emulated.append(p); continue
        ok = True
        v = exp["verdict"]
        if v == "equivalent" and diff: ok = False
        if v == "inequivalent" and not diff: ok = False
        if v == "not_equivalent" and "a:race" not in defects and "b:race" not in defects: ok = False
        if set(exp["diagnostics"]) != defects: ok = False
        print(("ok   " if ok else "FAIL ") + f"{os.path.basename(p):50s} expect={v:15s} diff={diff!s:5s} defects={sorted(defects)}")
        if not ok:
            bad += 1
            for m in msgs[:4]: print("      ", m)
    print(f"{len(paths) - len(not_emulated)} cases emulated, {bad} not matching their [expect]; "
          f"{len(not_emulated)} not emulated (listed above)")
    sys.exit(1 if bad else 0)
