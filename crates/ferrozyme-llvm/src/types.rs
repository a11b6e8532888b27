//! Types, the context, and constants (part of the id-based view; see `ir.rs`).

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;
use std::ffi::CStr;
use std::fmt;

use crate::ir::{own_message, Context, Type, Value};

// ---------------------------------------------------------------------------------------
// Types

/// Whether `half` (`_Float16`) values carry derivatives. While false, `half` counts as an
/// undifferentiated float ([`Type::undifferentiated_fp`]) and is rejected where it meets
/// active data.
pub const HALF_DIFFERENTIATED: bool = true;

/// Whether `x86_fp80` (C `long double` on x86-64, computed by the x87 unit) carries
/// derivatives. Its rules are the same as `double`'s (they lower to type-overloaded
/// intrinsics, `llvm.cos.f80` becomes `cosl`); while false, it counts as undifferentiated.
pub const LONG_DOUBLE_DIFFERENTIATED: bool = true;

/// The shape of a type, enough for the analyses and the transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Void,
    Half,
    Float,
    Double,
    /// `x86_fp80`: C `long double` on x86-64.
    X86Fp80,
    /// fp128, ppc_fp128 and bfloat: floats we do not differentiate.
    OtherFloat,
    Int(u32),
    Pointer,
    Vector,
    Array,
    Struct,
    Function,
    Label,
    Metadata,
    Other,
}

