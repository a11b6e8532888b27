// The C++ half of Ferrozyme's LLVM pass plugin: only what LLVM's C API cannot do.
//
// It registers the pass with the new pass manager's PassBuilder and forwards each run to
// Rust (`ferrozyme_plugin_run`, src/lib.rs). Registration:
//   * pipeline parsing: the module pass names `ferrozyme` and `enzyme`, for
//     `opt-22 -load-pass-plugin=... -passes=ferrozyme` (and Enzyme's scripts unchanged);
//   * OptimizerEarlyEP at -O1 and above, for `clang-22 -fpass-plugin=...`: after the
//     simplification pipeline (inlining), before the vectorizers and the unroller, which
//     then optimize the derivative code too; OptimizerLastEP at -O0 (LLVM 22's O0
//     pipeline, buildO0DefaultPipeline, invokes those callbacks) and as a safety net at
//     every level (checked by tests/plugin.rs with FERROZYME_PLUGIN_TRACE=1). At -O1 and
//     above the pass carries a cleanup pipeline (inliner + function simplification) that
//     it runs only when it generated code;
//   * FullLinkTimeOptimizationEarly/LastEP, for full LTO's link (lld's
//     `--load-pass-plugin`): the files are one module there. In an LTO pre-link compile a
//     module whose hook calls differentiate a function of another file is left to the
//     link; in a ThinLTO back end such a call is an error naming full LTO (tests/lto.rs).
//
// Errors come back from Rust as text and are reported through the LLVM context, so clang
// and opt print them and exit non-zero: located at the first diagnostic's source line
// (DiagnosticInfoUnsupported), which `clang -Xclang -verify` tests can expect. Remarks
// (what the reverse sweep caches, recomputes, re-reads) become OptimizationRemarks under
// Enzyme's pass name `enzyme`: `clang -Rpass=enzyme`, `opt -pass-remarks=enzyme`.
//
// Enzyme's command-line options (`-enzyme-inline=1` ...) are LLVM cl::opts created when
// the plugin is loaded, from the table in Rust (ferrozyme_abi::options, read through
// ferrozyme_plugin_option_*); at each run the options given on the command line are
// handed to Rust as `name=value` words. For clang, whose -mllvm options are parsed
// before pass plugins are loaded, load the plugin early too: `-fplugin=<lib>`.

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace llvm;

extern "C" int ferrozyme_plugin_run(LLVMModuleRef M, const char *const *Settings,
                                    size_t NumSettings, int WantRemarks, int Pipeline,
                                    char **ErrOut, char **PrintOut, char **RecordsOut,
                                    int *ChangedOut, int *StreamsOut);
extern "C" size_t ferrozyme_plugin_fold_splices(LLVMModuleRef M);
extern "C" int ferrozyme_plugin_prepare(LLVMModuleRef M);
extern "C" int ferrozyme_plugin_call_into_other_file(LLVMModuleRef M, LLVMValueRef *Call,
                                                    LLVMValueRef *Fn);
extern "C" size_t ferrozyme_plugin_option_count();
extern "C" void ferrozyme_plugin_option(size_t I, const char **Name, int *Kind,
                                        const char **Desc, const char **Default);

