//! OpenMP tasks and taskloops, run in place before differentiation.
//!
//! clang (and flang's OpenMPIRBuilder) outline a task's body into a *task entry*
//! `i32 entry(i32 gtid, ptr task)` and create the task at run time:
//!
//! ```text
//! %t = call ptr @__kmpc_omp_task_alloc(loc, gtid, flags, i64 task_size, i64 shareds_size, @entry)
//! %s = load ptr, ptr %t                 ; task->shareds: the addresses of shared variables
//! store ptr %x.addr, ptr %s ...         ; firstprivate values go into %t after the header
//! call i32 @__kmpc_omp_task(loc, gtid, %t)              ; or ..._with_deps
//! call i32 @__kmpc_omp_taskwait(loc, gtid)
//! ```
//!
//! A taskloop stores the loop's bounds into the task (`lb`, `ub`, `st` after the header)
//! and calls `__kmpc_taskloop(loc, gtid, %t, if, %lb.addr, %ub.addr, st, nogroup, sched,
//! grainsize, dup)`, which splits the range into chunk tasks.
//!
//! Data reaches the entry through memory the runtime allocates, which the pass cannot
//! follow into libomp. So the clone of a function that creates tasks runs every task
//! *undeferred*, by the creating thread, when it is created — an execution OpenMP allows
//! (what an `if(0)` task or a runtime without task queues does), and one in which every
//! dependence between sibling tasks (`depend`, `taskwait`, `taskgroup`) holds, since
//! they run in creation order. [`serialize`] rewrites, in the clone only:
//!
//! * the allocation to `calloc(task_size rounded to 8 + shareds_size)` with
//!   `task->shareds` pointing after the header, as libomp lays it out: an allocation
//!   the pass shadows like any other, so the shareds' shadows and the firstprivate
//!   values reach the entry's derivative through the task's shadow;
//! * `__kmpc_omp_task[_with_deps]` to a direct call of the entry, then `free`; in an
//!   `untied` task's entry, which enqueues its own task again to run its next part, to a
//!   direct call of the entry on that task (the creator frees it);
//! * `__kmpc_taskloop[_5]` to one direct call over the whole range, then `free`. That
//!   task is the last chunk: when clang's code has a task-duplication routine (it sets
//!   the `liter` flag that `lastprivate` copies out under), the flag after `lb`, `ub`,
//!   `st` in the task header is set here instead; a duplication routine with bounds
//!   elsewhere (not clang's layout) keeps the taskloop rejected;
//! * waits (taskwait, taskgroup, dependences of undeferred tasks, the start of an
//!   `if(0)` task, whose entry clang calls directly) to nothing, and the end of an
//!   `if(0)` task to `free`;
//! * task reductions (`taskloop reduction(+:s)`, `task_reduction`/`in_reduction`, the
//!   `reduction(task, ...)` modifier): the descriptor becomes null and the private copy
//!   a task asks for (`__kmpc_task_reduction_get_th_data`) is the item itself, so each
//!   task combines straight into it, one after the other (the same combination by
//!   associativity).
//!
//! flang's tasks keep everything in the shareds block, also values the entry never reads
//! (an extent loaded from a stack slot and stored only there): such a dead store gives
//! type analysis nothing to type the loaded integer by (a cannot-deduce-type error at
//! -O2). When the entry reads its task only through the shareds pointer, at constant
//! offsets, stores to bytes of the block the entry never reads are dropped.
//!
//! The primal program keeps its tasks (only the clone changes), and the derivative's
//! reverse sweep reverses the tasks in the reverse creation order. A task whose entry is
//! not a known function, or whose task pointer does not come straight from its
//! allocation, keeps its runtime calls and is rejected as before; so are detached tasks
//! and affinity.
//!
//! Invariant: a task runs to completion before the creating code continues, so nothing
//! in the clone may wait for a task another thread has not created yet (a program that
//! needs two tasks to run concurrently to make progress is not a conforming OpenMP
//! program).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Builder, Module, Opcode, Value};
use ferrozyme_rules::openmp::{task_call, TaskCall};

/// Offset of `liter` from `lb` in a taskloop's `kmp_task_t` (`lb`, `ub`, `st` are i64).
const LITER_AFTER_LB: u64 = 24;

fn task_rule(i: Value) -> Option<TaskCall> {
    (i.opcode() == Some(Opcode::LLVMCall))
        .then(|| i.called_function())
        .flatten()
        .and_then(|f| task_call(&f.name()))
}

/// Byte ranges `[from, to)` of the shareds block that `entry` reads, when it reads its
/// task only through the shareds pointer with loads at constant offsets (flang's tasks).
fn shareds_reads(m: Module, entry: Value) -> Option<Vec<(u64, u64)>> {
    let task = *entry.params().get(1)?;
    let mut read = Vec::new();
    for u in task.users() {
        if u.opcode() != Some(Opcode::LLVMLoad) || u.operand(0) != task || !u.ty().is_pointer() {
            return None;
        }
        reads_from(m, u, u, 0, &mut read, 0)?;
    }
    Some(read)
}

