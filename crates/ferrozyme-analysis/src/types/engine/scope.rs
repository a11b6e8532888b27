//! Which functions type analysis looks at, and the links between values it adds beyond
//! single instructions (pointers kept in `-O0` stack slots).

use crate::hash::{HashMap, HashSet};
use std::collections::VecDeque;

use ferrozyme_llvm::{Opcode, Value};

/// The defined functions connected to `f` in the call graph, `f` first, leaving out
/// (and not going through) those `skip` names.
pub(in crate::types) fn scope(f: Value, skip: &dyn Fn(Value) -> bool) -> Vec<Value> {
    scope_from(&[f], &mut |g| skip(g))
}

/// The defined functions connected to `starts` in the undirected call graph (callees,
/// callers, functions passed as arguments), in breadth-first order. A function for
/// which `stop` returns true is neither included nor gone through (`stop` may record
/// it). Iterative: call chains of any depth take no stack.
pub(in crate::types) fn scope_from(
    starts: &[Value],
    stop: &mut dyn FnMut(Value) -> bool,
) -> Vec<Value> {
    let mut seen: HashSet<Value> = HashSet::default();
    let mut order = Vec::new();
    let mut queue: VecDeque<Value> = starts.iter().copied().collect();
    while let Some(g) = queue.pop_front() {
        if !g.is_function() || g.is_declaration() || !seen.insert(g) || stop(g) {
            continue;
        }
        // Rust's allocator entry points have IR but are allocation rules
        // (`Engine::allocation_call`): going through them would connect every function
        // of the program that allocates.
        if ferrozyme_abi::alloc_fn(&g.name(), true).is_some() {
            continue;
        }
        order.push(g);
        // Callees, and functions passed as arguments (callbacks). Not the function a
        // hook call differentiates: no rule reads it from here (the call's rule ignores
        // hooks), and following it joined a Rust debug build's whole program (every
        // `d_*` wrapper is reached from the tests) with the optimized copies the
        // derivatives are made of, so their facts depended on what else the program does
        // and in which order the clones were analysed.
        for b in g.blocks() {
            for i in b.instructions() {
                if matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
                    if let Some(c) = i.called_function() {
                        queue.push_back(c);
                    }
                    if is_hook_call(i) {
                        continue;
                    }
                    for a in i.call_args() {
                        if a.is_function() {
                            queue.push_back(a);
                        }
                    }
                }
            }
        }
        // Callers (and functions that pass `g` on). A hook call (`__enzyme_autodiff(g,
        // …)`) passes markers and shadows, not data (the rules ignore it), so the function
        // making it adds nothing here — and following it would pull in everything that
        // function's callers reach (the whole program, for Rust debug builds).
        for u in g.users() {
            if u.is_instruction()
                && matches!(u.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
                && !is_hook_call(u)
            {
                queue.push_back(u.parent_function());
            }
        }
    }
    order
}

fn is_hook_call(call: Value) -> bool {
    call.called_function().is_some_and(|f| {
        f.name().starts_with("__enzyme_") && ferrozyme_abi::type_hint(&f.name()).is_none()
    })
}

/// Pointers passed through stack slots (`-O0` code keeps every local in an `alloca`):
/// a pointer loaded from a slot is the same data as every pointer stored to that slot.
pub(in crate::types) fn stack_slot_links(insts: &[Vec<Value>]) -> Vec<(Value, Value)> {
    let mut stored: HashMap<Value, Vec<Value>> = HashMap::default();
    let mut loads: Vec<(Value, Value)> = Vec::new();
    for body in insts {
        for &i in body {
            match i.opcode() {
                Some(Opcode::LLVMStore) => {
                    let (v, a) = (i.operand(0), i.operand(1));
                    if v.ty().is_pointer() && a.opcode() == Some(Opcode::LLVMAlloca) {
                        stored.entry(a).or_default().push(v);
                    }
                }
                Some(Opcode::LLVMLoad) => {
                    let a = i.operand(0);
                    if i.ty().is_pointer() && a.opcode() == Some(Opcode::LLVMAlloca) {
                        loads.push((i, a));
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for (l, a) in loads {
        for &v in stored.get(&a).map(|v| v.as_slice()).unwrap_or(&[]) {
            out.push((l, v));
        }
    }
    out
}

/// The strongly connected components of the direct-call graph among `funcs`: each
/// function of a recursive cycle (mutual recursion, or a function calling itself) mapped
/// to the index of its component; functions on no cycle are absent (`crate::scc`).
pub(in crate::types) fn recursive_components(funcs: &[Value]) -> HashMap<Value, u32> {
    crate::scc::call_components(funcs)
}

#[cfg(test)]
mod tests {
    use ferrozyme_llvm::Module;
    use inkwell::context::Context;

    const IR: &str = r#"
declare void @__enzyme_autodiff(...)
declare void @qsort(ptr, i64, i64, ptr)
define double @f(ptr %x) {
  %v = load double, ptr %x
  ret double %v
}
define i32 @cmp(ptr %a, ptr %b) {
  ret i32 0
}
define void @driver(ptr %x, ptr %dx) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  call void @qsort(ptr %x, i64 4, i64 8, ptr @cmp)
  ret void
}
define void @main_like(ptr %x, ptr %dx) {
  call void @driver(ptr %x, ptr %dx)
  ret void
}
"#;

    #[test]
    fn the_function_a_hook_differentiates_is_not_part_of_its_callers_scope() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        let names = |start: &str| -> Vec<String> {
            super::scope(f(start), &|_| false)
                .into_iter()
                .map(|g| g.name())
                .collect()
        };
        // From the program's side: callers, callees and the callback, not `f`.
        assert_eq!(names("main_like"), ["main_like", "driver", "cmp"]);
        // From the differentiated function's side: not the function making the hook call.
        assert_eq!(names("f"), ["f"]);
    }
}
