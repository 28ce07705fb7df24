#pragma once
// A reference named by a TOML instance ([b] reference = "refs.py:softmax") traced by the racer
// Python package (python3 -m racer.reference), the way the Triton front end compiles kernels.
#include "instance/instance.hpp"

namespace racer::frontend {

// Fills inst.b.reference when inst.b.reference_spec names one (else does nothing). Errors of
// the function (an unsupported operation, a wrong output shape) come back located at the
// user's line; a missing Python or racer package is racer::Error(BadInput) too.
void trace_reference(instance::Instance& inst);

}  // namespace racer::frontend
