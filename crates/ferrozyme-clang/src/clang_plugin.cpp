// libferrozyme_clang.so: what `clang-22 -fplugin=libferrozyme_clang.so` needs, the way
// Enzyme's users load ClangEnzyme (`clang test.c -fplugin=ClangEnzyme-22.so -O2`).
//
// `-fplugin` makes clang load a library as a *frontend* plugin, early (before it parses
// `-mllvm` options) and without looking for a pass-plugin entry point. So:
//   * when this library is loaded, it loads the pass plugin `libferrozyme_plugin.so` from
//     its own folder (which registers Enzyme's `-mllvm -enzyme-*` options in time);
//   * a frontend action that runs before the main one hands the pass plugin's
//     registration to the code generator's PassBuilder (clang 22 loads `-fpass-plugin`
//     libraries before any frontend action, so adding a path then would be too late),
//     unless `-fpass-plugin` loaded the same library; the pass then runs exactly as with
//     `-fpass-plugin` (OptimizerEarly at -O1+, OptimizerLast at -O0);
//   * Enzyme's source attributes, which plain clang drops with "unknown attribute", in
//     every spelling Enzyme's plugin accepts (`__attribute__((enzyme_X))`, `[[enzyme_X]]`,
//     `[[enzyme::X]]`): `enzyme_inactive` and `enzyme_inactive_noblock` become
//     `annotate("enzyme_inactive")` and `enzyme_function_like("name")` becomes
//     `annotate("enzyme_function_like:name")`, the annotations `ferrozyme cc` produces with
//     its -D definitions and the pass reads (ferrozyme-transform custom/annotations.rs);
//     the hints `enzyme_nofree`, `enzyme_shouldrecompute`, `enzyme_elementwise_read`,
//     `enzyme_notypeanalysis` and `enzyme_no_escaping_allocation` are accepted and change
//     nothing (Enzyme uses them to cache less or skip an analysis).
//   * Enzyme's loop annotations for checkpointing, `[[enzyme::checkpoint("revolve", 3)]]`,
//     `__attribute__((enzyme_checkpoint(...)))`, `#pragma enzyme checkpoint(...)` and
//     Reactant's `enzyme_checkpointing_enable("binomial" | "regular", budget)`: the loop's
//     body starts with a call `__enzyme_set_checkpointing(schedule, budget)` (the tags of
//     <enzyme/checkpoint_schedule.h>), which the pass turns into a checkpointed loop
//     (ferrozyme-transform checkpoint/marked.rs). `ferrozyme cc` loads this library for
//     them with `-fplugin-arg-ferrozyme-no-pass` (it runs the pass itself).
//   * A hook call (`__enzyme_autodiff`, `__enzyme_fwddiff`, ...) with an argument that the
//     x86-64 ABI passes as two registers (`double _Complex`, `std::complex<double>`,
//     `struct { double x, y; }`) calls the hook under a name that says which source
//     argument is such a value (`__enzyme_fwddiff.fzargs.122`: ferrozyme-abi's
//     ARG_LAYOUT_TAG, then one digit per argument after the function), so the pass reads
//     `z, dz` as the user wrote them instead of one register at a time
//     (ferrozyme-transform request/reader/two_part.rs).

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Pragma.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;

namespace {

// The file this code was loaded from (the plugin library), "" if the loader cannot say.
std::string ownPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&ownPath), &Info) == 0 || !Info.dli_fname)
    return "";
  return Info.dli_fname;
}

bool sameFile(const std::string &A, const std::string &B) {
  if (A == B)
    return true;
  llvm::sys::fs::UniqueID IA, IB;
  return !llvm::sys::fs::getUniqueID(A, IA) && !llvm::sys::fs::getUniqueID(B, IB) &&
         IA == IB;
}

// The pass plugin, loaded when this library is; its error when that failed.
std::optional<llvm::PassPlugin> Pass;
std::string PassError;

std::string passPluginPath() {
  std::string Self = ownPath();
  size_t Slash = Self.rfind('/');
  std::string Dir = Slash == std::string::npos ? "." : Self.substr(0, Slash);
  return Dir + "/libferrozyme_plugin.so";
}

