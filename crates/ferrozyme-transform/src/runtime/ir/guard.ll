; The stop for a stack overflow inside the derivative of a recursive function.
;
; The derivative of a recursive function recurses as deep as the function, with larger
; frames (the augmented forward keeps its tape pointer and the values it tapes live across
; the recursive call; the reverse sweep keeps the incoming adjoint and its tape). A
; recursion the primal survives can exhaust the stack in the gradient; without this piece
; the program dies with SIGSEGV and no word (exit 139).
;
; Generated code calls `__fz_stack_guard()` before each call that enters a recursive
; derivative from outside its cycle and names the derivative in the record it returns for
; the call's duration (`stack_guard.rs`). The first guard of the process installs a SIGSEGV handler that runs
; on an alternate signal stack (`SA_ONSTACK`); the first guard of each thread records the
; thread's stack bounds (`pthread_getattr_np`) and gives the thread an alternate stack of
; 64 KiB unless it has one. The per-thread record is { ptr name, i64 stack_lo, i64
; stack_size, ptr alt_stack } (32 bytes), reached through a POSIX thread-specific key (see
; thread.ll for why not `thread_local`); its destructor disables and frees the alternate
; stack at thread exit.
;
; The handler recognises an overflow of a derivative: a guard is active on the thread
; (`name` set) and the faulting address lies within 1 MiB below (or 64 KiB above) the
; lowest address of the thread's stack. It then writes
; "ferrozyme: stack overflow in the derivative of `f` ..." to standard error and aborts
; (exit status 134, as `check.ll`'s stop). Any other fault puts the previous SIGSEGV
; action back and returns: the instruction faults again and the program's own handler, or
; the default action, sees it as if this piece did not exist.
;
; Linux (glibc) layouts: `stack_t` { ptr, i32, i64 } (24 bytes: flags at 8, size at 16),
; `struct sigaction` { handler, sigset_t mask (128 bytes), i32 flags at 136, restorer }
; (152 bytes), `siginfo_t`'s fault address at 16; SIGSEGV = 11, SA_SIGINFO = 4,
; SA_ONSTACK = 0x08000000, SS_DISABLE = 2.

declare i32 @pthread_once(ptr, ptr)
declare i32 @pthread_key_create(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare i64 @pthread_self()
declare i32 @pthread_getattr_np(i64, ptr)
declare i32 @pthread_attr_getstack(ptr, ptr, ptr)
declare i32 @pthread_attr_destroy(ptr)
declare i32 @sigaltstack(ptr, ptr)
declare i32 @sigaction(i32, ptr, ptr)
declare i32 @sigemptyset(ptr)
declare ptr @calloc(i64, i64)
declare ptr @malloc(i64)
declare void @free(ptr)
declare i64 @write(i32, ptr, i64)
declare i64 @strlen(ptr)
declare void @abort()

@__fz_guard_once = internal global i32 0
@__fz_guard_key = internal global i32 0
@__fz_guard_ready = internal global i32 0
@__fz_guard_none = internal global [32 x i8] zeroinitializer, align 8
@__fz_guard_old = internal global [152 x i8] zeroinitializer, align 8
@__fz_guard_msg1 = internal constant [48 x i8] c"ferrozyme: stack overflow in the derivative of `"
@__fz_guard_msg2 = internal constant [56 x i8] c"`: the recursion is too deep for this thread's stack of "
@__fz_guard_msg3 = internal constant [226 x i8] c" KiB (the derivative needs more stack per level of recursion than the function itself)\0Ahelp: raise the limit (`ulimit -s` in the shell, or run the computation on a thread with a larger stack), or write the recursion as a loop\0A"

; Once per process: the thread-specific key and the SIGSEGV handler.
define void @__fz_guard_init() {
entry:
  %sa = alloca [152 x i8], align 8
  %r = call i32 @pthread_key_create(ptr @__fz_guard_key, ptr @__fz_guard_release)
  call void @llvm.memset.p0.i64(ptr %sa, i8 0, i64 152, i1 false)
  store ptr @__fz_guard_handler, ptr %sa, align 8
  %mask = getelementptr inbounds i8, ptr %sa, i64 8
  %e = call i32 @sigemptyset(ptr %mask)
  %fl = getelementptr inbounds i8, ptr %sa, i64 136
  store i32 134217732, ptr %fl, align 8
  %s = call i32 @sigaction(i32 11, ptr %sa, ptr @__fz_guard_old)
  store atomic i32 1, ptr @__fz_guard_ready release, align 4
  ret void
}

; This thread's record, set up on its first call (`__fz_guard_none`, a record no handler
; reads, when memory runs out). The caller brackets its call into a recursive derivative
; with it: it saves the record's name, stores the derivative's, and stores the saved one
; back after the call (`stack_guard.rs`), so nested guards restore each other's names.
define ptr @__fz_stack_guard() {
entry:
  %r = load atomic i32, ptr @__fz_guard_ready acquire, align 4
  %ready = icmp ne i32 %r, 0
  br i1 %ready, label %get, label %once, !prof !1
once:
  %o = call i32 @pthread_once(ptr @__fz_guard_once, ptr @__fz_guard_init)
  br label %get
get:
  %k = load i32, ptr @__fz_guard_key
  %b0 = call ptr @pthread_getspecific(i32 %k)
  %fresh = icmp eq ptr %b0, null
  br i1 %fresh, label %make, label %have, !prof !0
make:
  %n = call ptr @__fz_guard_setup(i32 %k)
  ret ptr %n
have:
  ret ptr %b0
}

; A thread's first guard (out of line, so the guard's common path has no frame): its
; record, with the stack's bounds and an alternate signal stack.
define ptr @__fz_guard_setup(i32 %k) noinline cold {
entry:
  %attr = alloca [128 x i8], align 16
  %lo = alloca ptr, align 8
  %size = alloca i64, align 8
  %cur = alloca [24 x i8], align 8
  %n = call ptr @calloc(i64 1, i64 32)
  %oom = icmp eq ptr %n, null
  br i1 %oom, label %none, label %bounds
none:
  ret ptr @__fz_guard_none
bounds:
  %self = call i64 @pthread_self()
  %ga = call i32 @pthread_getattr_np(i64 %self, ptr %attr)
  %gok = icmp eq i32 %ga, 0
  br i1 %gok, label %stack, label %alt
stack:
  store ptr null, ptr %lo, align 8
  store i64 0, ptr %size, align 8
  %gs = call i32 @pthread_attr_getstack(ptr %attr, ptr %lo, ptr %size)
  %d = call i32 @pthread_attr_destroy(ptr %attr)
  %lov = load ptr, ptr %lo, align 8
  %sizev = load i64, ptr %size, align 8
  %lop = getelementptr inbounds i8, ptr %n, i64 8
  %loi = ptrtoint ptr %lov to i64
  store i64 %loi, ptr %lop, align 8
  %sp = getelementptr inbounds i8, ptr %n, i64 16
  store i64 %sizev, ptr %sp, align 8
  br label %alt
alt:
  %q = call i32 @sigaltstack(ptr null, ptr %cur)
  %cfp = getelementptr inbounds i8, ptr %cur, i64 8
  %cf = load i32, ptr %cfp, align 8
  %dis = and i32 %cf, 2
  %hasalt = icmp eq i32 %dis, 0
  %qok = icmp eq i32 %q, 0
  %keep = and i1 %hasalt, %qok
  br i1 %keep, label %set, label %give
give:
  %mem = call ptr @malloc(i64 65536)
  %nomem = icmp eq ptr %mem, null
  br i1 %nomem, label %set, label %install
install:
  store ptr %mem, ptr %cur, align 8
  store i32 0, ptr %cfp, align 8
  %csz = getelementptr inbounds i8, ptr %cur, i64 16
  store i64 65536, ptr %csz, align 8
  %i = call i32 @sigaltstack(ptr %cur, ptr null)
  %ap = getelementptr inbounds i8, ptr %n, i64 24
  store ptr %mem, ptr %ap, align 8
  br label %set
set:
  %ss = call i32 @pthread_setspecific(i32 %k, ptr %n)
  ret ptr %n
}

