/* A differentiable `__dynamic_cast`, the function clang calls for `dynamic_cast<T *>(p)`
 * (and `dynamic_cast<T &>`) when the answer depends on the object's dynamic type.
 *
 * libstdc++'s `__dynamic_cast(object, source type_info, target type_info, hint)` has no
 * IR; it returns null or a pointer into the object it was given (the object adjusted to
 * the target's subobject). Inside differentiated code the result's shadow must be the
 * argument's shadow adjusted the same way. Here the cast runs on the primal object only
 * (`__fz_lib_dynamic_cast_offset`, marked inactive when the transform links this file:
 * it reads type information, never values) and the result is rebuilt as the argument
 * plus that offset, so the derivative offsets the shadow object by the same bytes. The
 * shadow's own vtable pointer is never read.
 *
 * Compiled to dynamic_cast.ll by `bash tools/gen_libdefs.sh "" dynamic_cast`; see
 * libdefs.rs. Written for Ferrozyme from the Itanium C++ ABI's description of
 * `__dynamic_cast`. */

void *__dynamic_cast(const void *object, const void *source, const void *target, long hint);

/* A cast that fails (null) has no offset: any real offset is far from this value. */
#define FZ_CAST_FAILED (-0x7fffffffffffffffL - 1)

__attribute__((noinline)) long __fz_lib_dynamic_cast_offset(const void *object, const void *source,
                                                            const void *target, long hint) {
  const char *r = __dynamic_cast(object, source, target, hint);
  return r ? r - (const char *)object : FZ_CAST_FAILED;
}

void *__fz_lib___dynamic_cast(const void *object, const void *source, const void *target,
                              long hint) {
  long offset = __fz_lib_dynamic_cast_offset(object, source, target, hint);
  return offset == FZ_CAST_FAILED ? (void *)0 : (char *)object + offset;
}