void loadPassPlugin() {
  std::string Path = passPluginPath();
  auto P = llvm::PassPlugin::Load(Path);
  if (P)
    Pass.emplace(std::move(*P));
  else
    PassError = Path + ": " + llvm::toString(P.takeError());
}

// Loads the pass plugin when clang loads this library (after `Pass` and `PassError` are
// initialized: same file, later definition).
struct LoadAtStart {
  LoadAtStart() { loadPassPlugin(); }
} Loader;

// The repository's include/ headers, embedded by build.rs.
struct Header {
  const char *Name;
  const char *Text;
};
const Header Headers[] = {
#include "headers.inc"
};

// A folder holding the embedded headers, written once per version into the temporary
// directory (each file through a temporary name and a rename, so concurrent compiles
// never see half a file); "" when it cannot be written.
std::string headerDir() {
  llvm::SmallString<256> Dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  llvm::sys::path::append(Dir, "ferrozyme-clang-include-" FERROZYME_HEADERS_HASH);
  for (const Header &H : Headers) {
    llvm::SmallString<256> File(Dir);
    llvm::sys::path::append(File, H.Name);
    if (llvm::sys::fs::exists(File))
      continue;
    if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)))
      return "";
    llvm::SmallString<256> Tmp;
    int FD;
    if (llvm::sys::fs::createUniqueFile(File + ".tmp%%%%%%", FD, Tmp))
      return "";
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << H.Text;
    }
    if (llvm::sys::fs::rename(Tmp, File))
      return "";
  }
  return Dir.str().str();
}

// `#include <enzyme/enzyme>` and the other headers without `-I`, as with Enzyme's
// plugin: their folder is searched after every other one, so a user's own copy wins.
void addHeaderDir(CompilerInstance &CI) {
  if (!CI.hasPreprocessor())
    return;
  std::string Dir = headerDir();
  if (Dir.empty())
    return;
  if (auto D = CI.getFileManager().getOptionalDirectoryRef(Dir))
    CI.getPreprocessor().getHeaderSearchInfo().AddSystemSearchPath(
        DirectoryLookup(*D, SrcMgr::C_System, /*isFramework=*/false));
}

// ---------------------------------------------------------------------------------------
// Hook calls with arguments passed as two registers.

// ferrozyme-abi's entry points, in its order (matched by substring, most specific first),
// and whether a call of each passes the differentiated function's arguments.
struct HookName {
  const char *Name;
  bool ReadsArguments;
};
const HookName HookNames[] = {
#include "hooks.inc"
};

bool readsArguments(llvm::StringRef Name) {
  for (const HookName &H : HookNames)
    if (Name.contains(H.Name))
      return H.ReadsArguments;
  return false;
}

// Can a field of type `T` at bit offset `Off` sit in a record the x86-64 ABI passes in
// two registers? Not a misaligned one, an x87 `long double` or a 16-byte scalar or vector
// (`__m128d`, `__float128`: the record is then one operand or in memory).
bool fitsTwoRegisters(const ASTContext &Ctx, QualType T, uint64_t Off) {
  T = T.getCanonicalType();
  if (T->isDependentType() || T->isIncompleteType())
    return false;
  if (Off % Ctx.getTypeAlign(T) != 0)
    return false;
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    uint64_t Elt = Ctx.getTypeSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getZExtSize(); I++)
      if (!fitsTwoRegisters(Ctx, AT->getElementType(), Off + I * Elt))
        return false;
    return true;
  }
  if (const auto *CT = T->getAs<ComplexType>())
    return fitsTwoRegisters(Ctx, CT->getElementType(), Off) &&
           fitsTwoRegisters(Ctx, CT->getElementType(),
                            Off + Ctx.getTypeSize(CT->getElementType()));
  if (const RecordDecl *RD = T->getAsRecordDecl()) {
    RD = RD->getDefinition();
    if (!RD || RD->isInvalidDecl())
      return false;
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
      if (CXX->isDynamicClass())
        return false;
      for (const CXXBaseSpecifier &B : CXX->bases()) {
        const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
        if (!BD || B.isVirtual() ||
            !fitsTwoRegisters(Ctx, B.getType(),
                              Off + Ctx.toBits(L.getBaseClassOffset(BD))))
          return false;
      }
    }
    for (const FieldDecl *F : RD->fields())
      if (!F->isBitField() &&
          !fitsTwoRegisters(Ctx, F->getType(), Off + L.getFieldOffset(F->getFieldIndex())))
        return false;
    return true;
  }
  if (T->isRealFloatingType() &&
      &Ctx.getFloatTypeSemantics(T) == &llvm::APFloat::x87DoubleExtended())
    return false;
  return Ctx.getTypeSize(T) <= 64 || T->isIntegerType();
}