namespace {

// Enzyme's options, registered with LLVM's command line when the plugin is loaded. They
// live as long as the process (the plugin is never unloaded), so they are never freed.
class EnzymeOptions {
public:
  EnzymeOptions() {
    size_t N = ferrozyme_plugin_option_count();
    for (size_t I = 0; I < N; ++I) {
      const char *Name, *Desc, *Default;
      int Kind;
      ferrozyme_plugin_option(I, &Name, &Kind, &Desc, &Default);
      if (cl::getRegisteredOptions().count(Name))
        continue; // another copy of the plugin (or Enzyme itself) registered it
      switch (Kind) {
      case 0: {
        auto *O = new cl::opt<bool>(StringRef(Name), cl::Hidden, cl::desc(Desc));
        Readers.push_back({Name, [O]() -> std::pair<bool, std::string> {
                             return {O->getNumOccurrences() > 0, *O ? "1" : "0"};
                           }});
        break;
      }
      case 1: {
        auto *O = new cl::opt<int>(StringRef(Name), cl::Hidden, cl::desc(Desc),
                                   cl::init(std::atoi(Default)));
        Readers.push_back({Name, [O]() -> std::pair<bool, std::string> {
                             return {O->getNumOccurrences() > 0, std::to_string(*O)};
                           }});
        break;
      }
      default: {
        auto *O = new cl::opt<std::string>(StringRef(Name), cl::Hidden, cl::desc(Desc),
                                           cl::init(std::string(Default)));
        Readers.push_back({Name, [O]() -> std::pair<bool, std::string> {
                             return {O->getNumOccurrences() > 0, std::string(*O)};
                           }});
        break;
      }
      }
    }
  }