/// How deep [`reads_from`] follows getelementptrs.
const MAX_GEP_DEPTH: u32 = 4;

/// Adds the ranges read through `p`, at offset `base` of the block `root` points at.
fn reads_from(
    m: Module,
    root: Value,
    p: Value,
    base: u64,
    read: &mut Vec<(u64, u64)>,
    depth: u32,
) -> Option<()> {
    for u in p.users() {
        match u.opcode() {
            Some(Opcode::LLVMLoad) if u.operand(0) == p => {
                read.push((base, base + m.store_size(u.ty())));
            }
            Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p && depth < MAX_GEP_DEPTH => {
                let (from, off) = crate::parallel::openmp::constant_offset(u)?;
                if from != root {
                    return None;
                }
                reads_from(m, root, u, off, read, depth + 1)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// Drops the stores into the shareds block of the task `t` (reached by loading the
/// block's pointer from `t`) that overlap none of the ranges `read`.
fn drop_unread_stores(m: Module, t: Value, read: &[(u64, u64)]) {
    let blocks = t
        .users()
        .into_iter()
        .filter(|u| u.opcode() == Some(Opcode::LLVMLoad) && u.operand(0) == t);
    let mut dead = Vec::new();
    for s in blocks {
        let addrs = std::iter::once((s, 0)).chain(s.users().into_iter().filter_map(|g| {
            let (from, off) = (g.opcode() == Some(Opcode::LLVMGetElementPtr))
                .then(|| crate::parallel::openmp::constant_offset(g))
                .flatten()?;
            (from == s).then_some((g, off))
        }));
        for (a, off) in addrs {
            for st in a.users() {
                if st.opcode() != Some(Opcode::LLVMStore) || st.operand(1) != a {
                    continue;
                }
                let end = off + m.store_size(st.operand(0).ty());
                if !read.iter().any(|&(f, e)| f < end && off < e) {
                    dead.push(st);
                }
            }
        }
    }
    for st in dead {
        st.erase();
    }
}

/// The offset of a taskloop's `liter` flag in the task `t` whose lower bound is at `lb`,
/// when `lb` is in `t`'s header (clang's `kmp_task_t`) with room for the flag before the
/// end of the task (`size`).
fn liter_offset(t: Value, lb: Value, size: Value) -> Option<u64> {
    let (base, off) = crate::parallel::openmp::constant_offset(lb)?;
    let at = off + LITER_AFTER_LB;
    let size = u64::try_from(size.const_int_value()?).ok()?;
    (base == t && at + 4 <= size).then_some(at)
}

/// Runs every task created in `f` (a clone) in place; see the module essay. Returns
/// whether anything changed.
pub fn serialize(m: Module, f: Value) -> bool {
    let calls: Vec<(Value, TaskCall)> = f
        .instructions()
        .filter_map(|i| task_rule(i).map(|r| (i, r)))
        .collect();
    if calls.is_empty() {
        return false;
    }
    let ctx = m.context();
    let (ptr, i64t, i32t) = (ctx.ptr(), ctx.i64(), ctx.i32());
    let calloc = m.get_or_declare("calloc", ctx.function_type(ptr, &[i64t, i64t], false));
    let free = m.get_or_declare("free", ctx.function_type(ctx.void(), &[ptr], false));
    let b = Builder::new(ctx);
    // Allocations with a known entry, by the task pointer they return: (entry, size of
    // the task with its privates).
    let mut entries: HashMap<Value, (Value, Value)> = HashMap::default();
    for &(call, rule) in &calls {
        if rule != TaskCall::Alloc {
            continue;
        }
        let args = call.call_args();
        let entry = args[5];
        if !entry.is_function() || entry.is_declaration() {
            continue;
        }
        b.position_before(call);
        let head = b.binop(
            Opcode::LLVMAnd,
            b.binop(Opcode::LLVMAdd, args[3], i64t.const_int(7)),
            i64t.const_int(-8i64 as u64),
        );
        let size = b.binop(Opcode::LLVMAdd, head, args[4]);
        let t = b.call_fn(calloc, &[i64t.const_int(1), size]);
        let shareds = b.byte_gep(t, head);
        b.store(shareds, t);
        call.replace_all_uses_with(t);
        call.erase();
        if let Some(read) = shareds_reads(m, entry) {
            drop_unread_stores(m, t, &read);
        }
        entries.insert(t, (entry, args[3]));
    }
    let mut changed = !entries.is_empty();
    // The arrays of dependences handed to the calls that go.
    let mut dep_arrays: Vec<Value> = Vec::new();
    for (call, rule) in calls {
        match rule {
            TaskCall::Alloc => {}
            TaskCall::Run { .. } | TaskCall::Loop => {
                let args = call.call_args();
                if rule == (TaskCall::Run { deps: None }) && requeues_itself(f, args[2]) {
                    if let Some(entry) = original(m, f) {
                        b.position_before(call);
                        b.call_fn(entry, &[args[1], args[2]]);
                        call.replace_all_uses_with(call.ty().const_int(0));
                        call.erase();
                        changed = true;
                    }
                    continue;
                }
                let Some(&(entry, size)) = entries.get(&args[2]) else {
                    continue;
                };
                let dup = args[args.len() - 1];
                let liter = match rule {
                    TaskCall::Loop if !dup.is_null() => {
                        match liter_offset(args[2], args[4], size) {
                            Some(off) => Some(off),
                            None => continue,
                        }
                    }
                    _ => None,
                };
                b.position_before(call);
                if let Some(off) = liter {
                    let at = b.byte_gep(args[2], i64t.const_int(off));
                    b.store(i32t.const_int(1), at);
                }
                b.call_fn(entry, &[args[1], args[2]]);
                b.call_fn(free, &[args[2]]);
                if let TaskCall::Run { deps: Some(k) } = rule {
                    dep_arrays.push(args[k as usize]);
                }
                if !call.ty().is_void() {
                    call.replace_all_uses_with(call.ty().const_int(0));
                }
                call.erase();
                changed = true;
            }
            TaskCall::CompleteIf0 => {
                let t = call.call_args()[2];
                if entries.contains_key(&t) {
                    b.position_before(call);
                    b.call_fn(free, &[t]);
                    call.erase();
                    changed = true;
                }
            }
            TaskCall::ReductionInit => {
                call.replace_all_uses_with(call.ty().zero());
                call.erase();
                changed = true;
            }
            TaskCall::ReductionItem => {
                let item = call.call_args()[2];
                if !item.is_null() {
                    call.replace_all_uses_with(item);
                    call.erase();
                    changed = true;
                }
            }
            TaskCall::Nothing { deps } => {
                if let Some(k) = deps {
                    dep_arrays.push(call.call_args()[k as usize]);
                }
                if !call.ty().is_void() {
                    call.replace_all_uses_with(call.ty().const_int(0));
                }
                call.erase();
                changed = true;
            }
        }
    }
    for d in dep_arrays {
        drop_write_only(d);
    }
    changed
}

/// Is `task` the task parameter of the task entry `f` (a clone), handed back to
/// `__kmpc_omp_task`? clang splits an `untied` task's entry into parts at its task
/// scheduling points (a `switch` on the task's part id): part 0 stores the next part's
/// id and enqueues the task itself again, so that any thread may resume it. Run in
/// place, that is a call of the entry on the same task, which then runs the next part;
/// the task is freed by whoever created it, after the outermost call.
fn requeues_itself(f: Value, task: Value) -> bool {
    let params = f.params();
    params.len() == 2 && params[1] == through_slots(task) && crate::clone::is_clone(f)
}

/// How many stack slots [`through_slots`] looks through.
const MAX_SLOTS: u32 = 4;

/// The value `v` was loaded from stack slots for (`-O0` code keeps the task pointer in
/// an `alloca`, stored once and loaded where used; the clone becomes SSA form only
/// after this rewrite): `v` itself when it is no such load.
fn through_slots(mut v: Value) -> Value {
    for _ in 0..MAX_SLOTS {
        if v.opcode() != Some(Opcode::LLVMLoad) {
            break;
        }
        let slot = v.operand(0);
        if slot.opcode() != Some(Opcode::LLVMAlloca) {
            break;
        }
        let mut stored = None;
        for u in slot.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => {}
                Some(Opcode::LLVMStore) if u.operand(1) == slot && stored.is_none() => {
                    stored = Some(u.operand(0));
                }
                _ => return v,
            }
        }
        match stored {
            Some(s) => v = s,
            None => break,
        }
    }
    v
}

/// The task entry the clone `f` was made of: the function its origin names (clones
/// of one function get numbered names, `fz_primal_<name>.16`), of `f`'s type.
fn original(m: Module, f: Value) -> Option<Value> {
    m.function(&f.source_name()).filter(|o| {
        *o != f && !crate::clone::is_clone(*o) && o.function_type() == f.function_type()
    })
}

/// Erases the stores into the memory at `p` when nothing else uses it (through
/// getelementptrs): an array of dependences, which holds addresses as integers
/// (`ptrtoint`). flang builds it in the function around the parallel region and passes
/// it in, where its shadow is null: mirroring those stores would write through it.
fn drop_write_only(p: Value) {
    if p.is_constant() {
        return;
    }
    let mut stores = Vec::new();
    let mut work = vec![p];
    while let Some(a) = work.pop() {
        for u in a.users() {
            match u.opcode() {
                Some(Opcode::LLVMStore) if u.operand(1) == a && u.operand(0) != a => stores.push(u),
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == a => work.push(u),
                _ => return,
            }
        }
    }
    for st in stores {
        st.erase();
    }
}