// Does the x86-64 System V ABI pass a value of type `T` as two operands (two registers
// of eight bytes, or on the stack in memory once the registers run out, which the pass
// sees as one `byval` operand)? A `double _Complex` or a record of 9 to 16 bytes that
// can go in registers; a `float _Complex` is one `<2 x float>`, a `long double _Complex`
// and larger records are in memory.
bool passedAsTwo(const ASTContext &Ctx, QualType T) {
  const llvm::Triple &TT = Ctx.getTargetInfo().getTriple();
  if (TT.getArch() != llvm::Triple::x86_64 || TT.isOSWindows())
    return false;
  T = T.getCanonicalType();
  if (!T->isAnyComplexType() && !T->isRecordType())
    return false;
  if (T->isIncompleteType() || T->isDependentType())
    return false;
  uint64_t Size = Ctx.getTypeSize(T);
  if (Size <= 64 || Size > 128)
    return false;
  if (const RecordDecl *RD = T->getAsRecordDecl())
    if (!RD->getDefinition() || !RD->getDefinition()->canPassInRegisters())
      return false;
  return fitsTwoRegisters(Ctx, T, 0);
}

// Renames the hook of each hook call with such an argument (see the file's opening).
class TwoPartArguments final : public ASTConsumer,
                               public RecursiveASTVisitor<TwoPartArguments> {
  ASTContext *Ctx = nullptr;
  // The renamed declarations, by name, made once each.
  std::map<std::string, FunctionDecl *> Renamed;

public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  void Initialize(ASTContext &C) override { Ctx = &C; }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      TraverseDecl(D);
    return true;
  }
  // C++ template instantiations are made at the end of the translation unit; the code
  // generator emits them after this consumer has seen the unit. (C has none: its
  // functions were all seen one by one.)
  void HandleTranslationUnit(ASTContext &C) override {
    if (C.getLangOpts().CPlusPlus)
      TraverseDecl(C.getTranslationUnitDecl());
  }

  bool VisitCallExpr(CallExpr *CE) {
    FunctionDecl *FD = CE->getDirectCallee();
    auto *Ref = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    if (!FD || !Ref || !FD->getIdentifier() || !readsArguments(FD->getName()) ||
        FD->hasBody() || FD->getName().contains(FERROZYME_ARG_LAYOUT_TAG) ||
        CE->getNumArgs() < 2)
      return true;
    std::string Digits;
    bool Any = false;
    for (unsigned I = 1; I < CE->getNumArgs(); I++) {
      const Expr *A = CE->getArg(I);
      bool Two = !A->isTypeDependent() && passedAsTwo(*Ctx, A->getType());
      Digits += Two ? '2' : '1';
      Any |= Two;
    }
    if (!Any)
      return true;
    Ref->setDecl(renamed(FD, FD->getName().str() + FERROZYME_ARG_LAYOUT_TAG + Digits));
    return true;
  }

