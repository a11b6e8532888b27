"""The hook variants of a difftest program's `main` (features `vecfwd`, `split`,
`dupnoneed`; fuzz37). Each compares Ferrozyme with itself through another entry point,
the plain calls being checked against finite differences already (harness.py):

* `vecfwd`: `__enzyme_fwddiff(f, enzyme_width, W, ...)` with W = 2..4 random directions;
  every lane's tangent and output shadows against a scalar `__enzyme_fwddiff` along the
  lane's direction (`VECLANE` lines);
* `split`: `__enzyme_augmentfwd` + `__enzyme_reverse`, the tape returned or (without a
  `_Complex` parameter) written by `enzyme_tape` into `__enzyme_augmentsize` bytes of our
  own; the primal's side effects after the augmented call and the gradient (shadows and
  returned adjoints) against `__enzyme_autodiff`'s (`SPLIT` lines);
* `dupnoneed`: `out` (and x in some programs) passed `enzyme_dupnoneed` with a real
  buffer, in reverse and forward mode, against `enzyme_dup` (`NONEED` lines).

Mismatches print lines run.py classifies as `wrong` (they start with MISMATCH).
"""
import random

EXTERNS = "extern int enzyme_width, enzyme_tape, enzyme_allocated;"


def close(R):
    """A C expression template: |p - q| within the precision's tolerance of max(1, |q|)."""
    tol = "1e-9" if R == "double" else "2e-4"
    return "(fabs((double)(%%s) - (double)(%%s)) <= %s * fmax(1.0, fabs((double)(%%s))))" % tol


def side(R, ptol, what):
    """The primal's side effects on x and y after a derivative call, as harness.py checks them."""
    return ('for (int i = 0; i < NN; i++) if (fabs((double)xs[i] - (double)xa[i]) > %s * fmax(1.0, fabs((double)xa[i])) || '
            'fabs((double)ys[i] - (double)ya[i]) > %s * fmax(1.0, fabs((double)ya[i]))) { printf("SIDEEFFECT %s x[%%d] '
            '%%.17g (primal %%.17g)\\n", i, (double)xs[i], (double)xa[i]); bad++; break; }' % (ptol, ptol, what))


def _arrays(g):
    a = [("x", "xs", "dxs")]
    if g.ydup:
        a.append(("y", "ys", "dys"))
    if g.has_out:
        a.append(("out", "outs", "douts"))
    return a


def _grad_fields(K):
    return ["g%%s.d[%d]" % k for k in range(K)] if K > 1 else ["g%s"]


def _reset(R):
    return ("for (int i = 0; i < NN; i++) { xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; dxs[i] = 0; dys[i] = 0; "
            "douts[i] = (%s)W[i]; }" % R)


def _compare_rev(g, R, K, tag, ref="1", got="2"):
    """Lines comparing the shadows saved in Gs_* and the adjoints of g<ref> with the
    current shadows and g<got>."""
    cl = close(R)
    out = []
    for nm, _, d in _arrays(g):
        out.append('for (int i = 0; i < NN; i++) if (!%s) { printf("MISMATCH %s d%s[%%d] %%.17g vs autodiff %%.17g\\n", i, (double)%s[i], (double)GS_%s[i]); bad++; }' % (
            cl % (d + "[i]", "GS_%s[i]" % nm, "GS_%s[i]" % nm), tag, nm, d, nm))
    for k, f in enumerate(_grad_fields(K)):
        a, b = f % got, f % ref
        out.append('if (!%s) { printf("MISMATCH %s scalar %d %%.17g vs autodiff %%.17g\\n", (double)%s, (double)%s); bad++; }' % (
            cl % (a, b, b), tag, k, a, b))
    return out


def _save_rev(g):
    return ["for (int i = 0; i < NN; i++) GS_%s[i] = %s[i];" % (nm, d) for nm, _, d in _arrays(g)]