; The key's destructor at thread exit: the alternate stack is disabled and freed.
define void @__fz_guard_release(ptr %b) {
entry:
  %ss = alloca [24 x i8], align 8
  %ap = getelementptr inbounds i8, ptr %b, i64 24
  %mem = load ptr, ptr %ap, align 8
  %has = icmp ne ptr %mem, null
  br i1 %has, label %off, label %done
off:
  call void @llvm.memset.p0.i64(ptr %ss, i8 0, i64 24, i1 false)
  %fp = getelementptr inbounds i8, ptr %ss, i64 8
  store i32 2, ptr %fp, align 8
  %r = call i32 @sigaltstack(ptr %ss, ptr null)
  call void @free(ptr %mem)
  br label %done
done:
  call void @free(ptr %b)
  ret void
}

; Writes `%v` in decimal to standard error.
define void @__fz_guard_put_dec(i64 %v) {
entry:
  %buf = alloca [24 x i8], align 1
  br label %loop
loop:
  %x = phi i64 [ %v, %entry ], [ %q, %loop ]
  %at = phi i64 [ 24, %entry ], [ %at1, %loop ]
  %q = udiv i64 %x, 10
  %r = urem i64 %x, 10
  %r8 = trunc i64 %r to i8
  %c = add i8 %r8, 48
  %at1 = sub i64 %at, 1
  %p = getelementptr inbounds i8, ptr %buf, i64 %at1
  store i8 %c, ptr %p, align 1
  %more = icmp ne i64 %q, 0
  br i1 %more, label %loop, label %out
out:
  %s = getelementptr inbounds i8, ptr %buf, i64 %at1
  %len = sub i64 24, %at1
  %w = call i64 @write(i32 2, ptr %s, i64 %len)
  ret void
}