private:
  // A declaration of hook `FD` whose symbol is `Label` (its own type and parameters).
  FunctionDecl *renamed(FunctionDecl *FD, const std::string &Label) {
    FunctionDecl *&New = Renamed[Label];
    if (New)
      return New;
    SourceLocation Loc = FD->getLocation();
    New = FunctionDecl::Create(*Ctx, FD->getDeclContext(), Loc, Loc, FD->getDeclName(),
                               FD->getType(), FD->getTypeSourceInfo(), SC_Extern);
    New->setImplicit(true);
    llvm::SmallVector<ParmVarDecl *, 4> Params;
    for (ParmVarDecl *P : FD->parameters()) {
      ParmVarDecl *Q = ParmVarDecl::Create(*Ctx, New, Loc, Loc, nullptr, P->getType(),
                                           P->getTypeSourceInfo(), SC_None, nullptr);
      Q->setScopeInfo(0, Params.size());
      Params.push_back(Q);
    }
    New->setParams(Params);
    New->addAttr(AsmLabelAttr::CreateImplicit(*Ctx, Label));
    return New;
  }
};

// `-fplugin-arg-ferrozyme-no-pass` (or `-Xclang -plugin-arg-ferrozyme -Xclang
// attributes-only`): only the source attributes and loop annotations below, no pass and no
// header folder (what `ferrozyme cc` loads the library for: it runs the pass itself).
class AddPassPlugin final : public PluginASTAction {
  bool NoPass = false;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    if (NoPass)
      return std::make_unique<TwoPartArguments>();
    addHeaderDir(CI);
    if (!Pass) {
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "ferrozyme: cannot load the pass plugin %0 (build it with "
                                 "cargo build --release -p ferrozyme-plugin)"))
          << PassError;
      return std::make_unique<ASTConsumer>();
    }
    for (const auto &P : CI.getPassPlugins())
      if (sameFile(P->getFilename().str(), Pass->getFilename().str()))
        return std::make_unique<TwoPartArguments>(); // -fpass-plugin named it too
    llvm::PassPlugin *PP = &*Pass;
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [PP](llvm::PassBuilder &PB) { PP->registerPassBuilderCallbacks(PB); });
    return std::make_unique<TwoPartArguments>();
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &Args) override {
    for (const auto &A : Args)
      NoPass |= A == "no-pass" || A == "attributes-only";
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

FrontendPluginRegistry::Add<AddPassPlugin>
    RegisterAction("ferrozyme", "run Ferrozyme's AD pass in clang's optimization pipeline");

// An Enzyme attribute on a function or variable, kept as the annotation `Text` (plus the
// string argument after `Text` when the attribute takes one); an empty `Text` accepts the
// attribute and keeps nothing (Enzyme's optimization hints, which do not change a
// derivative). Spelled as Enzyme's plugin spells them: `__attribute__((enzyme_X))`,
// `[[enzyme_X]]` and `[[enzyme::X]]` (C23 and C++11).
class AnnotationAttr : public ParsedAttrInfo {
  std::string Text;
  bool TakesName;
  std::string Name;
  std::string Scoped;
  std::string Bare;
  std::vector<Spelling> Names;

public:
  AnnotationAttr(std::string Word, std::string Text, bool TakesName)
      : Text(std::move(Text)), TakesName(TakesName) {
    // Optional to clang, checked here: with `NumArgs = 1` clang refuses
    // `[[enzyme::function_like("log1p")]]` ("takes one argument").
    OptArgs = TakesName ? 1 : 0;
    Name = "enzyme_" + Word;
    Scoped = "enzyme::" + Word;
    for (auto Syntax : {ParsedAttr::AS_GNU, ParsedAttr::AS_C23, ParsedAttr::AS_CXX11})
      Names.push_back({Syntax, Name.c_str()});
    for (auto Syntax : {ParsedAttr::AS_C23, ParsedAttr::AS_CXX11})
      Names.push_back({Syntax, Scoped.c_str()});
    if (TakesName) {
      // clang 22 asks plugins whether a scoped attribute takes arguments by its name
      // without the scope: without `[[function_like]]` registered too,
      // `[[enzyme::function_like("log1p")]]` reaches the handler with no arguments.
      Bare = Word;
      for (auto Syntax : {ParsedAttr::AS_C23, ParsedAttr::AS_CXX11})
        Names.push_back({Syntax, Bare.c_str()});
    }
    Spellings = Names;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    if (isa<FunctionDecl>(D) || isa<VarDecl>(D))
      return true;
    S.Diag(A.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << A << A.isRegularKeywordAttribute() << "functions and variables";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    std::string Note = Text;
    if (TakesName) {
      const auto *Lit =
          A.getNumArgs() == 1 && A.isArgExpr(0)
              ? dyn_cast<StringLiteral>(A.getArgAsExpr(0)->IgnoreParenImpCasts())
              : nullptr;
      if (!Lit && A.getNumArgs() == 0 && A.hasScope()) {
        // clang 22 parses no arguments of a scoped attribute a plugin registers.
        DiagnosticsEngine &Diags = S.getDiagnostics();
        Diags.Report(A.getLoc(),
                     Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                           "clang passes no arguments of `[[%0]]` to "
                                           "plugins: write [[%1(\"name\")]] or "
                                           "__attribute__((%1(\"name\")))"))
            << Scoped << Name;
        return AttributeNotApplied;
      }
      if (!Lit) {
        S.Diag(A.getLoc(), diag::err_attribute_argument_type) << A << AANT_ArgumentString;
        return AttributeNotApplied;
      }
      Note += Lit->getString().str();
    }
    if (!Note.empty())
      D->addAttr(AnnotateAttr::Create(S.Context, Note, nullptr, 0, A.getRange()));
    return AttributeApplied;
  }
};

struct InactiveAttr final : AnnotationAttr {
  InactiveAttr() : AnnotationAttr("inactive", "enzyme_inactive", false) {}
};
struct InactiveNoblockAttr final : AnnotationAttr {
  InactiveNoblockAttr() : AnnotationAttr("inactive_noblock", "enzyme_inactive", false) {}
};
struct FunctionLikeAttr final : AnnotationAttr {
  FunctionLikeAttr() : AnnotationAttr("function_like", "enzyme_function_like:", true) {}
};
// Hints: Enzyme may cache less or skip an analysis; the derivative is the same without.
struct NoFreeAttr final : AnnotationAttr {
  NoFreeAttr() : AnnotationAttr("nofree", "", false) {}
};
struct ShouldRecomputeAttr final : AnnotationAttr {
  ShouldRecomputeAttr() : AnnotationAttr("shouldrecompute", "", false) {}
};
struct ElementwiseReadAttr final : AnnotationAttr {
  ElementwiseReadAttr() : AnnotationAttr("elementwise_read", "", false) {}
};
struct NoTypeAnalysisAttr final : AnnotationAttr {
  NoTypeAnalysisAttr() : AnnotationAttr("notypeanalysis", "", false) {}
};
struct NoEscapingAllocationAttr final : AnnotationAttr {
  NoEscapingAllocationAttr() : AnnotationAttr("no_escaping_allocation", "", false) {}
};

ParsedAttrInfoRegistry::Add<InactiveAttr> RegisterInactive("enzyme_inactive", "");
ParsedAttrInfoRegistry::Add<InactiveNoblockAttr>
    RegisterInactiveNoblock("enzyme_inactive_noblock", "");
ParsedAttrInfoRegistry::Add<FunctionLikeAttr> RegisterFunctionLike("enzyme_function_like",
                                                                   "");
ParsedAttrInfoRegistry::Add<NoFreeAttr> RegisterNoFree("enzyme_nofree", "");
ParsedAttrInfoRegistry::Add<ShouldRecomputeAttr>
    RegisterShouldRecompute("enzyme_shouldrecompute", "");
ParsedAttrInfoRegistry::Add<ElementwiseReadAttr>
    RegisterElementwiseRead("enzyme_elementwise_read", "");
ParsedAttrInfoRegistry::Add<NoTypeAnalysisAttr>
    RegisterNoTypeAnalysis("enzyme_notypeanalysis", "");
ParsedAttrInfoRegistry::Add<NoEscapingAllocationAttr>
    RegisterNoEscapingAllocation("enzyme_no_escaping_allocation", "");

// ---------------------------------------------------------------------------------------
// Loops annotated for checkpointing.

// The schedule tags of <enzyme/checkpoint_schedule.h>.
enum : int64_t { SchedPeriodic = 1, SchedRevolve = 2, SchedStoreAll = 3, SchedBinomial = 4 };

// The tag of a schedule name; `Older`: Reactant's enzyme_checkpointing_enable, whose
// names are "binomial" and "regular" (periodic). -1 for an unknown name.
int64_t scheduleTag(llvm::StringRef Name, bool Older) {
  if (Name == "binomial")
    return SchedBinomial;
  if (Older)
    return Name == "regular" ? SchedPeriodic : -1;
  if (Name == "periodic")
    return SchedPeriodic;
  if (Name == "revolve")
    return SchedRevolve;
  if (Name == "store_all")
    return SchedStoreAll;
  return -1;
}

// `void __enzyme_set_checkpointing(long long, long long)`, declared once per translation
// unit (C++ mangles it; the pass matches the name by containment).
FunctionDecl *setCheckpointingDecl(Sema &S, SourceLocation Loc) {
  ASTContext &Ctx = S.Context;
  IdentifierInfo &II = Ctx.Idents.get("__enzyme_set_checkpointing");
  DeclarationName Name(&II);
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  for (NamedDecl *D : TU->lookup(Name))
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      return FD;
  QualType I64 = Ctx.LongLongTy;
  FunctionProtoType::ExtProtoInfo EPI;
  QualType FT = Ctx.getFunctionType(Ctx.VoidTy, {I64, I64}, EPI);
  FunctionDecl *FD =
      FunctionDecl::Create(Ctx, TU, Loc, Loc, Name, FT, Ctx.getTrivialTypeSourceInfo(FT),
                           SC_Extern);
  FD->setImplicit(true);
  llvm::SmallVector<ParmVarDecl *, 2> Params;
  for (int I = 0; I < 2; I++) {
    ParmVarDecl *P = ParmVarDecl::Create(Ctx, FD, Loc, Loc, nullptr, I64,
                                         Ctx.getTrivialTypeSourceInfo(I64), SC_None, nullptr);
    P->setScopeInfo(0, I);
    Params.push_back(P);
  }
  FD->setParams(Params);
  TU->addDecl(FD);
  return FD;
}

Stmt *loopBody(Stmt *St) {
  if (auto *F = dyn_cast<ForStmt>(St))
    return F->getBody();
  if (auto *W = dyn_cast<WhileStmt>(St))
    return W->getBody();
  if (auto *D = dyn_cast<DoStmt>(St))
    return D->getBody();
  if (auto *R = dyn_cast<CXXForRangeStmt>(St))
    return R->getBody();
  return nullptr;
}

void setLoopBody(Stmt *St, Stmt *Body) {
  if (auto *F = dyn_cast<ForStmt>(St))
    F->setBody(Body);
  else if (auto *W = dyn_cast<WhileStmt>(St))
    W->setBody(Body);
  else if (auto *D = dyn_cast<DoStmt>(St))
    D->setBody(Body);
  else if (auto *R = dyn_cast<CXXForRangeStmt>(St))
    R->setBody(Body);
}

// A loop annotation: `name(["schedule"[, budget]])`.
class CheckpointAttr : public ParsedAttrInfo {
  bool Older;
  std::vector<Spelling> Names;

public:
  CheckpointAttr(bool Older, std::vector<Spelling> S) : Older(Older), Names(std::move(S)) {
    OptArgs = 2;
    IsStmt = 1;
    Spellings = Names;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *) const override {
    S.Diag(A.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << A << A.isRegularKeywordAttribute() << "loops";
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A, const Stmt *St) const override {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(St))
      return true;
    DiagnosticsEngine &D = S.getDiagnostics();
    D.Report(A.getLoc(), D.getCustomDiagID(DiagnosticsEngine::Error,
                                           "'%0' applies to loops (for, while, do)"))
        << A.getAttrName()->getName();
    return false;
  }

  AttrHandling handleStmtAttribute(Sema &S, Stmt *St, const ParsedAttr &A,
                                   class Attr *&Result) const override {
    DiagnosticsEngine &D = S.getDiagnostics();
    ASTContext &Ctx = S.Context;
    int64_t Tag = SchedPeriodic, Budget = -1;
    const char *Accepted = Older ? "\"binomial\", \"regular\""
                                 : "\"periodic\", \"revolve\", \"store_all\", \"binomial\"";
    if (A.getNumArgs() > 0) {
      const auto *Lit = A.isArgExpr(0) ? dyn_cast_or_null<StringLiteral>(
                                              A.getArgAsExpr(0)->IgnoreParenImpCasts())
                                        : nullptr;
      if (!Lit) {
        D.Report(A.getLoc(), D.getCustomDiagID(DiagnosticsEngine::Error,
                                               "'%0': the first argument is the schedule's "
                                               "name, a string: one of %1"))
            << A.getAttrName()->getName() << Accepted;
        return AttributeNotApplied;
      }
      Tag = scheduleTag(Lit->getString(), Older);
      if (Tag < 0) {
        D.Report(Lit->getBeginLoc(),
                 D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "'%0': unknown checkpointing schedule \"%1\"; the "
                                   "accepted ones are %2"))
            << A.getAttrName()->getName() << Lit->getString() << Accepted;
        return AttributeNotApplied;
      }
    }
    // A budget that depends on a template parameter stays an expression: the call is
    // rebuilt (and converted) when the template is instantiated.
    Expr *DependentBudget = nullptr;
    if (A.getNumArgs() > 1) {
      Expr *E = A.isArgExpr(1) ? A.getArgAsExpr(1) : nullptr;
      std::optional<llvm::APSInt> V;
      if (E && E->isValueDependent())
        DependentBudget = E;
      else if (E)
        V = E->getIntegerConstantExpr(Ctx);
      if (!V && !DependentBudget) {
        D.Report(A.getLoc(), D.getCustomDiagID(DiagnosticsEngine::Error,
                                               "'%0': the budget (second argument) must be "
                                               "an integer constant"))
            << A.getAttrName()->getName();
        return AttributeNotApplied;
      }
      if (V) {
        Budget = V->getExtValue();
        if (Budget <= 0)
          Budget = -1;
      }
    }
    Stmt *Body = loopBody(St);
    if (!Body)
      return AttributeNotApplied;
    SourceLocation Loc = St->getBeginLoc();
    FunctionDecl *FD = setCheckpointingDecl(S, Loc);
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), FD,
                                    false, Loc, FD->getType(), VK_LValue);
    auto *Fn = ImplicitCastExpr::Create(Ctx, Ctx.getPointerType(FD->getType()),
                                        CK_FunctionToPointerDecay, Ref, nullptr, VK_PRValue,
                                        FPOptionsOverride());
    unsigned W = Ctx.getTypeSize(Ctx.LongLongTy);
    Expr *Args[] = {
        IntegerLiteral::Create(Ctx, llvm::APInt(W, Tag, true), Ctx.LongLongTy, Loc),
        DependentBudget ? DependentBudget
                        : IntegerLiteral::Create(Ctx, llvm::APInt(W, Budget, true),
                                                 Ctx.LongLongTy, Loc)};
    CallExpr *Call = CallExpr::Create(Ctx, Fn, Args, Ctx.VoidTy, VK_PRValue, Loc,
                                      FPOptionsOverride());
    Stmt *Stmts[] = {Call, Body};
    setLoopBody(St, CompoundStmt::Create(Ctx, Stmts, FPOptionsOverride(), Body->getBeginLoc(),
                                         Body->getEndLoc()));
    Result = AnnotateAttr::CreateImplicit(Ctx, "enzyme_checkpoint", nullptr, 0, A.getRange());
    return AttributeApplied;
  }
};

