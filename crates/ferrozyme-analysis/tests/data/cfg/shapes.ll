; Hand-written CFG shapes, one function each. Block names say what the block is.

define i32 @straight(i32 %x) {
entry:
  %a = add i32 %x, 1
  br label %mid

mid:
  %b = mul i32 %a, 2
  br label %last

last:
  ret i32 %b
}

define i32 @diamond(i1 %c, i32 %x) {
entry:
  br i1 %c, label %then, label %else

then:
  %t = add i32 %x, 1
  br label %join

else:
  %e = sub i32 %x, 1
  br label %join

join:
  %r = phi i32 [ %t, %then ], [ %e, %else ]
  ret i32 %r
}

define void @self_loop(i32 %n) {
entry:
  br label %spin

spin:
  %i = phi i32 [ 0, %entry ], [ %i.next, %spin ]
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %spin

exit:
  ret void
}

; The cycle a <-> b has two entries (entry -> a and entry -> b), so neither block
; dominates the other: not a natural loop, but both blocks can run many times.
define void @irreducible(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b

a:
  br label %b

b:
  br i1 %d, label %a, label %exit

exit:
  ret void
}

; `dead` and the cycle dead.loop <-> dead.back are unreachable; dead.loop also
; branches into the reachable `exit`.
define i32 @with_dead(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br label %exit

dead:
  br label %dead.loop

dead.loop:
  br i1 %c, label %dead.back, label %exit

dead.back:
  br label %dead.loop

exit:
  %r = phi i32 [ %x, %entry ], [ 0, %dead.loop ]
  ret i32 %r
}

; Cases 1 and 2 both go to `same`; case 3 and the default both go to `other`.
define i32 @switch_dup(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 1, label %same
    i32 2, label %same
    i32 3, label %other
  ]

same:
  %r = phi i32 [ 10, %entry ], [ 10, %entry ]
  ret i32 %r

other:
  ret i32 0
}

; A loop with two exits, one of them an early return from inside the body.
define i32 @find(ptr %a, i32 %n, i32 %key) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %notfound

body:
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %next

next:
  %i.next = add i32 %i, 1
  br label %head

found:
  ret i32 %i

notfound:
  ret i32 -1
}

declare i32 @external(i32)
