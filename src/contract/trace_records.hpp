#pragma once
// The trace records of contract measurements (trace/ writes and signs them): one record per
// measured (configuration, sample), then one with the implementation's verdict. Each names the
// contract and the hash of its file, the implementation and the hash of its PTX, the backend
// and its device profile, the seed and a digest of the inputs, the residual and the bound
// (exact hex), and the outcome.
#include <string>

#include "contract/measure.hpp"
#include "trace/trace.hpp"

namespace racer::contract {

void append_records(trace::Writer& w, const LoadedContracts& f, const Contract& c, const Impl& impl, const CheckReport& r,
                    const std::string& protocol);

}  // namespace racer::contract