struct EnzymeCheckpointAttr final : CheckpointAttr {
  EnzymeCheckpointAttr()
      : CheckpointAttr(false, {{ParsedAttr::AS_GNU, "enzyme_checkpoint"},
                               {ParsedAttr::AS_C23, "enzyme::checkpoint"},
                               {ParsedAttr::AS_CXX11, "enzyme::checkpoint"},
                               {ParsedAttr::AS_C23, "enzyme_checkpoint"},
                               {ParsedAttr::AS_CXX11, "enzyme_checkpoint"},
                               // clang 22 asks plugins whether a scoped attribute takes
                               // arguments by its name without the scope: without these
                               // `[[enzyme::checkpoint("revolve", 3)]]` loses its arguments.
                               {ParsedAttr::AS_C23, "checkpoint"},
                               {ParsedAttr::AS_CXX11, "checkpoint"}}) {}
};
struct CheckpointingEnableAttr final : CheckpointAttr {
  CheckpointingEnableAttr()
      : CheckpointAttr(true, {{ParsedAttr::AS_GNU, "enzyme_checkpointing_enable"},
                              {ParsedAttr::AS_C23, "enzyme_checkpointing_enable"},
                              {ParsedAttr::AS_CXX11, "enzyme_checkpointing_enable"},
                              {ParsedAttr::AS_C23, "enzyme::checkpointing_enable"},
                              {ParsedAttr::AS_CXX11, "enzyme::checkpointing_enable"},
                              {ParsedAttr::AS_C23, "checkpointing_enable"},
                              {ParsedAttr::AS_CXX11, "checkpointing_enable"}}) {}
};

