// The C++ half of Ferrozyme's LLVM pass plugin: only what LLVM's C API cannot do.
//
// It registers the pass with the new pass manager's PassBuilder and forwards each run to
// Rust (`ferrozyme_plugin_run`, src/lib.rs). Registration:
//   * pipeline parsing: the module pass names `ferrozyme` and `enzyme`, for
//     `opt-22 -load-pass-plugin=... -passes=ferrozyme` (and Enzyme's scripts unchanged);
//   * OptimizerLastEP: for `clang-22 -fpass-plugin=...`, at every -O level. LLVM 22's
//     O0 pipeline (buildO0DefaultPipeline) invokes the OptimizerLast callbacks too, so
//     one registration covers -O0..-O3 (checked by tests/plugin.rs with
//     FERROZYME_PLUGIN_TRACE=1). At -O1 and above the pass carries a cleanup pipeline
//     (inliner + function simplification) that it runs only when it generated code.
//
// Errors come back from Rust as text and are reported through the LLVM context, so clang
// and opt print them and exit non-zero.

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>

using namespace llvm;

extern "C" int ferrozyme_plugin_run(LLVMModuleRef M, char **ErrOut, int *ChangedOut);
extern "C" int ferrozyme_plugin_prepare(LLVMModuleRef M);

namespace {

bool traceEnabled() {
  const char *V = std::getenv("FERROZYME_PLUGIN_TRACE");
  return V && *V && std::strcmp(V, "0") != 0;
}

class FerrozymePass : public PassInfoMixin<FerrozymePass> {
public:
  FerrozymePass() = default;
  explicit FerrozymePass(ModulePassManager Cleanup)
      : Cleanup(std::move(Cleanup)), HasCleanup(true) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (traceEnabled())
      errs() << "ferrozyme: pass ran on " << M.getModuleIdentifier() << "\n";
    char *Err = nullptr;
    int Changed = 0;
    int Rc = ferrozyme_plugin_run(wrap(&M), &Err, &Changed);
    if (Rc != 0) {
      std::string Msg = Err ? Err : "ferrozyme: the AD pass failed without a message";
      std::free(Err);
      M.getContext().emitError(Msg);
      return PreservedAnalyses::none();
    }
    if (!Changed)
      return PreservedAnalyses::all();
    MAM.invalidate(M, PreservedAnalyses::none());
    if (HasCleanup)
      Cleanup.run(M, MAM);
    return PreservedAnalyses::none();
  }

  // Run even on optnone functions' modules at -O0: differentiation is not an optimization.
  static bool isRequired() { return true; }

private:
  ModulePassManager Cleanup;
  bool HasCleanup = false;
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
  PB.registerOptimizerLastEPCallback(
      [PBp](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        if (Level == OptimizationLevel::O0) {
          MPM.addPass(FerrozymePass());
          return;
        }
        // The derivative code is new: inline the primal helpers into it and simplify,
        // then drop what became dead.
        ModulePassManager Cleanup;
        Cleanup.addPass(PBp->buildInlinerPipeline(Level, ThinOrFullLTOPhase::None));
        Cleanup.addPass(GlobalDCEPass());
        MPM.addPass(FerrozymePass(std::move(Cleanup)));
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
