"""Signature strings and type hints: parsing, defaults, and every rejection."""

import pytest

from ferrozyme import In, Out, InOut, Const, Size, SignatureError
from ferrozyme._signature import parse, make


def roles(sig):
    return [(p.name, p.role, p.dims) for p in sig.params]


def test_issue_example():
    s = parse("(in u0[n], out u[n], n, const steps)")
    assert roles(s) == [("u0", "in", ("n",)), ("u", "out", ("n",)), ("n", "size", None), ("steps", "const", None)]


def test_defaults_and_literals():
    s = parse("(x[n, 3], y[n, 3]: f32, scale, n) -> out")
    assert roles(s) == [("x", "in", ("n", 3)), ("y", "in", ("n", 3)), ("scale", "const", None), ("n", "size", None)]
    assert s.params[1].ctype == "f32"
    assert s.ret_declared == "out"


def test_free_dims_and_views():
    s = parse("(in A[m, k], in B[k, q], out C[m, q], m, q)")
    assert s.free_dims == ["k"]
    # types are needed for the views: bind without a prototype using explicit types
    s = parse("(in A[m, k]: f64, in B[k, q]: f64, out C[m, q]: f64, m: i32, q: i32)").bind(None, "mm")
    assert [x.name for x in s.inputs] == ["A", "B"]
    assert [y.name for y in s.outputs] == ["C"]
    assert s.iv_names == ["m", "q", "k"]


@pytest.mark.parametrize(
    "text, msg",
    [
        ("in x[n]", "cannot parse signature"),
        ("(in x[n], in x[n])", "repeated"),
        ("(out s, n)", "cannot be outputs"),
        ("(in x[n], const n)", "must be `size`"),
        ("(size x[n], n)", "cannot be a `size`"),
        ("(in x[], n)", "empty dims"),
        ("(in x[n+1], n)", "bad dimension"),
        ("(in x[n]: complex, n)", "unknown type"),
        ("(bogus x)", "cannot parse parameter"),
    ],
)
def test_rejections(text, msg):
    with pytest.raises(SignatureError, match=msg):
        parse(text)


def test_signature_error_is_value_error():
    assert issubclass(SignatureError, ValueError)


def test_type_hints():
    def simulate(u0: In["n"], u: Out["n"], n: Size, steps: Const) -> None:
        ...

    s = make(simulate)
    assert roles(s) == roles(parse("(in u0[n], out u[n], n, const steps)"))
    assert s.ret_declared == "void"

    def f(x: In["m", "n"], k: In, y: InOut["m", "n", "f32"], m, n) -> float:
        ...

    s = make(f)
    assert roles(s) == [("x", "in", ("m", "n")), ("k", "in", None), ("y", "inout", ("m", "n")),
                        ("m", "size", None), ("n", "size", None)]
    assert s.params[2].ctype == "f32" and s.ret_declared == "out"


def test_type_hints_reject_foreign_annotation():
    def f(x: list):
        ...

    with pytest.raises(SignatureError, match="In/Out/InOut/Const/Size"):
        make(f)


def test_not_a_signature():
    with pytest.raises(SignatureError):
        make(42)
