"""The self-checking main program of a Fortran difftest program (genf.py writes the kernel).

The kernel module is emitted twice: `fzk_t` (the tested kind, real(8) or real(4)) and
`fzk_r` (real(10), the reference). The main program, through the `ferrozyme` module's
hooks (`__enzyme_autodiff`, `__enzyme_fwddiff_sub`, `enzyme_dup` / `enzyme_const`):

1. runs the tested primal and the reference on the same inputs (exactly representable in
   both kinds); a reference that is not finite or huge is `INVALID` (stop 3), a tested
   primal (res or any out(i)) that differs from the reference beyond 1e-9 (real(8)) or
   1e-5 (real(4)) relatively prints `PRIMALDIFF` (the checker drops the program);
2. reverse mode: one `__enzyme_autodiff` call, `dout` seeded with weights W and `dres`
   with 1, gives the gradient of J = res + <W, out> with respect to x, y (when it is
   `enzyme_dup`), w (when it is) and out's initial value; each entry against central differences of the
   reference at relative steps 1e-4 and 1e-5 (skipped as non-smooth when they disagree
   beyond 1e-5, combined by Richardson extrapolation otherwise); the call must leave the
   primal's results (out, res) as the primal call did (`SIDEEFFECT`) and x, y, w
   (intent(in)) unchanged (`SIDEEFFECT` for x, `CONSTCHANGED` for y and w);
3. forward mode: one `__enzyme_fwddiff_sub` call along a random direction of x, y and
   out's initial value (and w when active); the tangents of res and of every out(i) against the same
   differences along the direction.

Exit status: 0 `PASS`, 1 `FAIL` with `MISMATCH`/`SIDEEFFECT`/`CONSTCHANGED` lines, 3
`INVALID`.
"""
import random
import struct


def vec(vals, kind):
    return "[" + ", ".join("%r_%s" % (v, kind) for v in vals) + "]"


def values(r, n, lo, hi, wp):
    """n values in [lo, hi), rounded to 6 digits, and to real(4) for a real(4) kernel."""
    out = []
    for _ in range(n):
        v = round(r.uniform(lo, hi), 6)
        if wp == 4:
            v = struct.unpack("f", struct.pack("f", v))[0]
        out.append(v)
    return out