ParsedAttrInfoRegistry::Add<EnzymeCheckpointAttr> RegisterCheckpoint("enzyme_checkpoint", "");
ParsedAttrInfoRegistry::Add<CheckpointingEnableAttr>
    RegisterCheckpointingEnable("enzyme_checkpointing_enable", "");

// `#pragma enzyme checkpoint[("schedule"[, budget])]` (also `checkpointing_enable`) on
// the line before a loop: becomes `__attribute__((enzyme_checkpoint(...)))` in front of
// the next statement.
class EnzymePragma final : public PragmaHandler {
public:
  EnzymePragma() : PragmaHandler("enzyme") {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer, Token &First) override {
    Token Tok;
    PP.Lex(Tok);
    DiagnosticsEngine &D = PP.getDiagnostics();
    const char *Attr = nullptr;
    if (Tok.is(tok::identifier) && Tok.getIdentifierInfo()->getName() == "checkpoint")
      Attr = "enzyme_checkpoint";
    else if (Tok.is(tok::identifier) &&
             Tok.getIdentifierInfo()->getName() == "checkpointing_enable")
      Attr = "enzyme_checkpointing_enable";
    if (!Attr) {
      D.Report(Tok.getLocation(),
               D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "unknown '#pragma enzyme' (known: checkpoint, "
                                 "checkpointing_enable); ignored"));
      while (Tok.isNot(tok::eod))
        PP.Lex(Tok);
      return;
    }
    SourceLocation Loc = Tok.getLocation();
    std::vector<Token> Args;
    PP.Lex(Tok);
    while (Tok.isNot(tok::eod)) {
      Args.push_back(Tok);
      PP.Lex(Tok);
    }
    auto punct = [&](tok::TokenKind K) {
      Token T;
      T.startToken();
      T.setKind(K);
      T.setLocation(Loc);
      return T;
    };
    auto ident = [&](llvm::StringRef Name, tok::TokenKind K) {
      Token T;
      T.startToken();
      T.setKind(K);
      T.setIdentifierInfo(PP.getIdentifierInfo(Name));
      T.setLocation(Loc);
      return T;
    };
    std::vector<Token> Out = {ident("__attribute__", tok::kw___attribute),
                              punct(tok::l_paren), punct(tok::l_paren),
                              ident(Attr, tok::identifier)};
    Out.insert(Out.end(), Args.begin(), Args.end());
    Out.push_back(punct(tok::r_paren));
    Out.push_back(punct(tok::r_paren));
    auto Toks = std::make_unique<Token[]>(Out.size());
    std::copy(Out.begin(), Out.end(), Toks.get());
    PP.EnterTokenStream(std::move(Toks), Out.size(), /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }
};

PragmaHandlerRegistry::Add<EnzymePragma> RegisterPragma("enzyme", "Enzyme's loop pragmas");

} // namespace

// Referenced from lib.rs so that this file's object is linked into the library.
extern "C" int ferrozyme_clang_frontend_linked() { return 1; }
