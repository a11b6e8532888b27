//! Pointers the optimizer merged as integers, merged as pointers again.
//!
//! Rust's enums put a pointer and an integer in the same field (`Result<NonNull<u8>,
//! usize>` behind `Vec` allocation); after inlining, SROA gives such a field one integer
//! type, and a `Vec`'s buffer pointer comes out as `inttoptr (phi i64 [ptrtoint %buf],
//! [8])` — the fresh allocation or the dangling pointer of an empty `Vec`. The AD pass
//! does not follow shadows through integers (it rejects pointers rebuilt from integers
//! that may reach differentiable memory), so on the optimized copies the derivatives
//! differentiate, such pointers are rebuilt as pointers: a `phi`/`select` of the original
//! pointers and of `inttoptr` constants.

use std::collections::HashMap;

use ferrozyme_llvm::{Builder, Opcode, Value};

/// Rewrites the integer-merged pointers of `f`; returns how many `inttoptr`s went.
pub fn repair(f: Value) -> usize {
    let ctx = f.ty().context();
    let b = Builder::new(ctx);
    let casts: Vec<Value> = f
        .instructions()
        .filter(|i| i.opcode() == Some(Opcode::LLVMIntToPtr))
        .collect();
    let mut done = 0;
    for c in casts {
        let x = c.operand(0);
        let mut seen = Vec::new();
        if !feasible(x, &mut seen, 0) {
            continue;
        }
        let mut memo = HashMap::new();
        let p = rebuild(&b, x, c.ty(), &mut memo);
        c.replace_all_uses_with(p);
        c.erase();
        done += 1;
    }
    done
}

/// Is `x` made of `ptrtoint`s and constants through phis and selects only?
fn feasible(x: Value, seen: &mut Vec<Value>, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    if ptr_of(x).is_some() || (x.is_constant() && !x.is_constant_expr()) {
        return true;
    }
    match x.opcode() {
        Some(Opcode::LLVMPHI) => {
            if seen.contains(&x) {
                return true;
            }
            seen.push(x);
            x.incoming()
                .into_iter()
                .all(|(v, _)| feasible(v, seen, depth + 1))
        }
        Some(Opcode::LLVMSelect) => {
            feasible(x.operand(1), seen, depth + 1) && feasible(x.operand(2), seen, depth + 1)
        }
        _ => false,
    }
}

/// The pointer `p` of `ptrtoint p` (an instruction or a constant expression).
fn ptr_of(x: Value) -> Option<Value> {
    let is_cast =
        x.opcode() == Some(Opcode::LLVMPtrToInt) || x.const_opcode() == Some(Opcode::LLVMPtrToInt);
    (is_cast && x.operand(0).ty().is_pointer()).then(|| x.operand(0))
}

fn rebuild(
    b: &Builder,
    x: Value,
    pty: ferrozyme_llvm::Type,
    memo: &mut HashMap<Value, Value>,
) -> Value {
    if let Some(p) = ptr_of(x) {
        return p;
    }
    if let Some(&p) = memo.get(&x) {
        return p;
    }
    match x.opcode() {
        Some(Opcode::LLVMPHI) => {
            b.position_before(x);
            let phi = b.phi(pty, &format!("{}.ptr", x.name()));
            memo.insert(x, phi);
            for (v, blk) in x.incoming() {
                let p = rebuild(b, v, pty, memo);
                phi.add_incoming(p, blk);
            }
            phi
        }
        Some(Opcode::LLVMSelect) => {
            let (t, e) = (
                rebuild(b, x.operand(1), pty, memo),
                rebuild(b, x.operand(2), pty, memo),
            );
            b.position_before(x);
            let s = b.select(x.operand(0), t, e);
            memo.insert(x, s);
            s
        }
        // A constant: `inttoptr C`, folded by the builder into a constant expression.
        _ => b.inttoptr(x, pty),
    }
}