impl Type {
    pub fn raw(self) -> LLVMTypeRef {
        self.0
    }
    pub fn kind(self) -> TypeKind {
        // SAFETY: handle invariant (module alive).
        unsafe {
            match LLVMGetTypeKind(self.0) {
                LLVMTypeKind::LLVMVoidTypeKind => TypeKind::Void,
                LLVMTypeKind::LLVMHalfTypeKind => TypeKind::Half,
                LLVMTypeKind::LLVMFloatTypeKind => TypeKind::Float,
                LLVMTypeKind::LLVMDoubleTypeKind => TypeKind::Double,
                LLVMTypeKind::LLVMX86_FP80TypeKind => TypeKind::X86Fp80,
                LLVMTypeKind::LLVMFP128TypeKind
                | LLVMTypeKind::LLVMPPC_FP128TypeKind
                | LLVMTypeKind::LLVMBFloatTypeKind => TypeKind::OtherFloat,
                LLVMTypeKind::LLVMIntegerTypeKind => TypeKind::Int(LLVMGetIntTypeWidth(self.0)),
                LLVMTypeKind::LLVMPointerTypeKind => TypeKind::Pointer,
                LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind => {
                    TypeKind::Vector
                }
                LLVMTypeKind::LLVMArrayTypeKind => TypeKind::Array,
                LLVMTypeKind::LLVMStructTypeKind => TypeKind::Struct,
                LLVMTypeKind::LLVMFunctionTypeKind => TypeKind::Function,
                LLVMTypeKind::LLVMLabelTypeKind => TypeKind::Label,
                LLVMTypeKind::LLVMMetadataTypeKind => TypeKind::Metadata,
                _ => TypeKind::Other,
            }
        }
    }
    /// `float`, `double`, `half` and `x86_fp80` (see [`HALF_DIFFERENTIATED`] and
    /// [`LONG_DOUBLE_DIFFERENTIATED`]): the floating-point types we differentiate, scalar
    /// only.
    pub fn is_fp_scalar(self) -> bool {
        match self.kind() {
            TypeKind::Float | TypeKind::Double => true,
            TypeKind::Half => HALF_DIFFERENTIATED,
            TypeKind::X86Fp80 => LONG_DOUBLE_DIFFERENTIATED,
            _ => false,
        }
    }
    /// Width in bits of a floating-point scalar (`half` 16, `float` 32, `double` 64,
    /// `x86_fp80` 80, `fp128` 128); 0 for other types.
    pub fn fp_bits(self) -> u32 {
        // SAFETY: handle invariant (module alive).
        match unsafe { LLVMGetTypeKind(self.0) } {
            LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => 16,
            LLVMTypeKind::LLVMFloatTypeKind => 32,
            LLVMTypeKind::LLVMDoubleTypeKind => 64,
            LLVMTypeKind::LLVMX86_FP80TypeKind => 80,
            LLVMTypeKind::LLVMFP128TypeKind | LLVMTypeKind::LLVMPPC_FP128TypeKind => 128,
            _ => 0,
        }
    }
    /// float/double or a vector of them.
    pub fn is_fp(self) -> bool {
        self.is_fp_scalar()
            || (self.kind() == TypeKind::Vector && self.element_type().is_fp_scalar())
    }
    pub fn is_pointer(self) -> bool {
        self.kind() == TypeKind::Pointer
    }
    /// The first floating-point leaf of this type (itself, or inside a vector, array or
    /// struct) that Ferrozyme does not differentiate: `x86_fp80` (C `long double`),
    /// `fp128`, `ppc_fp128`, `bfloat`, and `half` unless [`HALF_DIFFERENTIATED`].
    /// Values of such types never carry derivatives, so wherever they meet active data
    /// the pass must say so instead of yielding a zero derivative.
    pub fn undifferentiated_fp(self) -> Option<Type> {
        match self.kind() {
            TypeKind::OtherFloat => Some(self),
            TypeKind::Half if !HALF_DIFFERENTIATED => Some(self),
            TypeKind::X86Fp80 if !LONG_DOUBLE_DIFFERENTIATED => Some(self),
            TypeKind::Vector | TypeKind::Array => self.element_type().undifferentiated_fp(),
            TypeKind::Struct => self
                .struct_fields()
                .into_iter()
                .find_map(|t| t.undifferentiated_fp()),
            _ => None,
        }
    }
    /// How C spells a floating-point type, for messages (`long double` for `x86_fp80`).
    pub fn c_float_name(self) -> &'static str {
        // SAFETY: handle invariant (module alive).
        match unsafe { LLVMGetTypeKind(self.0) } {
            LLVMTypeKind::LLVMHalfTypeKind => "_Float16",
            LLVMTypeKind::LLVMBFloatTypeKind => "__bf16",
            LLVMTypeKind::LLVMFloatTypeKind => "float",
            LLVMTypeKind::LLVMDoubleTypeKind => "double",
            LLVMTypeKind::LLVMX86_FP80TypeKind => "long double",
            LLVMTypeKind::LLVMFP128TypeKind => "__float128",
            LLVMTypeKind::LLVMPPC_FP128TypeKind => "long double (PowerPC double-double)",
            _ => "a non-float type",
        }
    }
    /// A pointer or a vector of pointers (what vectorized gathers and scatters use).
    pub fn is_pointer_like(self) -> bool {
        self.is_pointer() || (self.kind() == TypeKind::Vector && self.element_type().is_pointer())
    }
    /// A struct or an array (a first-class aggregate value).
    pub fn is_aggregate(self) -> bool {
        matches!(self.kind(), TypeKind::Struct | TypeKind::Array)
    }
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), TypeKind::Int(_))
    }
    pub fn is_void(self) -> bool {
        self.kind() == TypeKind::Void
    }
    pub fn int_width(self) -> Option<u32> {
        match self.kind() {
            TypeKind::Int(w) => Some(w),
            _ => None,
        }
    }
    /// A scalable vector (`<vscale x N x T>`), or an array/struct containing one: types
    /// whose size is not a compile-time constant, so the data layout cannot size them.
    pub fn has_scalable(self) -> bool {
        // SAFETY: handle invariant (module alive).
        let raw = unsafe { LLVMGetTypeKind(self.0) };
        match raw {
            LLVMTypeKind::LLVMScalableVectorTypeKind => true,
            LLVMTypeKind::LLVMArrayTypeKind => self.element_type().has_scalable(),
            LLVMTypeKind::LLVMStructTypeKind => {
                self.struct_fields().into_iter().any(|t| t.has_scalable())
            }
            _ => false,
        }
    }
    /// Element type of a vector or array.
    pub fn element_type(self) -> Type {
        // SAFETY: handle invariant; only called on sequential types.
        Type(unsafe { LLVMGetElementType(self.0) })
    }
    pub fn vector_len(self) -> u32 {
        // SAFETY: handle invariant.
        unsafe { LLVMGetVectorSize(self.0) }
    }
    pub fn array_len(self) -> u64 {
        // SAFETY: handle invariant.
        unsafe { LLVMGetArrayLength2(self.0) }
    }
    /// Is this a struct type declared without a body (`%T = type opaque`)? An empty
    /// literal struct `{}` (Rust's zero-sized fields) is not opaque: it has size 0.
    pub fn is_opaque_struct(self) -> bool {
        // SAFETY: handle invariant; only asked of struct types.
        self.kind() == crate::TypeKind::Struct && unsafe { LLVMIsOpaqueStruct(self.0) != 0 }
    }
    pub fn struct_fields(self) -> Vec<Type> {
        // SAFETY: handle invariant; buffer sized by LLVMCountStructElementTypes.
        unsafe {
            let n = LLVMCountStructElementTypes(self.0) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetStructElementTypes(self.0, v.as_mut_ptr());
            v.into_iter().map(Type).collect()
        }
    }
    /// The name of a named struct type; `None` for literal structs and other types
    /// (LLVM's `getName` reads a struct's fields: on any other type it is undefined
    /// behaviour, which crashed the analysis tests now and then).
    pub fn struct_name(self) -> Option<String> {
        if self.kind() != crate::TypeKind::Struct {
            return None;
        }
        // SAFETY: handle invariant; a struct type.
        unsafe {
            let p = LLVMGetStructName(self.0);
            if p.is_null() {
                None
            } else {
                Some(CStr::from_ptr(p).to_string_lossy().into_owned())
            }
        }
    }
    pub fn return_type(self) -> Type {
        // SAFETY: handle invariant; only on function types.
        Type(unsafe { LLVMGetReturnType(self.0) })
    }
    pub fn param_types(self) -> Vec<Type> {
        // SAFETY: buffer sized by LLVMCountParamTypes.
        unsafe {
            let n = LLVMCountParamTypes(self.0) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.0, v.as_mut_ptr());
            v.into_iter().map(Type).collect()
        }
    }
    pub fn is_vararg(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsFunctionVarArg(self.0) != 0 }
    }
    /// Does any part of this type hold a float or double?
    pub fn contains_fp(self) -> bool {
        match self.kind() {
            TypeKind::Float | TypeKind::Double => true,
            TypeKind::Half => HALF_DIFFERENTIATED,
            TypeKind::X86Fp80 => LONG_DOUBLE_DIFFERENTIATED,
            TypeKind::Vector | TypeKind::Array => self.element_type().contains_fp(),
            TypeKind::Struct => self.struct_fields().into_iter().any(|t| t.contains_fp()),
            _ => false,
        }
    }
    /// Does any part of this type hold a pointer?
    pub fn contains_pointer(self) -> bool {
        match self.kind() {
            TypeKind::Pointer => true,
            TypeKind::Vector | TypeKind::Array => self.element_type().contains_pointer(),
            TypeKind::Struct => self
                .struct_fields()
                .into_iter()
                .any(|t| t.contains_pointer()),
            _ => false,
        }
    }
    pub fn context(self) -> Context {
        // SAFETY: handle invariant.
        Context(unsafe { LLVMGetTypeContext(self.0) })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: handle invariant; the message is owned and disposed.
        let s = own_message(unsafe { LLVMPrintTypeToString(self.0) });
        f.write_str(&s)
    }
}
impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Type({self})")
    }
}