def emit(g, text, mode="both"):
    r = random.Random(g.seed * 31 + 7)
    n, wp = g.n, g.wp
    x = values(r, n, -1, 1, wp)
    y = values(r, n, -1, 1, wp)
    w = values(r, n, 0.5, 1.5, wp)
    o0 = values(r, n, -0.5, 0.5, wp)
    wt = values(r, n, -1, 1, 8)
    vx, vy, vo = (values(r, n, -1, 1, 8) for _ in range(3))
    vw = values(random.Random(g.seed * 17 + 3), n, -1, 1, 8)
    ycall = "enzyme_dup, y, dy" if g.y_active else "enzyme_const, y"
    wcall = "enzyme_dup, w, dw" if g.w_active else "enzyme_const, w"
    ftol = "1e-6_rp" if wp == 8 else "2e-3_rp"
    ptol = "1e-9_rp" if wp == 8 else "1e-4_rp"
    dtol = "1e-9_rp" if wp == 8 else "1e-5_rp"
    body = "\n".join(text)
    head = "! difftest fortran seed=%d features=%s flags=%s\n" % (g.seed, ",".join(sorted(g.feat)), " ".join(g.flags))
    mods = "".join("module fzk_%s\n  implicit none\n  integer, parameter :: wp = %d\n%s\nend module fzk_%s\n" % (t, k, body, t)
                   for t, k in (("t", wp), ("r", 10)))
    rev = r"""
  ! ---- reverse mode: the gradient of J = res + <W, out>
  out = o0; dx = 0; dy = 0; dw = 0; dout = real(wt, wp); dres = 1
  call __enzyme_autodiff(f, enzyme_const, n, enzyme_dup, x, dx, %(ycall)s, %(wcall)s, &
                         enzyme_dup, out, dout, enzyme_dup, res, dres)
  call side('reverse')
  do k = 1, 4 * n
    ux = 0; uy = 0; uo = 0; uw = 0
    if (k <= n) then
      ux(k) = 1; ad = dx(k); v0 = xr(k)
    else if (k <= 2 * n) then
      uo(k - n) = 1; ad = dout(k - n); v0 = o0r(k - n)
    else if (k <= 3 * n) then
      if (.not. %(yact)s) cycle
      uy(k - 2 * n) = 1; ad = dy(k - 2 * n); v0 = yr(k - 2 * n)
    else
      if (.not. %(wact)s) cycle
      uw(k - 3 * n) = 1; ad = dw(k - 3 * n); v0 = wr(k - 3 * n)
    end if
    hs = max(1.0_rp, abs(v0))
    f1 = (jr(1e-4_rp * hs) - jr(-1e-4_rp * hs)) / (2e-4_rp * hs)
    f2 = (jr(1e-5_rp * hs) - jr(-1e-5_rp * hs)) / (2e-5_rp * hs)
    call compare('reverse', k, ad, f1, f2)
  end do
""" % dict(ycall=ycall, wcall=wcall, yact=".true." if g.y_active else ".false.",
           wact=".true." if g.w_active else ".false.")
    fwd = r"""
  ! ---- forward mode along (vx, vy, vo)
  out = o0; dx = real(vx, wp); dy = 0; dw = 0; dout = real(vo, wp); dres = 0
  if (%(yact)s) dy = real(vy, wp)
  if (%(wact)s) dw = real(vw, wp)
  call __enzyme_fwddiff_sub(f, enzyme_const, n, enzyme_dup, x, dx, %(ycall)s, %(wcall)s, &
                            enzyme_dup, out, dout, enzyme_dup, res, dres)
  call side('forward')
  ux = vx; uy = 0; uo = vo; uw = 0
  if (%(yact)s) uy = vy
  if (%(wact)s) uw = vw
  call evalr(1e-4_rp, rp1, op1); call evalr(-1e-4_rp, rm1, om1)
  call evalr(1e-5_rp, rp2, op2); call evalr(-1e-5_rp, rm2, om2)
  call compare('forward res', 0, real(dres, rp), (rp1 - rm1) / 2e-4_rp, (rp2 - rm2) / 2e-5_rp)
  do k = 1, n
    call compare('forward out', k, real(dout(k), rp), (op1(k) - om1(k)) / 2e-4_rp, (op2(k) - om2(k)) / 2e-5_rp)
  end do
""" % dict(ycall=ycall, wcall=wcall, yact=".true." if g.y_active else ".false.",
           wact=".true." if g.w_active else ".false.")
    main = r"""program main
  use ferrozyme
  use fzk_t, only: wp, f
  use fzk_r, only: rp => wp, fr => f
  implicit none
  integer, parameter :: n = %(n)d
  real(wp) :: x(n), y(n), w(n), o0(n), out(n), res, dx(n), dy(n), dw(n), dout(n), dres, outp(n), resp
  real(wp) :: xs(n), ys(n), ws(n)
  real(rp) :: xr(n), yr(n), wr(n), o0r(n), wt(n), vx(n), vy(n), vo(n), vw(n), ux(n), uy(n), uo(n), uw(n)
  real(rp) :: rr, orr(n), ad, v0, hs, f1, f2, rp1, rm1, rp2, rm2
  real(rp) :: op1(n), om1(n), op2(n), om2(n)
  integer :: k, bad, skip, checks
  bad = 0; skip = 0; checks = 0
  x = %(x)s
  y = %(y)s
  w = %(w)s
  o0 = %(o0)s
  wt = %(wt)s
  vx = %(vx)s
  vy = %(vy)s
  vo = %(vo)s
  vw = %(vw)s
  xs = x; ys = y; ws = w
  xr = real(x, rp); yr = real(y, rp); wr = real(w, rp); o0r = real(o0, rp)
  ! ---- primal: tested kind vs the real(10) reference
  out = o0
  call f(n, x, y, w, out, res)
  outp = out; resp = res
  ux = 0; uy = 0; uo = 0; uw = 0
  call evalr(0.0_rp, rr, orr)
  if (.not. (abs(rr) <= 1e8_rp) .or. .not. all(abs(orr) <= 1e8_rp)) then
    print '(a,es26.18)', 'INVALID primal ', rr
    stop 3
  end if
  if (abs(real(resp, rp) - rr) > %(dtol)s * max(1.0_rp, abs(rr)) .or. &
      any(abs(real(outp, rp) - orr) > %(dtol)s * max(1.0_rp, abs(orr)))) then
    print '(a,es26.18,a,es26.18)', 'PRIMALDIFF tested=', real(resp, rp), ' ref=', rr
  end if
%(rev)s%(fwd)s
  if (bad > 0) then
    print '(a,i0,a,i0,a,i0,a)', 'FAIL ', bad, ' bad of ', checks, ' checks (', skip, ' skipped)'
    stop 1
  end if
  print '(a,i0,a,i0,a)', 'PASS ', checks, ' checks (', skip, ' skipped)'
contains
  ! The reference at (x, y, out0) + h (ux, uy, uo): res and out.
  subroutine evalr(h, r, o)
    real(rp), intent(in) :: h
    real(rp), intent(out) :: r, o(n)
    real(rp) :: a(n), b(n), c(n)
    a = xr + h * ux; b = yr + h * uy; c = wr + h * uw; o = o0r + h * uo
    call fr(n, a, b, c, o, r)
  end subroutine evalr

  real(rp) function jr(h)
    real(rp), intent(in) :: h
    real(rp) :: r, o(n)
    call evalr(h, r, o)
    jr = r + sum(wt * o)
  end function jr

  ! ad against central differences at two steps (f1 at 10 times f2's step).
  subroutine compare(what, k, ad, f1, f2)
    character(*), intent(in) :: what
    integer, intent(in) :: k
    real(rp), intent(in) :: ad, f1, f2
    real(rp) :: sc, fd
    sc = max(1.0_rp, abs(f2))
    if (abs(f1 - f2) > 1e-5_rp * sc) then
      print '(a,a,i0,a,es20.12,a,es20.12)', 'SKIP ', what, k, ' fd1=', f1, ' fd2=', f2
      skip = skip + 1
      return
    end if
    fd = f2 + (f2 - f1) / 99
    checks = checks + 1
    if (.not. (abs(ad - fd) <= %(ftol)s * sc)) then
      print '(a,a,a,i0,a,es26.18,a,es26.18)', 'MISMATCH ', what, ' k=', k, ' ad=', ad, ' fd=', fd
      bad = bad + 1
    end if
  end subroutine compare

  ! The derivative call's primal results must be the primal call's; x, w (and a
  ! constant y) must be unchanged.
  subroutine side(what)
    character(*), intent(in) :: what
    if (any(abs(real(out, rp) - real(outp, rp)) > %(ptol)s * max(1.0_rp, abs(real(outp, rp)))) .or. &
        abs(real(res, rp) - real(resp, rp)) > %(ptol)s * max(1.0_rp, abs(real(resp, rp)))) then
      print '(a,a,a,es26.18,a,es26.18)', 'SIDEEFFECT ', what, ': res=', real(res, rp), ' primal res=', real(resp, rp)
      bad = bad + 1
    end if
    if (any(x /= xs)) then
      print '(a,a,a)', 'SIDEEFFECT ', what, ': x changed'
      bad = bad + 1
    end if
    if (any(w /= ws) .or. any(y /= ys)) then
      print '(a,a,a)', 'CONSTCHANGED ', what, ': w or y changed (intent(in))'
      bad = bad + 1
    end if
    x = xs; y = ys; w = ws
  end subroutine side
end program main
""" % dict(n=n, x=vec(x, "wp"), y=vec(y, "wp"), w=vec(w, "wp"), o0=vec(o0, "wp"), wt=vec(wt, "rp"),
           vx=vec(vx, "rp"), vy=vec(vy, "rp"), vo=vec(vo, "rp"), vw=vec(vw, "rp"), dtol=dtol, ftol=ftol, ptol=ptol,
           rev=rev if mode in ("rev", "both") else "", fwd=fwd if mode in ("fwd", "both") else "",
           yact=".true." if g.y_active else ".false.")
    return head + mods + main
