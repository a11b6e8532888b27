"""Statement lists of a generated program: `C` compounds, rendering, constants.

A program is a list of top-level items (strings or `C` compounds); every statement list
is a Python list so a minimiser can delete entries.
"""


class C:  # compound statement: parts are str or list (a statement list)
    def __init__(self, *parts):
        self.parts = list(parts)


def render(stmts, ind=1):
    out = []
    for s in stmts:
        if isinstance(s, str):
            for ln in s.split("\n"):
                out.append(("  " * ind + ln) if not ln.startswith("#") else ln)
        else:
            cur = ""
            for p in s.parts:
                if isinstance(p, str):
                    cur += p
                else:
                    if cur:
                        for ln in cur.split("\n"):
                            out.append(("  " * ind + ln) if not ln.startswith("#") else ln)
                    cur = ""
                    out.extend(render(p, ind + 1))
            if cur:
                for ln in cur.split("\n"):
                    out.append(("  " * ind + ln) if not ln.startswith("#") else ln)
    return out


def const(r, lo=-1.0, hi=1.0):
    return "%.4f" % r.uniform(lo, hi)