impl Context {
    pub fn raw(self) -> LLVMContextRef {
        self.0
    }
    pub fn f64(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMDoubleTypeInContext(self.0) })
    }
    pub fn f80(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMX86FP80TypeInContext(self.0) })
    }
    pub fn f16(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMHalfTypeInContext(self.0) })
    }
    pub fn f32(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMFloatTypeInContext(self.0) })
    }
    pub fn int(self, bits: u32) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMIntTypeInContext(self.0, bits) })
    }
    pub fn i1(self) -> Type {
        self.int(1)
    }
    pub fn i8(self) -> Type {
        self.int(8)
    }
    pub fn i32(self) -> Type {
        self.int(32)
    }
    pub fn i64(self) -> Type {
        self.int(64)
    }
    pub fn ptr(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMPointerTypeInContext(self.0, 0) })
    }
    pub fn void(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMVoidTypeInContext(self.0) })
    }
    pub fn struct_type(self, fields: &[Type]) -> Type {
        let mut raw: Vec<LLVMTypeRef> = fields.iter().map(|t| t.0).collect();
        // SAFETY: context alive; the array outlives the call.
        Type(unsafe { LLVMStructTypeInContext(self.0, raw.as_mut_ptr(), raw.len() as u32, 0) })
    }
    pub fn array_type(self, elem: Type, n: u64) -> Type {
        let _ = self;
        // SAFETY: handle invariant.
        Type(unsafe { LLVMArrayType2(elem.0, n) })
    }
    pub fn vector_type(self, elem: Type, n: u32) -> Type {
        let _ = self;
        // SAFETY: handle invariant.
        Type(unsafe { LLVMVectorType(elem.0, n) })
    }
    pub fn function_type(self, ret: Type, params: &[Type], vararg: bool) -> Type {
        let mut raw: Vec<LLVMTypeRef> = params.iter().map(|t| t.0).collect();
        // SAFETY: the array outlives the call.
        Type(unsafe { LLVMFunctionType(ret.0, raw.as_mut_ptr(), raw.len() as u32, vararg as i32) })
    }
    /// A metadata string, as a value (for [`Context::md_node`] and `set_metadata`).
    pub fn md_string(self, s: &str) -> Value {
        // SAFETY: context alive; the string is passed with its length and copied.
        unsafe {
            let md =
                llvm_sys::core::LLVMMDStringInContext2(self.0, s.as_ptr() as *const _, s.len());
            Value(LLVMMetadataAsValue(self.0, md))
        }
    }
    /// A (uniqued) metadata node of metadata operands given as values (made by
    /// [`Context::md_string`], [`Context::md_node`] or read with `Value::metadata`).
    pub fn md_node(self, ops: &[Value]) -> Value {
        // SAFETY: context alive; every operand is metadata wrapped as a value, converted
        // back to metadata; the array outlives the call.
        unsafe {
            let mut mds: Vec<LLVMMetadataRef> =
                ops.iter().map(|v| LLVMValueAsMetadata(v.0)).collect();
            let md = llvm_sys::core::LLVMMDNodeInContext2(self.0, mds.as_mut_ptr(), mds.len());
            Value(LLVMMetadataAsValue(self.0, md))
        }
    }
    /// A loop ID for `!llvm.loop`: a distinct node whose first operand is itself (LLVM
    /// reads a loop's properties only from such a node), then `props` (e.g.
    /// `!{!"llvm.loop.unroll.disable"}`). Made as a node over a temporary, which is then
    /// replaced by the node: LLVM drops the uniquing of a node that refers to itself.
    pub fn loop_id(self, props: &[Value]) -> Value {
        // SAFETY: context alive; the temporary node is replaced (and deleted) by
        // `LLVMMetadataReplaceAllUsesWith` before anything else sees it; the operand array
        // outlives the call.
        unsafe {
            let tmp = llvm_sys::debuginfo::LLVMTemporaryMDNode(self.0, std::ptr::null_mut(), 0);
            let mut mds: Vec<LLVMMetadataRef> = std::iter::once(tmp)
                .chain(props.iter().map(|v| LLVMValueAsMetadata(v.0)))
                .collect();
            let md = llvm_sys::core::LLVMMDNodeInContext2(self.0, mds.as_mut_ptr(), mds.len());
            llvm_sys::debuginfo::LLVMMetadataReplaceAllUsesWith(tmp, md);
            Value(LLVMMetadataAsValue(self.0, md))
        }
    }
    pub fn md_kind(self, name: &str) -> u32 {
        // SAFETY: context alive; the name is passed with its length.
        unsafe { LLVMGetMDKindIDInContext(self.0, name.as_ptr() as *const _, name.len() as u32) }
    }
}

// ---------------------------------------------------------------------------------------
// Constants

impl Type {
    /// A floating constant of this (scalar or vector) type; vectors get a splat.
    pub fn const_float(self, x: f64) -> Value {
        if self.kind() == TypeKind::Vector {
            let e = self.element_type().const_float(x);
            return Value::const_splat(e, self.vector_len());
        }
        // SAFETY: handle invariant; only float types reach here.
        Value(unsafe { LLVMConstReal(self.0, x) })
    }
    pub fn const_int(self, x: u64) -> Value {
        if self.kind() == TypeKind::Vector {
            let e = self.element_type().const_int(x);
            return Value::const_splat(e, self.vector_len());
        }
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstInt(self.0, x, 0) })
    }
    pub fn const_i64(self, x: i64) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstInt(self.0, x as u64, 1) })
    }
    /// The all-zero value of any type (0.0, null, zeroinitializer).
    pub fn zero(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstNull(self.0) })
    }
    pub fn undef(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMGetUndef(self.0) })
    }
    pub fn poison(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMGetPoison(self.0) })
    }
}