def checks(g, c):
    """(declarations, code) of the variants `g` draws; `c`: the harness's pieces (R, retT,
    K, args, targs, hook, link, fwd_args, slots, ptol)."""
    R, K, retT, link = c["R"], c["K"], c["retT"], c["link"]
    rng = random.Random(g.seed * 7057 + 29)  # the variants' own choices: the program is unchanged
    decls, code = [EXTERNS], []
    args, targs = c["args"], c["targs"]
    if g.has("split") or g.has("dupnoneed"):
        decls.append("static %s GS_x[NN], GS_y[NN], GS_out[NN];" % R)
    if g.has("split"):
        decls.append("%sextern void *__enzyme_augmentfwd_t(void *, %s);" % (link, ", ".join(targs)))
        decls.append("%sextern %s __enzyme_reverse_t(void *, %s, %s, void *);" % (link, retT, ", ".join(targs), R))
        body = [_reset(R), "%s g1 = %s((void *)f_f, %s);" % (retT, c["hook"], ", ".join(args))] + _save_rev(g)
        body += [_reset(R), "void *tape = __enzyme_augmentfwd_t((void *)f_f, %s);" % ", ".join(args),
                 side(R, c["ptol"], "split: augmented primal"),
                 "%s g2 = __enzyme_reverse_t((void *)f_f, %s, (%s)1, tape);" % (retT, ", ".join(args), R)]
        body += _compare_rev(g, R, K, "split (returned tape)")
        if not any(k == "complex" for _, k, _ in c["slots"]) and rng.random() < 0.6:
            # One marker per parameter: unmarked scalars are active, an unmarked n constant.
            marks = _param_markers(g, c)
            decls.append("%sextern size_t __enzyme_augmentsize(void *, ...);" % link)
            decls.append("%sextern void __enzyme_augmentfwd_b(void *, int, size_t, int, void *, %s);" % (link, ", ".join(targs)))
            decls.append("%sextern %s __enzyme_reverse_b(void *, int, size_t, int, void *, %s, %s);" % (
                link, retT, ", ".join(targs), R))
            body += [_reset(R), "size_t tsz = __enzyme_augmentsize((void *)f_f, %s);" % ", ".join(marks),
                     "void *tb = malloc(tsz + 16);",
                     "__enzyme_augmentfwd_b((void *)f_f, enzyme_allocated, tsz, enzyme_tape, tb, %s);" % ", ".join(args),
                     "%s g3 = __enzyme_reverse_b((void *)f_f, enzyme_allocated, tsz, enzyme_tape, tb, %s, (%s)1);" % (
                         retT, ", ".join(args), R),
                     "free(tb);"]
            body += _compare_rev(g, R, K, "split (enzyme_tape, augmentsize)", got="3")
        code.append("#if FZ_REV\n  {\n%s\n  }\n#endif" % "\n".join("    " + b for b in body + ["checks++;"]))
    if g.has("dupnoneed"):
        noneed = {"outs"} if g.has_out else set()
        if not g.has_out or rng.random() < 0.5:
            noneed.add("xs")
        rargs = list(args)
        for i in range(len(rargs) - 1):
            if rargs[i] == "enzyme_dup" and rargs[i + 1] in noneed:
                rargs[i] = "enzyme_dupnoneed"
        body = [_reset(R), "%s g1 = %s((void *)f_f, %s);" % (retT, c["hook"], ", ".join(args))] + _save_rev(g)
        body += [_reset(R), "%s g2 = %s((void *)f_f, %s);" % (retT, c["hook"], ", ".join(rargs))]
        body += _compare_rev(g, R, K, "reverse enzyme_dupnoneed %s" % "+".join(sorted(noneed)))
        code.append("#if FZ_REV\n  {\n%s\n  }\n#endif" % "\n".join("    " + b for b in body + ["checks++;"]))
        fa, ft = c["fwd_args"](noneed=noneed)
        fa0, _ = c["fwd_args"]()
        decls.append("%sextern %s __enzyme_fwddiff_nn(void *, %s);" % (link, R, ", ".join(ft)))
        cl = close(R)
        body = _fwd_dirs(g, R) + [
            "long double t1 = __enzyme_fwddiff_typed((void *)f_f, %s);" % ", ".join(fa0),
            "for (int i = 0; i < NN; i++) { GS_x[i] = txs[i]; GS_y[i] = tys[i]; GS_out[i] = touts[i]; }"] + \
            _fwd_reset_dirs(g) + [
            "long double t2 = __enzyme_fwddiff_nn((void *)f_f, %s);" % ", ".join(fa),
            'if (!%s) { printf("MISMATCH forward enzyme_dupnoneed tangent %%.17Lg vs %%.17Lg\\n", t2, t1); bad++; }' % (
                cl % ("t2", "t1", "t1"))]
        for nm, sh in (("x", "txs"), ("y", "tys"), ("out", "touts")):
            if (nm == "y" and not g.ydup) or (nm == "out" and not g.has_out):
                continue
            body.append('for (int i = 0; i < NN; i++) if (!%s) { printf("MISMATCH forward enzyme_dupnoneed t%s[%%d] %%.17g vs %%.17g\\n", i, (double)%s[i], (double)GS_%s[i]); bad++; }' % (
                cl % ("%s[i]" % sh, "GS_%s[i]" % nm, "GS_%s[i]" % nm), nm, sh, nm))
        code.append("#if FZ_FWD\n  {\n    static %s txs[NN], tys[NN], touts[NN], DX[NN], DY[NN];\n%s\n  }\n#endif" % (
            R, "\n".join("    " + b for b in body + ["checks++;"])))
    if g.has("vecfwd"):
        code.append(_vecfwd(g, c, rng, decls))
    return decls, "\n".join(code)


