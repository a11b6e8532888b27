//! Text carried by IR: string function attributes (`"enzyme_allocator"="0"`) and C string
//! constants (`@.str = private constant [3 x i8] c"-1\00"`), as registrations use them.

use llvm_sys::core::{
    LLVMGetAsString, LLVMGetInitializer, LLVMGetStringAttributeAtIndex,
    LLVMGetStringAttributeValue, LLVMIsAConstantDataSequential, LLVMIsAGlobalVariable,
    LLVMIsConstantString,
};

use crate::ir::Value;

/// The string function attribute naming the user's function a generated one was made from.
const ORIGIN_ATTR: &str = "ferrozyme-origin";

/// `bytes` as an owned string, invalid UTF-8 replaced (`String::from_utf8_lossy`), with
/// the standard library's faster check for the usual valid text first: value names are
/// read about a hundred thousand times per compile of a 320-function chain (issue 18).
pub(crate) fn owned_lossy(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

impl Value {
    /// The value of the function's string attribute `key`, if it has one.
    pub fn string_fn_attr(self, key: &str) -> Option<String> {
        // SAFETY: attribute query by key (pointer + length) on a function; the value is a
        // borrowed buffer with its length, copied out.
        unsafe {
            let a = LLVMGetStringAttributeAtIndex(
                self.raw(),
                llvm_sys::LLVMAttributeFunctionIndex,
                key.as_ptr() as *const _,
                key.len() as u32,
            );
            if a.is_null() {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetStringAttributeValue(a, &mut len);
            if p.is_null() {
                return Some(String::new());
            }
            Some(
                String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                    .into_owned(),
            )
        }
    }

    /// The name of the user's function this function was made from (a clone prepared for
    /// differentiation, a loop outlined into a step function), as diagnostics show it: the
    /// `ferrozyme-origin` attribute `mark_origin` left, else the function's own name.
    pub fn source_name(self) -> String {
        self.string_fn_attr(ORIGIN_ATTR)
            .unwrap_or_else(|| self.name())
    }

    /// Records that this generated function stands for code of `of` (see `source_name`).
    pub fn mark_origin(self, of: Value) {
        self.add_string_fn_attr(ORIGIN_ATTR, &of.source_name());
    }

    /// The text of a C string constant: this value, or the initializer of this global,
    /// when it is an `i8` array constant (without the terminating NUL).
    pub fn c_string(self) -> Option<String> {
        // SAFETY: kind checks before each query; the string is a borrowed buffer with its
        // length, copied out.
        unsafe {
            let mut v = self.raw();
            if !LLVMIsAGlobalVariable(v).is_null() {
                v = LLVMGetInitializer(v);
                if v.is_null() {
                    return None;
                }
            }
            if LLVMIsAConstantDataSequential(v).is_null() || LLVMIsConstantString(v) == 0 {
                return None;
            }
            let mut len = 0usize;
            let p = LLVMGetAsString(v, &mut len);
            if p.is_null() {
                return None;
            }
            let bytes = std::slice::from_raw_parts(p as *const u8, len);
            let bytes = bytes.split(|b| *b == 0).next().unwrap_or(&[]);
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
    }
}