  // `name=value` for every option given on the command line.
  std::vector<std::string> given() const {
    std::vector<std::string> Out;
    for (const auto &R : Readers) {
      auto [Given, Value] = R.second();
      if (Given)
        Out.push_back(std::string(R.first) + "=" + Value);
    }
    return Out;
  }

private:
  std::vector<std::pair<const char *, std::function<std::pair<bool, std::string>()>>>
      Readers;
};

EnzymeOptions &enzymeOptions() {
  static EnzymeOptions *Opts = new EnzymeOptions();
  return *Opts;
}

// Created at load time, so the options exist before the tool parses the rest of its
// command line (opt loads -load-pass-plugin libraries as it meets them).
[[maybe_unused]] const EnzymeOptions &LoadTimeOptions = enzymeOptions();

// The pass name of remarks: Enzyme's, so Enzyme users' -Rpass=enzyme works unchanged.
const char *const RemarkPass = "enzyme";

bool traceEnabled() {
  const char *V = std::getenv("FERROZYME_PLUGIN_TRACE");
  return V && *V && std::strcmp(V, "0") != 0;
}

// A hook call in M that differentiates a function whose body is in another file, with
// that function; {nullptr, nullptr} when there is none (found in Rust, which knows the
// hooks: ferrozyme_plugin_call_into_other_file). In an LTO pre-link compile the pass then
// leaves the module to the link, where the files are one module; in a ThinLTO back end
// (whose modules stay apart) it is an error.
std::pair<CallBase *, Function *> callIntoOtherFile(Module &M) {
  LLVMValueRef Call = nullptr, Fn = nullptr;
  if (!ferrozyme_plugin_call_into_other_file(wrap(&M), &Call, &Fn))
    return {nullptr, nullptr};
  return {dyn_cast<CallBase>(unwrap(Call)), dyn_cast<Function>(unwrap(Fn))};
}

bool isPreLink(ThinOrFullLTOPhase Phase) {
  return Phase == ThinOrFullLTOPhase::FullLTOPreLink ||
         Phase == ThinOrFullLTOPhase::ThinLTOPreLink;
}

// ThinLTO's back end optimizes each file's module apart: a function of another file is
// only a declaration there (small ones may be imported, but not reliably). Says so at the
// hook call; returns whether it did.
bool refuseThinLTOCrossFile(Module &M) {
  auto [CB, T] = callIntoOtherFile(M);
  if (!CB || !T)
    return false;
  std::string Msg = "cannot differentiate `" + T->getName().str() +
                    "`: its body is in another file, and ThinLTO (-flto=thin) optimizes each "
                    "file apart; link with full LTO instead (-flto, -flto=full), which makes "
                    "the files one module for the pass";
  M.getContext().diagnose(
      DiagnosticInfoUnsupported(*CB->getFunction(), Msg, CB->getDebugLoc()));
  return true;
}

// An LLVM switch of the loop vectorizer, set as on the command line unless the user gave
// it (then the user's value stays).
void setLoopSwitch(StringRef Name, StringRef Value) {
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(Name);
  if (It == Opts.end() || It->second->getNumOccurrences() > 0)
    return;
  It->second->addOccurrence(0, Name, Value);
}

// What one pipeline's AD run found that a later pass of the same pipeline needs.
struct PipelineState {
  // The pass generated derivative code in this pipeline's module.
  bool Differentiated = false;
};

class FerrozymePass : public PassInfoMixin<FerrozymePass> {
public:
  FerrozymePass() = default;
  explicit FerrozymePass(ModulePassManager Cleanup, ThinOrFullLTOPhase Phase,
                         OptimizationLevel Level, std::shared_ptr<PipelineState> State)
      : Cleanup(std::move(Cleanup)), HasCleanup(true), Phase(Phase),
        Vectorized(Level.getSpeedupLevel() >= 2), Unpeeled(true),
        SpeedupLevel(Level.getSpeedupLevel()), State(std::move(State)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (isPreLink(Phase) && callIntoOtherFile(M).first) {
      if (traceEnabled())
        errs() << "ferrozyme: left to the link (LTO) " << M.getModuleIdentifier() << "\n";
      return PreservedAnalyses::all();
    }
    if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink &&
        !M.getContext().getDiagHandlerPtr()->HasErrors && refuseThinLTOCrossFile(M))
      return PreservedAnalyses::all();
    if (traceEnabled())
      errs() << "ferrozyme: pass ran on " << M.getModuleIdentifier()
             << (Vectorized ? " (loops vectorized after it)" : "") << "\n";
    char *Err = nullptr;
    char *Print = nullptr;
    int Changed = 0;
    std::vector<std::string> Given = enzymeOptions().given();
    std::vector<const char *> Words;
    for (const auto &G : Given)
      Words.push_back(G.c_str());
    char *Records = nullptr;
    LLVMContext &Ctx = M.getContext();
    // An earlier run in this pipeline (OptimizerEarly, then the OptimizerLast safety net)
    // already reported errors: reporting them again would only repeat them.
    if (Ctx.getDiagHandlerPtr()->HasErrors)
      return PreservedAnalyses::all();
    int WantRemarks = Ctx.getDiagHandlerPtr()->isAnyRemarkEnabled(RemarkPass);
    int Streams = 0;
    int Pipeline = (Vectorized ? 1 : 0) | (Unpeeled ? 2 : 0) | (int(SpeedupLevel & 3) << 2);
    int Rc = ferrozyme_plugin_run(wrap(&M), Words.data(), Words.size(), WantRemarks, Pipeline,
                                  &Err, &Print, &Records, &Changed, &Streams);
    if (Print) {
      errs() << Print;
      std::free(Print);
    }
    bool Reported = false;
    if (Records) {
      Reported = report(M, Records);
      std::free(Records);
    }
    if (Rc != 0) {
      std::string Msg = Err ? Err : "ferrozyme: the AD pass failed without a message";
      std::free(Err);
      if (!Reported)
        Ctx.emitError(Msg);
      // clang and opt stop only after their whole pipeline ran: the passes after this
      // one would see the half-rewritten module (a derivative whose synthesis stopped
      // midway crashed simplifycfg, tests/c/1162's plugin trial before this). No output
      // is written after an error, so every body goes (after the report, which reads
      // the functions' debug locations): declarations are all that is left.
      for (Function &F : M)
        F.dropAllReferences();
      for (Function &F : M)
        if (!F.isDeclaration())
          F.deleteBody();
      return PreservedAnalyses::none();
    }
    if (!Changed)
      return PreservedAnalyses::all();
    if (State)
      State->Differentiated = true;
    if (traceEnabled() && Streams)
      errs() << "ferrozyme: carried reverse stencil streams"
             << ((Streams & 2) ? " (some exact)" : "") << "\n";
    // As `ferrozyme cc` (crates/ferrozyme-cli/src/pipeline.rs, NO_HOISTED_RUNTIME_CHECKS
    // and ORDERED_REDUCTIONS): carried reverse stencil streams need the vectorizer's
    // run-time alias checks in the inner loop's preheader, exact ones in-order
    // floating-point reductions. Process-wide, as there; clang compiles one module.
    if (Vectorized && (Streams & 1))
      setLoopSwitch("hoist-runtime-checks", "false");
    if (Vectorized && (Streams & 2))
      setLoopSwitch("force-ordered-reductions", "true");
    MAM.invalidate(M, PreservedAnalyses::none());
    if (HasCleanup)
      Cleanup.run(M, MAM);
    return PreservedAnalyses::none();
  }

