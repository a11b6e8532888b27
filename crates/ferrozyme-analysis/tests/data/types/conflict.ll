define float @both(ptr %p, ptr %q) {
  %d = load double, ptr %p, align 8
  %f = load float, ptr %p, align 4
  %g = load float, ptr %q, align 4
  %h = getelementptr inbounds i8, ptr %q, i64 8
  %e = load double, ptr %h, align 8
  ret float %f
}