def _fwd_dirs(g, R):
    """Random input tangents (kept in DX/DY and TS), the primal inputs reset."""
    return ["for (int k = 0; k < 8; k++) TS[k] = fz_uniform(-1, 1);",
            "for (int i = 0; i < NN; i++) { DX[i] = (%s)fz_uniform(-1, 1); DY[i] = %d ? (%s)fz_uniform(-1, 1) : 0; }" % (
                R, 1 if g.ydup else 0, R)] + _fwd_reset_dirs(g)


def _fwd_reset_dirs(g):
    return ["for (int i = 0; i < NN; i++) { txs[i] = DX[i]; tys[i] = DY[i]; touts[i] = 0; xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; }"]


def _param_markers(g, c):
    """`__enzyme_augmentsize`'s markers, one per parameter of f_f as the hook call passes them."""
    m = ["enzyme_dup", "enzyme_dup" if g.ydup else "enzyme_const"] + (["enzyme_dup"] if g.has_out else [])
    m += ["enzyme_const"] * c["nconst"]
    m += ["enzyme_const"] + (["enzyme_const"] if g.has_m else [])
    m += ["enzyme_out"] * len(c["slots"])
    return m


def _vecfwd(g, c, rng, decls):
    R, link = c["R"], c["link"]
    W = rng.randint(2, 4)
    lane = {"txs": "TXW[%d]", "tys": "TYW[%d]", "touts": "TOW[%d]", "TS": "TSW[%d]"}
    fa, ft = c["fwd_args"](sh=lambda s: [lane[s] % k for k in range(W)])
    fa0, _ = c["fwd_args"]()
    decls.append("struct vW_t { %s d[%d]; };" % (R, W))
    decls.append("%sextern struct vW_t __enzyme_fwddiff_w(void *, int, int, %s);" % (link, ", ".join(ft)))
    cl = close(R)
    body = ["static %s TXW[%d][NN], TYW[%d][NN], TOW[%d][NN], DXW[%d][NN], DYW[%d][NN];" % ((R,) + (W,) * 5),
            "static long double TSW[%d][8];" % W,
            "static %s txs[NN], tys[NN], touts[NN];" % R,
            "for (int l = 0; l < %d; l++) {" % W,
            "  for (int k = 0; k < 8; k++) TSW[l][k] = (%s)fz_uniform(-1, 1);" % R,
            "  for (int i = 0; i < NN; i++) { DXW[l][i] = TXW[l][i] = (%s)fz_uniform(-1, 1); DYW[l][i] = TYW[l][i] = %d ? (%s)fz_uniform(-1, 1) : 0; TOW[l][i] = 0; }" % (
                R, 1 if g.ydup else 0, R),
            "}",
            "for (int i = 0; i < NN; i++) { xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; }",
            "struct vW_t tw = __enzyme_fwddiff_w((void *)f_f, enzyme_width, %d, %s);" % (W, ", ".join(fa)),
            side(R, c["ptol"], "vector forward"),
            "for (int l = 0; l < %d; l++) {" % W,
            "  for (int k = 0; k < 8; k++) TS[k] = TSW[l][k];",
            "  for (int i = 0; i < NN; i++) { txs[i] = DXW[l][i]; tys[i] = DYW[l][i]; touts[i] = 0; xs[i] = X0[i]; ys[i] = Y0[i]; outs[i] = 0; }",
            "  long double t1 = __enzyme_fwddiff_typed((void *)f_f, %s);" % ", ".join(fa0),
            '  if (!%s) { printf("MISMATCH vector forward lane %%d of %d: tangent %%.17g vs scalar forward %%.17Lg\\n", l, (double)tw.d[l], t1); bad++; }' % (
                cl % ("tw.d[l]", "t1", "t1"), W)]
    for nm, sh, arr in (("x", "txs", "TXW"), ("y", "tys", "TYW"), ("out", "touts", "TOW")):
        if (nm == "y" and not g.ydup) or (nm == "out" and not g.has_out):
            continue
        body.append('  for (int i = 0; i < NN; i++) if (!%s) { printf("MISMATCH vector forward lane %%d t%s[%%d] %%.17g vs scalar forward %%.17g\\n", l, i, (double)%s[l][i], (double)%s[i]); bad++; }' % (
            cl % ("%s[l][i]" % arr, "%s[i]" % sh, "%s[i]" % sh), nm, arr, sh))
    body += ["}", "checks++;"]
    return "#if FZ_FWD\n  {\n%s\n  }\n#endif" % "\n".join("    " + b for b in body)