  // Reports the records of src/records.rs through the context; returns whether an error
  // was among them.
  static bool report(Module &M, StringRef Records) {
    LLVMContext &Ctx = M.getContext();
    bool Error = false;
    SmallVector<StringRef, 16> Recs;
    Records.split(Recs, '\x1e');
    for (StringRef Rec : Recs) {
      // kind, remark name, function, line, column, message (which may hold anything).
      SmallVector<StringRef, 6> F;
      Rec.split(F, '\x1f', 5);
      if (F.size() != 6)
        continue;
      unsigned Line = 0, Col = 0;
      F[3].getAsInteger(10, Line);
      F[4].getAsInteger(10, Col);
      Function *Fn = F[2].empty() ? nullptr : M.getFunction(F[2]);
      DebugLoc DL;
      if (Fn && Line)
        if (DISubprogram *SP = Fn->getSubprogram())
          DL = DILocation::get(Ctx, Line, Col, SP);
      if (F[0] == "E") {
        Error = true;
        if (Fn)
          Ctx.diagnose(DiagnosticInfoUnsupported(*Fn, F[5], DL));
        else
          Ctx.emitError(F[5]);
      } else if (F[0] == "R" && Fn && !Fn->empty()) {
        OptimizationRemark R(RemarkPass, F[1], DL, &Fn->getEntryBlock());
        R << F[5];
        Ctx.diagnose(R);
      }
    }
    return Error;
  }

  // Run even on optnone functions' modules at -O0: differentiation is not an optimization.
  static bool isRequired() { return true; }

private:
  ModulePassManager Cleanup;
  bool HasCleanup = false;
  // In an LTO pre-link compile (`-flto -c`) hook calls that differentiate a function of
  // another file wait for the link; in a ThinLTO back end they are refused.
  ThinOrFullLTOPhase Phase = ThinOrFullLTOPhase::None;
  // clang's pipeline vectorizes loops after this pass (Options::vectorized_loops).
  bool Vectorized = false;
  // At -O1 and above the optimizer's LoopUnroll runs after this pass, not before it as in
  // `ferrozyme cc` (Options::loops_unpeeled, crates/ferrozyme-transform/src/clang_unroll.rs).
  bool Unpeeled = false;
  // clang's -O level (LoopUnroll's full-unroll thresholds depend on it).
  unsigned SpeedupLevel = 0;
  std::shared_ptr<PipelineState> State;
};

// At the end of clang's optimization pipeline, after its loop vectorizer, in a module the
// AD pass differentiated: chained recurrence splices folded into one shuffle
// (crates/ferrozyme-transform/src/splice_chains.rs), as `ferrozyme cc` does after its
// post-AD pipeline. Values are moved, never computed.
class FerrozymeSplicePass : public PassInfoMixin<FerrozymeSplicePass> {
public:
  explicit FerrozymeSplicePass(std::shared_ptr<PipelineState> State) : State(std::move(State)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!State->Differentiated || M.getContext().getDiagHandlerPtr()->HasErrors)
      return PreservedAnalyses::all();
    size_t N = ferrozyme_plugin_fold_splices(wrap(&M));
    if (traceEnabled() && N)
      errs() << "ferrozyme: folded " << N << " chained splices in " << M.getModuleIdentifier()
             << "\n";
    return N ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  std::shared_ptr<PipelineState> State;
};

