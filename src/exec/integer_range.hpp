#pragma once
// Where a symbol read from an integer tensor lies: the instance's declared range for an input
// cell that has one, else its dtype's. The machine's overflow proofs, its enumeration of the
// addresses an index read from memory can name, and the decider's witnesses all keep to it
// (a witness outside it could not be loaded).
#include <optional>

#include "exec/int_bounds.hpp"
#include "exec/launch.hpp"
#include "exec/session.hpp"

namespace racer::exec {

// nullopt for a float tensor.
std::optional<Interval> integer_range(const TensorSpec& t, const SymbolOrigin& o);

}  // namespace racer::exec