define void @__fz_guard_handler(i32 %sig, ptr %info, ptr %uc) {
entry:
  %k = load i32, ptr @__fz_guard_key
  %b = call ptr @pthread_getspecific(i32 %k)
  %nob = icmp eq ptr %b, null
  br i1 %nob, label %other, label %named
named:
  %name = load ptr, ptr %b, align 8
  %noname = icmp eq ptr %name, null
  br i1 %noname, label %other, label %bounds
bounds:
  %lop = getelementptr inbounds i8, ptr %b, i64 8
  %lo = load i64, ptr %lop, align 8
  %sp = getelementptr inbounds i8, ptr %b, i64 16
  %size = load i64, ptr %sp, align 8
  %nosize = icmp eq i64 %size, 0
  br i1 %nosize, label %other, label %where
where:
  %ap = getelementptr inbounds i8, ptr %info, i64 16
  %a = load i64, ptr %ap, align 8
  ; a - (lo - 1 MiB) < 1 MiB + 64 KiB, unsigned: lo - 1 MiB <= a < lo + 64 KiB.
  %base = sub i64 %lo, 1048576
  %off = sub i64 %a, %base
  %near = icmp ult i64 %off, 1114112
  br i1 %near, label %ours, label %other
ours:
  %w1 = call i64 @write(i32 2, ptr @__fz_guard_msg1, i64 48)
  %nl = call i64 @strlen(ptr %name)
  %w2 = call i64 @write(i32 2, ptr %name, i64 %nl)
  %w3 = call i64 @write(i32 2, ptr @__fz_guard_msg2, i64 56)
  %kib = udiv i64 %size, 1024
  call void @__fz_guard_put_dec(i64 %kib)
  %w4 = call i64 @write(i32 2, ptr @__fz_guard_msg3, i64 226)
  call void @abort()
  unreachable
other:
  %s = call i32 @sigaction(i32 11, ptr @__fz_guard_old, ptr null)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

!0 = !{!"branch_weights", i32 1, i32 2000}
!1 = !{!"branch_weights", i32 2000, i32 1}
