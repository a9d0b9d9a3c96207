//===- TargetTriple.h - A target's arch, OS and environment -----*- C++ -*-===//
//
// The drivers link the runtime built for the command line's target, from a
// directory named after its architecture, OS and environment. A triple is
// read here as LLVM's Triple reads Triple::normalize's result, for any
// spelling ("arm64-linux-gnu", "aarch64-unknown-linux-gnu"), and each part
// named by its canonical name, as Triple::get*TypeName names it.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_INSTRUMENT_DRIVER_TARGETTRIPLE_H
#define PCMAP_INSTRUMENT_DRIVER_TARGETTRIPLE_H

#include <string>
#include <string_view>

namespace pcmap::driver {

/// The canonical names of a triple's parts; "unknown" for one that is not
/// given or not known.
struct TargetTriple {
  std::string Arch, OS, Environment;
};

TargetTriple parseTargetTriple(std::string_view Triple);

} // namespace pcmap::driver

#endif // PCMAP_INSTRUMENT_DRIVER_TARGETTRIPLE_H
