; Odd IR the analysis must survive without panicking.
%opaque = type opaque

define void @odd(ptr %p, ptr %fp, <2 x ptr> %vp, ptr %o, i64 %i) {
  call void asm sideeffect "nop", ""()
  %r = call double %fp(ptr %p)
  %g = getelementptr inbounds double, <2 x ptr> %vp, <2 x i64> <i64 1, i64 2>
  %e = extractelement <2 x ptr> %g, i32 0
  %sv = load <vscale x 2 x double>, ptr %p, align 16
  store <vscale x 2 x double> %sv, ptr %e, align 16
  %og = getelementptr inbounds i8, ptr %o, i64 %i
  %x = load double, ptr %og, align 8
  %u = call i64 @llvm.ctpop.i64(i64 %i)
  %t = call token @llvm.experimental.convergence.anchor()
  %ext = call double @external(ptr %o)
  %ag = insertvalue { double, i64 } poison, double %r, 0
  %ag2 = insertvalue { double, i64 } %ag, i64 %u, 1
  %ev = extractvalue { double, i64 } %ag2, 1
  %vl = load <4 x ptr>, ptr %o, align 32
  %big = alloca [100000 x double], align 8
  %bg = getelementptr inbounds [100000 x double], ptr %big, i64 0, i64 %i
  ret void
}

declare i64 @llvm.ctpop.i64(i64)
declare token @llvm.experimental.convergence.anchor()
declare double @external(ptr)