// At the start of clang's pipeline: functions with registered derivatives become
// noinline, so the optimizer keeps the calls the AD pass replaces by the registered rules.
class FerrozymePreparePass : public PassInfoMixin<FerrozymePreparePass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return ferrozyme_plugin_prepare(wrap(&M)) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(FerrozymePreparePass()); });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ferrozyme" || Name == "enzyme") {
          MPM.addPass(FerrozymePass());
          return true;
        }
        return false;
      });
  PassBuilder *PBp = &PB;
  // Shared by the passes of the pipelines this PassBuilder builds (clang: one module).
  auto State = std::make_shared<PipelineState>();
  // The derivative code is new: inline the primal helpers into it and simplify, then drop
  // what became dead. clang vectorizes loops at -O2 and above by default; the pass cannot
  // see -fno-vectorize (PassBuilder's tuning options are private), so it assumes the
  // default (bench/README.md "perf30").
  auto WithCleanup = [PBp, State](OptimizationLevel Level, ThinOrFullLTOPhase Phase) {
    ModulePassManager Cleanup;
    Cleanup.addPass(PBp->buildInlinerPipeline(Level, ThinOrFullLTOPhase::None));
    Cleanup.addPass(GlobalDCEPass());
    return FerrozymePass(std::move(Cleanup), Phase, Level, State);
  };
  // At -O1 and above: at the start of the optimization pipeline, after inlining and
  // simplification and before the loop vectorizer, SLP vectorizer and unroller, which then
  // run on the derivative code too (as `ferrozyme cc` does: AD before the vectorizers).
  PB.registerOptimizerEarlyEPCallback(
      [WithCleanup](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase Phase) {
        if (Level != OptimizationLevel::O0)
          MPM.addPass(WithCleanup(Level, Phase));
      });
  // At -O0 (whose pipeline has no OptimizerEarly), and at every level as a safety net for
  // pipelines that skip OptimizerEarly (ThinLTO's pre-link): a second run finds no hook
  // calls left and returns at once.
  // At -O1 and above, after the safety net: the splice fold over what clang's vectorizer
  // made of the derivative loops.
  PB.registerOptimizerLastEPCallback([WithCleanup, State](ModulePassManager &MPM,
                                                          OptimizationLevel Level,
                                                          ThinOrFullLTOPhase Phase) {
    if (Level == OptimizationLevel::O0) {
      MPM.addPass(FerrozymePass());
    } else {
      MPM.addPass(WithCleanup(Level, Phase));
      MPM.addPass(FerrozymeSplicePass(State));
    }
  });
  // Full LTO's link (`-flto`, lld with `--load-pass-plugin`): the files are one module
  // now; differentiate before the link-time optimizations, which then optimize the
  // derivative code, and again at their end as a safety net.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [WithCleanup](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(WithCleanup(Level, ThinOrFullLTOPhase::FullLTOPostLink));
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [WithCleanup](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(WithCleanup(Level, ThinOrFullLTOPhase::FullLTOPostLink));
      });
}

} // namespace

static_assert(sizeof(PassPluginLibraryInfo) == 5 * sizeof(void *),
              "src/lib.rs mirrors PassPluginLibraryInfo with five pointer-sized fields");
static_assert(offsetof(PassPluginLibraryInfo, RegisterPassBuilderCallbacks) == 3 * sizeof(void *),
              "src/lib.rs mirrors PassPluginLibraryInfo's field order");

// Fills in the info for the exported `llvmGetPassPluginInfo` in src/lib.rs: a Rust cdylib exports
// only symbols defined in Rust, so the entry point LLVM looks for lives there.
extern "C" void ferrozyme_plugin_info(PassPluginLibraryInfo *Info) {
  Info->APIVersion = LLVM_PLUGIN_API_VERSION;
  Info->PluginName = "ferrozyme";
  Info->PluginVersion = FERROZYME_VERSION;
  Info->RegisterPassBuilderCallbacks = registerCallbacks;
  Info->PreCodeGenCallback = nullptr;
}
