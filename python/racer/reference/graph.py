"""The expression graph a reference is traced into: hash-consed nodes over exact rationals,
the same vocabulary as the core's expression store (src/instance/reference.hpp). Operations on
constants fold here (exactly, with Fraction); everything else is left to the core's smart
constructors, which canonicalize it the way they canonicalize the kernel's side."""
import math
from fractions import Fraction

from ..errors import RacerError, where

# Condition constants: conditions are a sort of their own in the core (only selects use
# them), so known truth values never become nodes unless they must.
FALSE, TRUE = -1, -2


def is_condition_const(x):
    return x in (FALSE, TRUE)


class Graph:
    def __init__(self):
        self.nodes = []          # [op, operands...]
        self.memo = {}           # tuple(node) -> id
        self.value = {}          # id -> Fraction, for constants
        self.cond = set()        # ids of conditions (comparisons, selects of conditions)
        self.node_line = []      # id -> index into lines (-1: none)
        self.lines, self._line_index = [], {}
        self.loc = None          # (file, line) of the user's operation being traced

    # -- lines -------------------------------------------------------------------------
    def line_index(self, loc):
        if not loc or not loc[0]:
            return -1
        key = f"{loc[0]}:{loc[1]}"
        if key not in self._line_index:
            self._line_index[key] = len(self.lines)
            self.lines.append(key)
        return self._line_index[key]

    def fail(self, message):
        raise RacerError(where(self.loc) + message if self.loc else message)

    # -- leaves --------------------------------------------------------------------------
    def _node(self, key, condition=False):
        i = self.memo.get(key)
        if i is None:
            i = len(self.nodes)
            self.nodes.append(list(key))
            self.memo[key] = i
            self.node_line.append(self.line_index(self.loc))
            if condition:
                self.cond.add(i)
        return i

    def input(self, tensor, cell):
        return self._node(("in", tensor, int(cell)))

    def const(self, q):
        if isinstance(q, float):
            if math.isinf(q):
                return self._node(("inf",) if q > 0 else ("-inf",))
            if math.isnan(q):
                self.fail("a NaN constant has no real value; Racer's references compute over the reals")
        q = Fraction(q)
        text = str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
        i = self._node(("c", text))
        self.value[i] = q
        return i

    def constant_of(self, i):
        return self.value.get(i)

    def is_cond(self, i):
        return i in self.cond or is_condition_const(i)

    def as_number(self, i):
        """A condition used as a number is 1 where it holds, 0 elsewhere."""
        if i == TRUE:
            return self.const(1)
        if i == FALSE:
            return self.const(0)
        if i in self.cond:
            return self._node(("select", i, self.const(1), self.const(0)))
        return i

    def as_condition(self, i):
        if self.is_cond(i):
            return i
        q = self.value.get(i)
        if q is not None:
            return TRUE if q != 0 else FALSE
        return self.compare("ne", i, self.const(0))

    def cond_node(self, c):
        """A condition constant as a node (where a select needs one as an operand)."""
        if c == TRUE:
            z = self.const(0)
            return self._node(("le", z, z), condition=True)
        if c == FALSE:
            z = self.const(0)
            return self._node(("lt", z, z), condition=True)
        return c

    # -- arithmetic ----------------------------------------------------------------------
    def nary(self, op, ids):
        ids = [self.as_number(i) for i in ids]
        consts = [self.value.get(i) for i in ids]
        if all(c is not None for c in consts):
            if op == "add":
                return self.const(sum(consts, Fraction(0)))
            if op == "mul":
                p = Fraction(1)
                for c in consts:
                    p *= c
                return self.const(p)
            return self.const(max(consts) if op == "max" else min(consts))
        if op == "add":
            ids = [i for i, c in zip(ids, consts) if c != 0]
        elif op == "mul":
            ids = [i for i, c in zip(ids, consts) if c != 1]
        if len(ids) == 1:
            return ids[0]
        key = (op, *sorted(ids)) if op in ("max", "min") else (op, *ids)
        return self._node(key)

    def add(self, a, b):
        return self.nary("add", [a, b])

    def mul(self, a, b):
        return self.nary("mul", [a, b])

    def neg(self, a):
        a = self.as_number(a)
        c = self.value.get(a)
        return self.const(-c) if c is not None else self._node(("neg", a))

    def sub(self, a, b):
        return self.add(a, self.neg(b))

    def div(self, a, b):
        a, b = self.as_number(a), self.as_number(b)
        ca, cb = self.value.get(a), self.value.get(b)
        if cb is not None and cb != 0:
            return self.const(ca / cb) if ca is not None else self.mul(a, self.const(1 / cb))
        return self._node(("div", a, b))

    def pow_int(self, a, n):
        a = self.as_number(a)
        c = self.value.get(a)
        if c is not None and (c != 0 or n >= 0):
            return self.const(c ** n)
        if n == 1:
            return a
        return self._node(("pow", a, int(n)))

    def func(self, name, a):
        a = self.as_number(a)
        c = self.value.get(a)
        if c == 0 and name in ("tanh", "erf", "sin", "sqrt", "abs"):
            return self.const(0)
        if c == 0 and name in ("exp", "cos"):
            return self.const(1)
        if c is not None and name == "abs":
            return self.const(abs(c))
        if c == 1 and name == "log":
            return self.const(0)
        return self._node((name, a))

    # -- conditions ----------------------------------------------------------------------
    def compare(self, op, a, b):
        """op: lt le gt ge eq ne."""
        a, b = self.as_number(a), self.as_number(b)
        if op == "gt":
            op, a, b = "lt", b, a
        elif op == "ge":
            op, a, b = "le", b, a
        ca, cb = self.value.get(a), self.value.get(b)
        if ca is not None and cb is not None:
            r = {"lt": ca < cb, "le": ca <= cb, "eq": ca == cb, "ne": ca != cb}[op]
            return TRUE if r else FALSE
        if op in ("eq", "ne") and a > b:
            a, b = b, a
        return self._node((op, a, b), condition=True)

    def select(self, c, t, e):
        c = self.as_condition(c)
        if c == TRUE:
            return t
        if c == FALSE:
            return e
        if t == e:
            return t
        if self.is_cond(t) and self.is_cond(e):
            return self._node(("select", c, self.cond_node(t), self.cond_node(e)), condition=True)
        return self._node(("select", c, self.as_number(t), self.as_number(e)))

    def logical_and(self, p, q):
        p, q = self.as_condition(p), self.as_condition(q)
        return self.select(p, q, FALSE)

    def logical_or(self, p, q):
        p, q = self.as_condition(p), self.as_condition(q)
        return self.select(p, TRUE, q)

    def logical_not(self, p):
        return self.select(self.as_condition(p), FALSE, TRUE)

    # -- the description the core reads ---------------------------------------------------
    def describe(self, outputs, function, default_line):
        """outputs: {name: [root id per flat cell]}. Keeps only the nodes the outputs reach,
        renumbered in order."""
        outputs = {n: [self.as_number(i) for i in ids] for n, ids in outputs.items()}
        live = [False] * len(self.nodes)
        stack = [i for ids in outputs.values() for i in ids]
        while stack:
            i = stack.pop()
            if live[i]:
                continue
            live[i] = True
            node = self.nodes[i]
            if node[0] in ("in", "c", "inf", "-inf"):
                continue
            args = node[1:-1] if node[0] == "pow" else node[1:]
            stack.extend(a for a in args if not live[a])
        new = {}
        nodes = []
        for i, node in enumerate(self.nodes):
            if not live[i]:
                continue
            new[i] = len(nodes)
            op = node[0]
            if op in ("in", "c", "inf", "-inf"):
                nodes.append(node)
            elif op == "pow":
                nodes.append([op, new[node[1]], node[2]])
            else:
                nodes.append([op] + [new[a] for a in node[1:]])
        default = self.line_index(default_line)
        out_lines = {n: [self.node_line[i] if self.node_line[i] >= 0 else default for i in ids]
                     for n, ids in outputs.items()}
        return {"function": function, "nodes": nodes, "outputs": {n: [new[i] for i in ids] for n, ids in outputs.items()},
                "lines": self.lines, "output_lines": out_lines}
