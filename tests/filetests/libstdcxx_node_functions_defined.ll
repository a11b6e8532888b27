; Decision: inside differentiated code, a call of libstdc++'s `_Rb_tree_increment` (no IR:
; it lives in libstdc++.so) goes to `__fz_lib__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base`,
; Ferrozyme's own definition (libdefs/cxx_nodes.c, linked internal with the other list and
; tree node functions), which is then differentiated like any callee: its augmented
; forward walks the primal and the shadow tree alike and returns both nodes. The user's
; own function keeps calling libstdc++.
; Why it matters: iterating, inserting into or looking up a std::map or std::list holding
; active values was a missing-derivative error (tests/cxx/92_std_map_values.cpp,
; 96_list_deque.cpp); treating the call as inactive would leave the shadow iterator null.
;
; typedef struct node { int color; struct node *parent, *left, *right; double value; } node;
; node *_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(node *);
; double sum(node *first, node *end) {
;   double s = 0;
;   for (node *n = first; n != end; n = _ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(n))
;     s += n->value * n->value;
;   return s;
; }
; double grad(node *f, node *df, node *e, node *de) {
;   return __enzyme_autodiff((void *)sum, enzyme_dup, f, df, enzyme_dup, e, de);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local double @sum(ptr noundef %0, ptr noundef readnone captures(address) %1) {
  %3 = icmp eq ptr %0, %1
  br i1 %3, label %4, label %6

4:                                                ; preds = %6, %2
  %5 = phi double [ 0.000000e+00, %2 ], [ %11, %6 ]
  ret double %5

6:                                                ; preds = %2, %6
  %7 = phi ptr [ %12, %6 ], [ %0, %2 ]
  %8 = phi double [ %11, %6 ], [ 0.000000e+00, %2 ]
  %9 = getelementptr inbounds nuw i8, ptr %7, i64 32
  %10 = load double, ptr %9, align 8
  %11 = tail call double @llvm.fmuladd.f64(double %10, double %10, double %8)
  %12 = tail call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr noundef %7)
  %13 = icmp eq ptr %12, %1
  br i1 %13, label %4, label %6
}

declare double @llvm.fmuladd.f64(double, double, double)

declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr noundef) local_unnamed_addr

define dso_local double @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  %6 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @sum, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret double %6
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK: tail call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr noundef %7)
; CHECK-LABEL: define internal void @fz_grad_sum(
; CHECK: call { ptr, ptr, ptr } @fz_aug___fz_lib__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %{{[0-9]+}}, ptr %{{[.a-z0-9]+}})
; CHECK: define internal ptr @__fz_lib__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(
; CHECK: define internal void @__fz_lib__ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(
; CHECK: define internal {{(noundef )?}}ptr @__fz_lib__ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(
